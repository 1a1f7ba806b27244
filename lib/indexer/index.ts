/**
 * The chain indexer (docs/architecture.md "Data flow"): follows the five
 * programs over JSON-RPC and stores their state and events (apply.ts).
 *
 * - Live: logsSubscribe (mentions) per program; each notification is applied at once, with the
 *   block time getTransaction reports for it.
 * - Catch-up: on start, every `pollMs`, and when the WebSocket reopens: per program,
 *   getSignaturesForAddress back to the stored cursor, then getTransaction for each signature
 *   not yet applied by this process, merged across programs in slot order. Only catch-up moves
 *   the cursors, so a notification lost during a disconnect is found by the next pass.
 * - Everything runs on one serial queue; the store writes are idempotent, so replays after a
 *   restart change nothing and publish nothing twice.
 */
import { type ConfirmedSignatureInfo, PublicKey } from '../chain';
import type { ProgramName } from '../chain/events';
import { behaviorLog, PROGRAM_IDS } from '../chain/programs';
import { type ApplyContext, applyTransactions, type TxInput } from './apply';
import type { ChainIndexer, IndexerLogger, ProcessedTx, StartChainIndexerParams } from './types';
import { checkBatch } from './verify';

export { liveEventOf, toJson } from './json';
export type * from './types';
export { batchSummaryOf, checkBatch, compareLogOrder, epochWindowUs, logRootOf, uploadedEpochLog } from './verify';

const NAMES: readonly ProgramName[] = ['lease', 'stakeLock', 'behaviorLog', 'challenge', 'haggle'];
const PAGE = 1000;
/** Transactions applied per step (one account read, one event insert). */
const CHUNK = 64;
const PROCESSED_CAP = 200_000;
const silent: IndexerLogger = { info() {}, warn() {}, error() {} };

