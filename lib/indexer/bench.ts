/**
 * `npm run bench:chain` part 2: chain indexer lag, from a transaction's confirmation
 * (the embedded chain answers sendTransaction once it executed: final) to its rows stored by
 * the indexer (onProcessed); also from the client's confirmTransaction,
 * p50 / p99, target p99 <= 1 s. Load: pay_lease and tick_lease from several agents through the
 * embedded chain's JSON-RPC, closed loop with CONCURRENCY senders. Stores: Postgres (a fresh
 * database on BENCH_DATABASE_URL, else on the local postgres://postgres@127.0.0.1:5432/postgres
 * when it answers) and then PGlite in memory; `BENCH_STORES=pglite` or `=postgres` runs one.
 * The indexer applies each step (up to 64 transactions) in one store transaction
 * (lib/store chainTransaction). Env: BENCH_TXS (default 600), BENCH_CONCURRENCY (default 8),
 * BENCH_AGENTS (default 8); BENCH_RESULT_FILE receives the figures as JSON (scripts/bench-chain.ts).
 */
import { writeFileSync } from 'node:fs';
import { PublicKey, Transaction, TransactionInstruction } from '../chain';
import { lockStake, payLease, usdcAccountOf } from '../chain/node/economy';
import { newChainAgent, startChainWorld } from '../chain/node/testing';
import { lease } from '../chain/programs';
import { openStore } from '../store/index';
import { createTestDatabase, postgresReachable } from '../store/testing';
import { startChainIndexer } from './index';

const TXS = Number(process.env.BENCH_TXS ?? 600);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const AGENTS = Number(process.env.BENCH_AGENTS ?? 8);
const TARGET_P99_MS = 1000;

const MEMO = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
const memo = (text: string) => new TransactionInstruction({ programId: MEMO, keys: [], data: Buffer.from(text) });
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];

const LOCAL_PG = 'postgres://postgres@127.0.0.1:5432/postgres';

/** BENCH_DATABASE_URL, else the local Postgres when it answers within 2 s, else null. */
async function postgresUrl(): Promise<string | null> {
  if (process.env.BENCH_DATABASE_URL) return process.env.BENCH_DATABASE_URL;
  return (await postgresReachable(LOCAL_PG)) ? LOCAL_PG : null;
}

/** Figures of one run. */
export interface LagResult {
  store: 'pglite' | 'postgres';
  txs: number;
  offeredTps: number;
  p50: number;
  p99: number;
  max: number;
  missing: number;
  met: boolean;
}

