/**
 * Gossip ↔ chain reconciliation as GET /api/reconciliation, the /reconciliation pages and the
 * agent page show it: the store's rows (lib/store/reconciliation/reconciliation.ts) in the wire form of
 * lib/wire/reconciliation.ts, shared so a page and the API can never disagree on a figure.
 */
import 'server-only';
import { toHex } from '../../lib/protocol/hex';
import {
  DETAIL_LIST_LIMIT,
  type EnvelopeRef,
  RECON_TOPICS,
  type ReconciliationRow,
  type TopicFigures,
} from '../../lib/store/reconciliation';
import type {
  ReconciliationDetailView,
  ReconciliationRowView,
  ReconciliationView,
} from '../../lib/wire/reconciliation';
import type { Services } from './services';

/** Why a figure is not given for a batch verdict; null when the figures are compared. */
export function unknownReason(status: string | null): string | null {
  if (status === 'verified') return null;
  if (status === 'mismatch')
    return 'the batch does not match the uploaded log, so no log is committed for this epoch: nothing is compared';
  if (status === 'unverified')
    return 'no uploaded log has been checked against the batch yet: nothing is committed to compare with';
  return 'no batch of this agent and epoch has been indexed: nothing is committed to compare with';
}

const share = (t: TopicFigures) => ({
  seen: t.seen,
  committed: t.committed,
  share: t.seen === 0 ? null : Math.round((t.committed / t.seen) * 10_000) / 10_000,
});
const topics = <T>(f: (k: (typeof RECON_TOPICS)[number]) => T) =>
  Object.fromEntries(RECON_TOPICS.map((k) => [k, f(k)])) as Record<(typeof RECON_TOPICS)[number], T>;

function rowView(r: ReconciliationRow): ReconciliationRowView {
  return {
    agent: toHex(r.agent),
    epoch: r.epoch.toString(),
    status: r.status,
    unknownReason: unknownReason(r.status),
    logEntries: r.logEntries,
    seen: r.seen,
    seenLogged: r.seenLogged,
    seenNotLogged: r.seenNotLogged,
    loggedNotSeen: r.loggedNotSeen,
    topics: r.topics ? topics((k) => share(r.topics![k])) : null,
    computedAt: r.computedAt?.toISOString() ?? null,
  };
}

export async function loadReconciliation(
  o: Services,
  p: { agent?: Uint8Array; limit: number },
): Promise<ReconciliationView> {
  const store = o.reads;
  const [t, rows] = await Promise.all([
    store.reconciliationTotals(),
    store.listReconciliation({ agent: p.agent, limit: p.limit }),
  ]);
  return {
    agent: p.agent ? toHex(p.agent) : null,
    totals: { ...t, topics: topics((k) => share(t.topics[k])) },
    rows: rows.map(rowView),
  };
}

const refView = (r: EnvelopeRef) => ({ id: toHex(r.id), msgType: r.msgType, via: r.via, topic: r.topic });

export async function loadReconciliationDetail(
  o: Services,
  agent: Uint8Array,
  epoch: bigint,
): Promise<ReconciliationDetailView> {
  const d = await o.reads.reconciliationDetail(agent, epoch);
  const l = d.live;
  return {
    agent: toHex(d.agent),
    epoch: d.epoch.toString(),
    status: d.status,
    unknownReason: unknownReason(d.status),
    logEntries: d.logEntries,
    stored: d.stored ? rowView(d.stored) : null,
    listLimit: DETAIL_LIST_LIMIT,
    live: l
      ? {
          seen: l.seen,
          seenLogged: l.seenLogged,
          seenNotLogged: l.seenNotLogged,
          seenNotLoggedIds: l.seenNotLoggedIds.map(refView),
          loggedNotSeen: l.loggedNotSeen,
          loggedNotSeenIds: l.loggedNotSeenIds.map(refView),
          topics: topics((k) => ({ ...share(l.topics[k]), notCommittedIds: l.topics[k].notCommittedIds.map(refView) })),
        }
      : null,
  };
}
