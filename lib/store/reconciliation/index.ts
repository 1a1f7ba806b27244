/**
 * lib/store/reconciliation: gossip ↔ chain reconciliation per agent-epoch
 * (lib/store/reconciliation/README.md). ReconciliationPort: totals, rows, one agent-epoch live.
 */
import 'server-only';
import type { PortContext } from '../engine/port';
import {
  listReconciliation,
  type ReconciliationDetail,
  type ReconciliationRow,
  type ReconciliationTotals,
  reconciliationDetail,
  reconciliationTotals,
} from './reconciliation';

export {
  DETAIL_LIST_LIMIT,
  type EnvelopeRef,
  RECON_TOPIC_NAMES,
  RECON_TOPICS,
  type ReconciliationDetail,
  type ReconciliationRow,
  type ReconciliationTotals,
  type ReconTopic,
  type TopicFigures,
} from './reconciliation';

/**
 * Gossip ↔ chain reconciliation (reconciliation.ts): totals and rows as stored at each verdict, one agent-epoch live.
 */
export interface ReconciliationPort {
  reconciliationTotals(): Promise<ReconciliationTotals>;
  listReconciliation(p?: { agent?: Uint8Array; limit?: number }): Promise<ReconciliationRow[]>;
  reconciliationDetail(agent: Uint8Array, epoch: bigint): Promise<ReconciliationDetail>;
}

export function reconciliationPort({ db, live }: PortContext): ReconciliationPort {
  return {
    reconciliationTotals: () => live(() => reconciliationTotals(db)),
    listReconciliation: (p) => live(() => listReconciliation(db, p)),
    reconciliationDetail: (agent, epoch) => live(() => reconciliationDetail(db, agent, epoch)),
  };
}