async function run(pgUrl: string | null): Promise<LagResult> {
  const db = pgUrl ? await createTestDatabase(pgUrl, 'zx_bench_chain') : null;
  const store = await openStore(db ? { databaseUrl: db.url } : { dataDir: ':memory:' });
  const w = await startChainWorld({ slotMs: 400 });
  const stored = new Map<string, number>();
  const waiters = new Map<string, () => void>();
  const indexer = await startChainIndexer({
    connection: w.connection,
    store,
    pollMs: 2_000,
    onProcessed: (t) => {
      stored.set(t.signature, t.storedAt);
      waiters.get(t.signature)?.();
    },
  });
  try {
    const agents: Awaited<ReturnType<typeof newChainAgent>>[] = [];
    for (let i = 0; i < AGENTS; i++) {
      const a = await newChainAgent(w, 10_000n * 1_000_000n);
      await lockStake(w.connection, { owner: a.owner, agent: a.agent, amount: 10_000_000n, config: w.config });
      await payLease(w.connection, { payer: a.owner, agent: a.agent, config: w.config });
      agents.push(a);
    }
    await indexer.idle();
    const confirmed = new Map<string, number>();
    const executed = new Map<string, number>();
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, worker) => {
        for (let i = next++; i < TXS; i = next++) {
          const a = agents[(i + worker) % agents.length];
          // A memo with the sequence number keeps two equal actions within one blockhash distinct.
          const ix =
            i % 2 === 0
              ? lease.payLeaseInstruction(
                  {
                    payer: a.owner.publicKey,
                    lease: lease.findLeasePda(a.agent)[0],
                    agent: a.agent,
                    payerUsdc: usdcAccountOf(w.usdcMint, a.owner.publicKey),
                    treasury: w.config.treasury,
                  },
                  { epochs: 1 },
                )
              : lease.tickLeaseInstruction({ lease: lease.findLeasePda(a.agent)[0] });
          const { blockhash, lastValidBlockHeight } = await w.connection.getLatestBlockhash('confirmed');
          const tx = new Transaction({ feePayer: a.owner.publicKey, blockhash, lastValidBlockHeight }).add(
            ix,
            memo(`bench ${i}`),
          );
          tx.sign(a.owner);
          const sig = await w.connection.sendRawTransaction(tx.serialize());
          // the embedded chain answers sendTransaction once the transaction is final
          executed.set(sig, performance.now());
          const res = await w.connection.confirmTransaction(
            { signature: sig, blockhash, lastValidBlockHeight },
            'confirmed',
          );
          if (res.value.err) throw new Error(`bench transaction failed: ${JSON.stringify(res.value.err)}`);
          confirmed.set(sig, performance.now());
        }
      }),
    );
    const elapsed = (performance.now() - t0) / 1000;
    // Wait for the indexer to store every confirmed transaction (bounded).
    await Promise.race([
      Promise.all(
        [...confirmed.keys()].filter((s) => !stored.has(s)).map((s) => new Promise<void>((r) => waiters.set(s, r))),
      ),
      new Promise((r) => setTimeout(r, 30_000)),
    ]);
    const lagsFrom = (from: Map<string, number>) => {
      const out: number[] = [];
      let early = 0;
      for (const [sig, at] of from) {
        const s2 = stored.get(sig);
        if (s2 === undefined) continue;
        if (s2 < at) early++;
        out.push(Math.max(0, s2 - at));
      }
      return { lags: out.sort((x, y) => x - y), early };
    };
    const missing = [...confirmed.keys()].filter((s2) => !stored.has(s2)).length;
    const fromExec = lagsFrom(executed);
    const fromConf = lagsFrom(confirmed);
    const lags = fromExec.lags;
    const p50 = pct(lags, 50);
    const p99 = pct(lags, 99);
    const st = indexer.stats();
    console.log(
      `indexer lag (confirmation -> stored row), ${lags.length} transactions, ${store.kind}` +
        `, ${CONCURRENCY} senders, ${(confirmed.size / elapsed).toFixed(0)} tx/s offered`,
    );
    console.log(
      `  from execution (sendTransaction answered, final): p50 ${p50.toFixed(1)} ms, p99 ` +
        `${p99.toFixed(1)} ms, max ${lags[lags.length - 1]?.toFixed(1)} ms; not stored: ${missing}`,
    );
    console.log(
      `  from the client's confirmTransaction: p50 ${pct(fromConf.lags, 50).toFixed(1)}` +
        ` ms, p99 ${pct(fromConf.lags, 99).toFixed(1)} ms (${fromConf.early}` +
        ` stored before the client saw the confirmation, counted as 0)`,
    );
    console.log(`  indexer: ${st.live} live, ${st.catchup} via catch-up, ${st.errors} errors`);
    console.log(
      `  target p99 <= ${TARGET_P99_MS} ms: ratio ${(p99 / TARGET_P99_MS).toFixed(3)}` +
        ` (${p99 <= TARGET_P99_MS && missing === 0 ? 'met' : 'NOT met'})`,
    );
    return {
      store: store.kind,
      txs: lags.length,
      offeredTps: confirmed.size / elapsed,
      p50,
      p99,
      max: lags[lags.length - 1] ?? 0,
      missing,
      met: p99 <= TARGET_P99_MS && missing === 0,
    };
  } finally {
    await indexer.stop();
    await w.close();
    await store.close();
    await db?.drop();
  }
}

async function main() {
  const which = process.env.BENCH_STORES ?? 'postgres,pglite';
  const results: LagResult[] = [];
  if (which.includes('postgres')) {
    const url = await postgresUrl();
    if (url) results.push(await run(url));
    else console.log('indexer lag on Postgres: skipped (BENCH_DATABASE_URL unset and no Postgres at 127.0.0.1:5432)');
  }
  if (which.includes('pglite')) results.push(await run(null));
  if (process.env.BENCH_RESULT_FILE) writeFileSync(process.env.BENCH_RESULT_FILE, JSON.stringify(results));
  if (results.some((r) => !r.met)) process.exitCode = 1;
}

await main();
