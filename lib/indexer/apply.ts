/**
 * Applies one confirmed transaction to the store: decodes its events,
 * refreshes the accounts they touch (stake, lease, batch, challenge) with the generated
 * decoders, upserts the rows (idempotent, slot-monotonic), records the events (unique by
 * signature + index) and publishes live events for the ones stored for the first time. Haggle
 * negotiations are stored from their events alone (lib/indexer/haggle.ts). Rows go
 * before events, so a crash in between is repaired by replaying the transaction.
 */
import { type AccountInfo, type Connection, PublicKey } from '../chain';
import { type ProgramEvent, type ProgramName, parseEvents } from '../chain/events';
import { behaviorLog, challenge, lease, stakeLock } from '../chain/programs';
import { UNLOCK_DELAY_SLOTS } from '../protocol/constants';
import { haggleEventInput } from './haggle';
import { CHALLENGE_STATUS_NAMES, LEASE_STATUS_NAMES, liveEventOf, STAKE_STATUS_NAMES, toJson } from './json';
import type { BatchCheck, IndexerBus, IndexerLiveEvent, IndexerStore, IndexerTxStore } from './types';
import { checkBatch } from './verify';

/** What applyTransaction needs. */
export interface ApplyContext {
  connection: Connection;
  store: IndexerStore;
  bus?: IndexerBus;
  ids: ReadonlyMap<string, ProgramName>;
  programIds: Record<ProgramName, PublicKey>;
  /** Epoch length for batch verification, or null while unknown. */
  epochSeconds(): Promise<bigint | null>;
}

/** A confirmed transaction as seen through logsSubscribe or getTransaction. */
export interface TxInput {
  signature: string;
  slot: number;
  logs: readonly string[];
  err: unknown;
  blockTime: Date | null;
}

const key = (k: PublicKey) => k.toBase58();
const data = (e: ProgramEvent) => e.event.data as unknown as Record<string, unknown>;

/**
 * Applies confirmed transactions (in order) as one step: one account read for everything they
 * touch, one upsert per account, one insert of all their events. Batching is what keeps the
 * indexer ahead of a busy chain: its cost is per step, not per transaction.
 */
