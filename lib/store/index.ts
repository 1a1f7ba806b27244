/**
 * lib/store: the observatory's database.
 * Only this folder imports Prisma, pg and PGlite (docs/architecture.md "Folders"); what lives
 * here and how to add a table: lib/store/README.md. Outside lib/store, import this file or a
 * feature's index (`lib/store/<feature>`), never a file inside a feature.
 */
import 'server-only';

export type {
  AlertRow,
  AlertsPort,
  AlertsStatements,
  AlertsStore,
  ClaimedDelivery,
  ClearAlert,
  DeliveryEvent,
  NewAlert,
  WatchItemRow,
  WatchRuleRow,
  WebhookRow,
} from './alerts';
export type {
  BatchInput,
  BatchRow,
  BatchStatus,
  ChainEventInput,
  ChainEventRow,
  ChainPort,
  ChallengeInput,
  ChallengeRow,
  Cursor,
  HaggleColumns,
  HaggleCreated,
  HaggleEventInput,
  HaggleKind,
  LeaseInput,
  LeaseRow,
  StakeInput,
  StakeRow,
} from './chain';
export type { CollusionPort } from './collusion';
export type { DisputesPort } from './disputes';
export {
  type EnginePort,
  inBackgroundLane,
  isStoreUnavailable,
  MigrationError,
  StoreClosedError,
  StoreError,
} from './engine';
export {
  conversationBit,
  createIngestQueue,
  type EnvelopesPort,
  type IngestQueue,
  type IngestQueueOptions,
  type IngestTarget,
  type ListConversationsParams,
  type PushResult,
  storedStateSql,
} from './envelopes';
export type { ExportPort } from './export';
export type { IdentityPort, UsedSignatures } from './identity';
export {
  LEADER_LOCK_CLASS,
  LEADER_ROLES,
  type LeaderRole,
  type LeaderStatus,
  type Leadership,
  type LeaderWork,
  lead,
  leadRole,
} from './leader';
export type { EpochLogEntryRow, LogsPort, SaveEpochLogResult } from './logs';
export {
  MESH_HEALTH_RETENTION,
  type MeshHealthPort,
  type MeshHealthRes,
  type MeshHealthRow,
  NODE_TOPIC,
} from './mesh-health';
export type { ReconciliationPort } from './reconciliation';
export type { ReputationPort } from './reputation';
export { STATS_FOLD_MS, type StatsPort } from './stats';
export { type OpenStoreParams, openStore, type Store, type StoreLogger } from './store';
export type * from './types';
export { ENVELOPE_SOURCES } from './types';
