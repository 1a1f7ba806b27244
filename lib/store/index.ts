/**
 * lib/store: the observatory's database.
 * Only this folder imports Prisma, pg and PGlite (docs/architecture.md "Folders"); what lives
 * here and how to add a table: lib/store/README.md.
 */
import 'server-only';
export { openStore, type OpenStoreParams, type Store, type StoreLogger } from './store';
export { createIngestQueue, type IngestQueue, type IngestQueueOptions, type PushResult, type IngestTarget } from './queue';
export { conversationBit, storedStateSql } from './derive';
export { StoreError, MigrationError, StoreClosedError, isStoreUnavailable } from './errors';
export type * from './types';
export { ENVELOPE_SOURCES } from './types';
export type {
  BatchStatus, StakeInput, LeaseInput, BatchInput, ChallengeInput, ChainEventInput, StakeRow, LeaseRow, BatchRow,
  ChallengeRow, ChainEventRow, Cursor,
} from './chain';
export type { ListConversationsParams } from './queries';
export type { SaveEpochLogResult, EpochLogEntryRow } from './epoch-log';
export { MESH_HEALTH_RETENTION, NODE_TOPIC, type MeshHealthRes, type MeshHealthRow } from './mesh-health';
export type { HaggleEventInput, HaggleKind, HaggleColumns, HaggleCreated } from './haggle';
export type { AlertsStore, AlertRow, WatchItemRow, WatchRuleRow, WebhookRow, NewAlert, ClearAlert, DeliveryEvent, ClaimedDelivery } from './alerts';
export type { UsedSignatures } from './used-signatures';