export async function applyTransactions(
  ctx: ApplyContext,
  txs: readonly TxInput[],
): Promise<{ events: number[]; inserted: number[] }> {
  const parsed = txs.map((tx) => (tx.err ? [] : parseEvents(tx.logs, ctx.ids)));
  const agents = new Map<string, PublicKey>();
  const batches = new Map<
    string,
    { agent: PublicKey; epoch: bigint; ev: Record<string, unknown>; signature: string }
  >();
  const challenges: { address: PublicKey; status: string; ev: Record<string, unknown>; tx: TxInput }[] = [];
  const leasePaidEpoch = new Map<string, bigint>();
  parsed.forEach((events, t) => {
    for (const e of events) {
      const d = data(e);
      if (d.agent instanceof PublicKey) agents.set(key(d.agent), d.agent);
      switch (e.event.name) {
        case 'LeasePaid': {
          const k = key(d.agent as PublicKey);
          const prev = leasePaidEpoch.get(k);
          if (prev === undefined || (d.epoch as bigint) > prev) leasePaidEpoch.set(k, d.epoch as bigint);
          break;
        }
        case 'BatchSubmitted':
          batches.set(key(d.batch as PublicKey), {
            agent: d.agent as PublicKey,
            epoch: d.epoch as bigint,
            ev: d,
            signature: txs[t].signature,
          });
          break;
        case 'ChallengeSubmitted':
          challenges.push({ address: d.challenge as PublicKey, status: 'pending', ev: d, tx: txs[t] });
          break;
        case 'ChallengeResolved':
          challenges.push({
            address: d.challenge as PublicKey,
            status: CHALLENGE_STATUS_NAMES[d.status as number] ?? String(d.status),
            ev: d,
            tx: txs[t],
          });
          break;
      }
    }
  });
  const counts = { events: parsed.map((p) => p.length), inserted: parsed.map(() => 0) };
  if (parsed.every((p) => p.length === 0)) return counts;

  // One read of every touched account (getMultipleAccounts, <= 100 per call).
  const wanted = new Map<string, PublicKey>();
  const want = (k: PublicKey) => wanted.set(key(k), k);
  for (const a of agents.values()) {
    want(stakeLock.findStakePda(a, ctx.programIds.stakeLock)[0]);
    want(lease.findLeasePda(a, ctx.programIds.lease)[0]);
  }
  for (const k of batches.keys()) want(new PublicKey(k));
  for (const c of challenges) want(c.address);
  const list = [...wanted.values()];
  const accounts = new Map<string, AccountInfo<Buffer> | null>();
  let readSlot = BigInt(Math.max(...txs.map((t) => t.slot)));
  for (let i = 0; i < list.length; i += 100) {
    const part = list.slice(i, i + 100);
    const r = await ctx.connection.getMultipleAccountsInfoAndContext(part, 'confirmed');
    if (BigInt(r.context.slot) > readSlot) readSlot = BigInt(r.context.slot);
    part.forEach((k, j) => accounts.set(key(k), r.value[j]));
  }
  const owned = (k: PublicKey, program: PublicKey) => {
    const a = accounts.get(key(k));
    return a?.owner.equals(program) ? a.data : null;
  };

  // Every write of the step in one store transaction (one commit); live events only after it.
  const toPublish: IndexerLiveEvent[] = [];
  const writeAll = async (st: IndexerTxStore) => {
    // One statement for all stakes and one for all leases of the step (few round trips: the
    // indexer shares its event loop with the RPC server in the embedded setup).
    const stakes: Parameters<IndexerTxStore['upsertStakes']>[0][number][] = [];
    const leases: Parameters<IndexerTxStore['upsertLeasesKeepPaid']>[0][number][] = [];
    for (const a of agents.values()) {
      const sd = owned(stakeLock.findStakePda(a, ctx.programIds.stakeLock)[0], ctx.programIds.stakeLock);
      const s = sd ? stakeLock.decodeStake(sd) : null;
      if (s) {
        stakes.push({
          agentId: a.toBytes(),
          owner: s.owner.toBytes(),
          amount: s.amount,
          status: STAKE_STATUS_NAMES[s.status] ?? String(s.status),
          unlockSlot: s.status === 2 ? s.unlockRequestedSlot + UNLOCK_DELAY_SLOTS : null,
          slot: readSlot,
        });
      }
      const ld = owned(lease.findLeasePda(a, ctx.programIds.lease)[0], ctx.programIds.lease);
      const l = ld ? lease.decodeLease(ld) : null;
      if (l) {
        const missed =
          l.status === 0 || l.lastTickEpoch <= l.paidThroughEpoch ? 0 : Number(l.lastTickEpoch - l.paidThroughEpoch);
        leases.push({
          agentId: a.toBytes(),
          paidThroughEpoch: l.paidThroughEpoch,
          lastPaidEpoch: leasePaidEpoch.get(key(a)) ?? null,
          missedEpochs: missed,
          active: l.status !== 2,
          slot: readSlot,
        });
      }
    }
    await st.upsertStakes(stakes);
    await st.upsertLeasesKeepPaid(leases);

    const batchStatus = new Map<string, BatchCheck>();
    for (const [addr, b] of batches) {
      const bd = owned(new PublicKey(addr), ctx.programIds.behaviorLog);
      const acc = bd ? behaviorLog.decodeBatchAccount(bd) : null;
      const src = (acc ?? b.ev) as Record<string, unknown>;
      const row = {
        agentId: b.agent.toBytes(),
        epoch: b.epoch,
        batchHash: src.batchHash as Uint8Array,
        root: src.logMerkleRoot as Uint8Array,
        slot: acc?.submittedSlot ?? (b.ev.slot as bigint),
        signature: b.signature,
        data: {
          batch: addr,
          ...(toJson({
            signer: src.signer,
            messageCount: src.messageCount,
            bidCount: src.bidCount,
            taskCount: src.taskCount,
            verifierCount: src.verifierCount,
            feedbackCount: src.feedbackCount,
            overflow: src.overflow,
          }) as object),
        },
      };
      await st.upsertBatch(row);
      batchStatus.set(addr, await checkBatch(st, row));
    }

    for (const c of challenges) {
      const cd = owned(c.address, ctx.programIds.challenge);
      const acc = cd ? challenge.decodeChallenge(cd) : null;
      await st.upsertChallenge({
        address: key(c.address),
        agentId: (c.ev.agent as PublicKey).toBytes(),
        epoch: c.ev.epoch as bigint,
        challenger: (c.ev.challenger as PublicKey).toBytes(),
        status: c.status,
        slot: BigInt(c.tx.slot),
        signature: c.tx.signature,
        data: acc
          ? { ...(toJson(acc) as object), statusName: CHALLENGE_STATUS_NAMES[acc.status] ?? String(acc.status) }
          : undefined,
      });
    }

    // Haggle negotiations and their transitions (lib/indexer/haggle.ts), in chain order.
    const haggleRows = parsed.flatMap((events, t) =>
      events.map((e, index) => haggleEventInput(e, txs[t], index)).filter((r) => r !== null),
    );
    if (haggleRows.length) await st.applyHaggleEvents(haggleRows);

    const rows = parsed.flatMap((events, t) =>
      events.map((e, index) => ({
        signature: txs[t].signature,
        index,
        slot: BigInt(txs[t].slot),
        program: e.program,
        name: e.event.name,
        data: toJson(e.event.data),
        blockTime: txs[t].blockTime,
      })),
    );
    const res = await st.insertChainEvents(rows);
    const fresh = new Set(res.newKeys.map((k) => `${k.signature}:${k.index}`));
    const at = Date.now();
    parsed.forEach((events, t) => {
      const tx = txs[t];
      events.forEach((e, index) => {
        if (!fresh.has(`${tx.signature}:${index}`)) return;
        counts.inserted[t]++;
        const batch = e.event.name === 'BatchSubmitted' ? batchStatus.get(key(data(e).batch as PublicKey)) : undefined;
        const live = liveEventOf(e, { signature: tx.signature, slot: tx.slot, at, batchStatus: batch });
        if (live) toPublish.push(live);
      });
    });
  };
  if (ctx.store.chainTransaction) await ctx.store.chainTransaction(writeAll);
  else await writeAll(ctx.store);
  if (ctx.bus) for (const e of toPublish) ctx.bus.publish(e);
  return counts;
}

export { LEASE_STATUS_NAMES };
