/**
 * npm run bench:export-negotiations  (BENCH_DEALS, default 2,000; Postgres from DATABASE_URL or
 * TEST_DATABASE_URL, PGlite always)
 * What the negotiations table's on-chain columns cost: fills a store with BENCH_DEALS deals played
 * by the demo agents' state machine, exports the negotiations table as JSONL into a sink that
 * drops the bytes with no Haggle negotiation stored, then stores one (created, joined, three
 * offers, settled, through the indexer's store method) for every second conversation and exports
 * again; each the median of three runs. Prints both rates and their ratio, per backend, measured
 * in this one run, with the load average (the machine is shared).
 */
import { loadavg } from 'node:os';
import { loadFixture, makeDeals } from '../lib/export/deals-testing';
import { exportTable } from '../lib/export/export';
import { toHex } from '../lib/protocol/hex';
import { MsgType } from '../lib/protocol/types';
import type { HaggleEventInput } from '../lib/store';
import { openStore, type Store } from '../lib/store';
import { createTestDatabase } from '../lib/store/testing';

const EPOCH = 3_600;
const DEALS = Number(process.env.BENCH_DEALS ?? 2_000);

/** The median of three exports (the machine is shared, single runs swing). */
async function exportRate(store: Store): Promise<{ rows: number; seconds: number; rowsPerSec: number }> {
  const runs: number[] = [];
  let rows = 0;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    const out = await exportTable({ source: store.exportSource(), table: 'negotiations', format: 'jsonl' });
    for await (const chunk of out.bytes) void chunk;
    runs.push((performance.now() - t) / 1000);
    rows = out.total;
  }
  const seconds = runs.sort((a, b) => a - b)[1];
  return { rows, seconds: Number(seconds.toFixed(2)), rowsPerSec: Math.round(rows / seconds) };
}

/** One settled Haggle negotiation per conversation, as the chain indexer hands them to the store. */
function settledEvents(conversationId: Uint8Array, n: number): HaggleEventInput[] {
  const address = `Neg${String(n).padStart(40, '1')}`;
  let slot = BigInt(n) * 10n + 1n;
  const ev = (kind: HaggleEventInput['kind'], over: Partial<HaggleEventInput> = {}): HaggleEventInput => ({
    signature: `bench-${n}-${kind}-${slot}`,
    index: 0,
    slot: slot++,
    at: new Date(1_767_225_600_000 + n * 1000),
    negotiation: address,
    conversationId,
    kind,
    side: null,
    round: null,
    amount: null,
    decay: null,
    escrow: null,
    status: null,
    data: {},
    ...over,
  });
  const offer = (round: number, amount: bigint, escrow: bigint) =>
    ev('offer', {
      side: 2 - (round % 2),
      round,
      amount,
      decay: 10n,
      escrow,
      status: round % 2 ? 'proposed' : 'countered',
      set: { rounds: round, currentOffer: amount, lastOfferBy: 2 - (round % 2), escrow },
    });
  return [
    ev('created', {
      status: 'created',
      amount: 2000n,
      escrow: 2000n,
      created: {
        buyer: 'B',
        seller: 'S',
        deposit: 2000n,
        deadline: 99n,
        responseWindow: 60,
        decayBps: 50,
        minOfferBps: 0,
        protocolFeeBps: 200,
        maxRounds: 6,
        zopaDetection: false,
      },
    }),
    ev('joined', { side: 2, set: { joined: true } }),
    offer(1, 400n, 1990n),
    offer(2, 900n, 1980n),
    offer(3, 600n, 1970n),
    ev('settled', {
      status: 'settled',
      amount: 600n,
      escrow: 0n,
      set: { amount: 600n, fee: 12n, toSeller: 588n, refund: 1370n, decayed: 30n, escrow: 0n, closed: true },
    }),
  ];
}

async function bench(kind: 'pglite' | 'postgres', url?: string): Promise<Record<string, unknown>> {
  const db = url ? await createTestDatabase(url, 'zx_bench_negexport') : null;
  const store = await openStore(
    db ? { databaseUrl: db.url, epochSeconds: EPOCH, poolSize: 2 } : { dataDir: ':memory:', epochSeconds: EPOCH },
  );
  try {
    const fx = makeDeals({ deals: DEALS, seed: 5 });
    await loadFixture(store, fx, EPOCH, { batches: false });
    await exportRate(store); // warm-up: the first read pays for a cold cache
    const offChain = await exportRate(store);
    const convs = [
      ...new Map(
        fx.items
          .filter((i) => i.envelope.msgType === MsgType.PROPOSE)
          .map((i) => [toHex(i.envelope.conversationId), i.envelope.conversationId]),
      ).values(),
    ];
    const events = convs.filter((_, i) => i % 2 === 0).flatMap((c, i) => settledEvents(c, i));
    for (let i = 0; i < events.length; i += 600) await store.applyHaggleEvents(events.slice(i, i + 600));
    const onChain = await exportRate(store);
    return {
      backend: kind,
      negotiations: offChain.rows,
      settledOnChain: events.length / 6,
      offChain,
      onChain,
      ratio: Number((onChain.rowsPerSec / offChain.rowsPerSec).toFixed(2)),
    };
  } finally {
    await store.close();
    await db?.drop();
  }
}

const url = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
console.log(JSON.stringify({ loadAverage: loadavg().map((x) => Number(x.toFixed(2))), deals: DEALS }));
console.log(JSON.stringify(await bench('pglite')));
if (url) console.log(JSON.stringify(await bench('postgres', url)));
else console.log('Postgres skipped: set DATABASE_URL or TEST_DATABASE_URL');
