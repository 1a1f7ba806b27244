/**
 * lib/store: the observatory's database.
 * Only this folder imports Prisma, pg and PGlite (docs/architecture.md "Folders"); what lives
 * here and how to add a table: lib/store/README.md.
 */
import 'server-only';

export type {
  AlertRow,
  AlertsStatements,
  ClaimedDelivery,
  ClearAlert,
  DeliveryEvent,
  NewAlert,
  WatchItemRow,
  WatchRuleRow,
  WebhookRow,
} from './alerts/alerts';
export type { AlertsStore } from './alerts/alerts-atomic';
export type {
  BatchInput,
  BatchRow,
  BatchStatus,
  ChainEventInput,
  ChainEventRow,
  ChallengeInput,
  ChallengeRow,
  Cursor,
  LeaseInput,
  LeaseRow,
  StakeInput,
  StakeRow,
} from './chain/chain';
export { conversationBit, storedStateSql } from './envelopes/derive';
export type { EpochLogEntryRow, SaveEpochLogResult } from './logs/epoch-log';
export { isStoreUnavailable, MigrationError, StoreClosedError, StoreError } from './engine/errors';
export type { HaggleColumns, HaggleCreated, HaggleEventInput, HaggleKind } from './chain/haggle';
export { inBackgroundLane } from './engine/lanes';
export {
  LEADER_LOCK_CLASS,
  LEADER_ROLES,
  type LeaderRole,
  type LeaderStatus,
  type Leadership,
  type LeaderWork,
  lead,
  leadRole,
} from './leader/leader';
export { MESH_HEALTH_RETENTION, type MeshHealthRes, type MeshHealthRow, NODE_TOPIC } from './mesh-health/mesh-health';
export type { ListConversationsParams } from './envelopes/queries';
export {
  createIngestQueue,
  type IngestQueue,
  type IngestQueueOptions,
  type IngestTarget,
  type PushResult,
} from './envelopes/queue';
export { type OpenStoreParams, openStore, type Store, type StoreLogger } from './store';
export type * from './types';
export { ENVELOPE_SOURCES } from './types';
export type { UsedSignatures } from './identity/used-signatures';