/** Starts the indexer: subscribes, runs the first catch-up, then follows (module comment). */
export async function startChainIndexer(p: StartChainIndexerParams): Promise<ChainIndexer> {
  if (!p || typeof p.connection?.onLogs !== 'function') throw new TypeError('connection must be a web3.js Connection');
  if (!p.store || typeof p.store.insertChainEvents !== 'function')
    throw new TypeError('store must provide the chain-table methods (lib/store)');
  const pollMs = p.pollMs ?? 2_000;
  if (!Number.isFinite(pollMs) || pollMs < 50) throw new RangeError('pollMs must be >= 50');
  const reverifyEpochs = p.reverifyEpochs ?? 3;
  const programIds = { ...(PROGRAM_IDS as Record<ProgramName, PublicKey>), ...(p.programIds ?? {}) };
  for (const n of NAMES)
    if (!(programIds[n] instanceof PublicKey)) throw new TypeError(`programIds.${n} must be a PublicKey`);
  const { connection, store } = p;
  const log = p.logger ?? silent;
  const cursorName = p.cursorName ?? 'chain-indexer';
  const ids = new Map<string, ProgramName>(NAMES.map((n) => [programIds[n].toBase58(), n]));

  let epochSeconds: bigint | null = p.epochSeconds ?? null;
  const ctx: ApplyContext = {
    connection,
    store,
    bus: p.bus,
    ids,
    programIds,
    async epochSeconds() {
      if (epochSeconds) return epochSeconds;
      const info = await connection.getAccountInfo(behaviorLog.findConfigPda(programIds.behaviorLog)[0], 'confirmed');
      const cfg = info ? behaviorLog.decodeConfig(info.data) : null;
      if (cfg && cfg.epochSeconds > 0n) epochSeconds = cfg.epochSeconds;
      return epochSeconds;
    },
  };

  const processed = new Map<string, true>();
  const markProcessed = (sig: string) => {
    processed.set(sig, true);
    if (processed.size > PROCESSED_CAP) processed.delete(processed.keys().next().value as string);
  };
  const stats = { processed: 0, live: 0, catchup: 0, events: 0, errors: 0 };

  let queue: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const enqueue = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn);
    queue = run.catch((err) => {
      stats.errors++;
      log.error('chain indexer: step failed', { err: String((err as Error)?.stack ?? err) });
    });
    return run;
  };

  const apply = async (txs: TxInput[], via: ProcessedTx['via']) => {
    if (txs.length === 0) return;
    const r = await applyTransactions(ctx, txs);
    const storedAt = performance.now();
    txs.forEach((tx, i) => {
      markProcessed(tx.signature);
      stats.processed++;
      stats[via]++;
      stats.events += r.inserted[i];
      p.onProcessed?.({
        signature: tx.signature,
        slot: tx.slot,
        events: r.events[i],
        inserted: r.inserted[i],
        via,
        storedAt,
      });
    });
  };

  /** Signatures newer than the program's cursor, oldest first. */
  async function pending(name: ProgramName): Promise<ConfirmedSignatureInfo[]> {
    const cursor = await store.getCursor(`${cursorName}:${name}`);
    const out: ConfirmedSignatureInfo[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await connection.getSignaturesForAddress(
        programIds[name],
        { before, until: cursor?.signature ?? undefined, limit: PAGE },
        'confirmed',
      );
      let done = page.length < PAGE;
      for (const s of page) {
        if (cursor && BigInt(s.slot) < cursor.slot) {
          done = true;
          break;
        }
        out.push(s);
      }
      if (done || page.length === 0) break;
      before = page[page.length - 1].signature;
    }
    return out.reverse();
  }

  async function catchUpPass(): Promise<number> {
    const lists = await Promise.all(NAMES.map(async (n) => ({ name: n, sigs: await pending(n) })));
    // k-way merge by slot, keeping each program's own order.
    const pos = lists.map(() => 0);
    const merged: { info: ConfirmedSignatureInfo; programs: ProgramName[] }[] = [];
    const seen = new Map<string, { info: ConfirmedSignatureInfo; programs: ProgramName[] }>();
    for (;;) {
      let best = -1;
      for (let i = 0; i < lists.length; i++) {
        const s = lists[i].sigs[pos[i]];
        if (s && (best < 0 || s.slot < lists[best].sigs[pos[best]].slot)) best = i;
      }
      if (best < 0) break;
      const s = lists[best].sigs[pos[best]++];
      const hit = seen.get(s.signature);
      if (hit) {
        hit.programs.push(lists[best].name);
        continue;
      }
      const item = { info: s, programs: [lists[best].name] };
      seen.set(s.signature, item);
      merged.push(item);
    }
    const cursors = new Map<ProgramName, { signature: string; slot: bigint }>();
    const flush = async () => {
      for (const [n, c] of cursors)
        await store.setCursor({ name: `${cursorName}:${n}`, signature: c.signature, slot: c.slot });
      cursors.clear();
    };
    let applied = 0;
    for (let i = 0; i < merged.length; i += CHUNK) {
      const chunk = merged.slice(i, i + CHUNK);
      const todo = chunk.filter((m) => !m.info.err && !processed.has(m.info.signature));
      const got = await Promise.all(
        todo.map((m) =>
          connection.getTransaction(m.info.signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 }),
        ),
      );
      const txs: TxInput[] = todo.map((m, j) => {
        const t = got[j];
        if (!t) throw new Error(`getTransaction returned nothing for ${m.info.signature}`);
        return {
          signature: m.info.signature,
          slot: t.slot,
          logs: t.meta?.logMessages ?? [],
          err: t.meta?.err ?? null,
          blockTime: t.blockTime ? new Date(t.blockTime * 1000) : null,
        };
      });
      await apply(txs, 'catchup');
      applied += txs.length;
      for (const m of chunk)
        for (const n of m.programs) cursors.set(n, { signature: m.info.signature, slot: BigInt(m.info.slot) });
      await flush();
    }
    await flush();
    return applied;
  }

  async function reverify(p2: { agent?: PublicKey; epoch?: bigint } = {}) {
    const out = { verified: 0, mismatch: 0, unverified: 0 };
    let rows = await store.listBatches({ agent: p2.agent?.toBytes(), epoch: p2.epoch });
    if (!p2.agent && p2.epoch === undefined) {
      const newest = rows.reduce((m, r) => (r.epoch > m ? r.epoch : m), 0n);
      rows = rows.filter((r) => r.status !== 'verified' && r.epoch + BigInt(reverifyEpochs) >= newest);
    }
    for (const r of rows) out[await checkBatch(store, r)]++;
    // A log uploaded after its batch left the window above (a retried upload, an agent catching
    // up): checked as soon as it is stored, however old the epoch.
    if (!p2.agent && p2.epoch === undefined && store.unverifiedBatchesWithLog) {
      const seen = new Set(rows.map((r) => `${Buffer.from(r.agentId).toString('hex')}:${r.epoch}`));
      for (const r of await store.unverifiedBatchesWithLog()) {
        if (!seen.has(`${Buffer.from(r.agentId).toString('hex')}:${r.epoch}`)) out[await checkBatch(store, r)]++;
      }
    }
    return out;
  }

  // Live notifications: queued, then applied together in one step per drain.
  const subs: number[] = [];
  const live: TxInput[] = [];
  let drainScheduled = false;
  const drain = async () => {
    drainScheduled = false;
    while (live.length) {
      const take = live.splice(0, CHUNK).filter((t) => !processed.has(t.signature));
      // A notification carries no block time, and neither the clock when it arrives nor the Clock
      // sysvar then is the block's: the transaction's own blockTime is read (as catch-up reads
      // it), so a stored time is the chain's, the one a verifier re-reads. One the node cannot
      // return yet is left to the next catch-up pass, which applies it with its time.
      const got = await Promise.all(
        take.map((t) =>
          connection
            .getTransaction(t.signature, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 })
            .catch(() => null),
        ),
      );
      const ready = take.filter((t, i) => {
        const tx = got[i];
        if (!tx || tx.blockTime === null || tx.blockTime === undefined) return false;
        t.blockTime = new Date(tx.blockTime * 1000);
        return true;
      });
      await apply(ready, 'live');
    }
  };
  if (p.subscribe ?? true) {
    for (const n of NAMES) {
      subs.push(
        connection.onLogs(
          programIds[n],
          (l, c) => {
            if (stopped || processed.has(l.signature)) return;
            if (live.some((t) => t.signature === l.signature)) return;
            live.push({ signature: l.signature, slot: c.slot, logs: l.logs, err: l.err, blockTime: null });
            if (!drainScheduled) {
              drainScheduled = true;
              void enqueue(drain);
            }
          },
          'confirmed',
        ),
      );
    }
  }

  let pollPending = false;
  const poll = () => {
    if (stopped || pollPending) return;
    pollPending = true;
    void enqueue(async () => {
      try {
        await catchUpPass();
        if (reverifyEpochs > 0) await reverify();
      } finally {
        pollPending = false;
      }
    });
  };
  // Catch up when the PubSub socket reopens (web3.js re-subscribes; notifications in between are lost).
  const ws = (
    connection as unknown as {
      _rpcWebSocket?: { on?(ev: string, fn: () => void): void; off?(ev: string, fn: () => void): void };
    }
  )._rpcWebSocket;
  const onOpen = () => poll();
  ws?.on?.('open', onOpen);
  const timer = setInterval(poll, pollMs);
  timer.unref?.();

  await enqueue(catchUpPass);
  log.info('chain indexer: started', { programs: NAMES.length, processed: stats.processed });
  // Batches verified before the authoritative fold was kept per batch: folded once, a chunk per
  // step of the queue so the indexer's own steps go on in between.
  if (store.backfillBatchPoints) {
    const backfill = async (): Promise<void> => {
      const r = await store.backfillBatchPoints!(200);
      if (r.folded > 0) log.info('chain indexer: authoritative fold points filled', { ...r });
      if (r.looked === 200 && r.folded > 0 && !stopped) void enqueue(backfill);
    };
    void enqueue(backfill);
  }

  return {
    catchUp: () => enqueue(catchUpPass),
    idle: async () => {
      for (;;) {
        const q = queue;
        await q;
        await new Promise((r) => setImmediate(r));
        if (q === queue) return;
      }
    },
    verifyBatches: (v) => enqueue(() => reverify(v ?? {})),
    stats: () => ({ ...stats }),
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(timer);
      ws?.off?.('open', onOpen);
      await Promise.all(subs.map((id) => connection.removeOnLogsListener(id).catch(() => undefined)));
      await queue.catch(() => undefined);
      log.info('chain indexer: stopped', { ...stats });
    },
  };
}
