/**
 * `npm run bench:chain`: transactions/s through the embedded chain's JSON-RPC endpoint.
 * The chain runs in its own process (as in `npm start`); this process is an unmodified
 * @solana/web3.js Connection client: sendTransaction (with preflight), then confirmation through
 * signatureSubscribe (`Connection.onSignature`), IN_FLIGHT transactions at a time.
 * Target: ≥ 500 tx/s. Then the indexer-lag half (lib/indexer/bench.ts, its own process):
 * confirmation → stored row p50/p99 on Postgres (BENCH_DATABASE_URL, else the local server when
 * it answers) and on PGlite, target p99 ≤ 1 s. Ends with a summary of both parts and their ratios.
 */

import { spawn } from 'node:child_process';
import { createPrivateKey, sign as edSign } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram, Transaction } from '@solana/web3.js';

const TOTAL = Number(process.env.BENCH_TXS ?? 4000);
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 128);
const PAYERS = 64;
const TARGET_TPS = 500;
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--import', './scripts/setup-node.mjs', 'lib/devchain/main.ts'],
  {
    env: { ...process.env, CHAIN_PORT: '0', CHAIN_QUIET: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
const { rpcUrl } = JSON.parse(line) as { rpcUrl: string };
const conn = new Connection(rpcUrl, 'confirmed');
let tpsResult = 0;

try {
  const payers = Array.from({ length: PAYERS }, () => Keypair.generate());
  const sink = Keypair.generate();
  for (const kp of [...payers, sink]) {
    const sig = await conn.requestAirdrop(kp.publicKey, 100 * LAMPORTS_PER_SOL);
    await conn.confirmTransaction({ signature: sig, ...(await conn.getLatestBlockhash()) }, 'confirmed');
  }

  // Sign before the clock starts: signing is the client's cost, not the endpoint's.
  const { blockhash, lastValidBlockHeight } = await conn.getLatestBlockhash();
  const keys = payers.map((kp) =>
    createPrivateKey({
      key: Buffer.concat([PKCS8_PREFIX, kp.secretKey.subarray(0, 32)]),
      format: 'der',
      type: 'pkcs8',
    }),
  );
  const raws: Buffer[] = [];
  for (let i = 0; i < TOTAL; i++) {
    const p = i % PAYERS;
    const tx = new Transaction({ feePayer: payers[p].publicKey, blockhash, lastValidBlockHeight });
    tx.add(SystemProgram.transfer({ fromPubkey: payers[p].publicKey, toPubkey: sink.publicKey, lamports: 1000 + i }));
    tx.addSignature(payers[p].publicKey, edSign(null, tx.serializeMessage(), keys[p]));
    raws.push(tx.serialize());
  }

  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < raws.length) {
      const raw = raws[next++];
      const t0 = performance.now();
      const signature = await conn.sendRawTransaction(raw);
      const err = await new Promise<unknown>((resolve) =>
        conn.onSignature(signature, (r) => resolve(r.err), 'confirmed'),
      );
      if (err) failed++;
      latencies.push(performance.now() - t0);
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const seconds = (performance.now() - start) / 1000;

  latencies.sort((a, b) => a - b);
  const pct = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
  const tps = TOTAL / seconds;
  const sinkLamports = await conn.getBalance(sink.publicKey);
  const expected =
    100 * LAMPORTS_PER_SOL + Array.from({ length: TOTAL }, (_, i) => 1000 + i).reduce((a, b) => a + b, 0);
  console.log(
    `bench:chain  ${TOTAL} SOL transfers, ${IN_FLIGHT} in flight, ` +
      `sendTransaction (preflight) + signatureSubscribe confirmation`,
  );
  console.log(
    `  throughput       ${tps.toFixed(0)} tx/s   (target ≥ ${TARGET_TPS}; ratio ${(tps / TARGET_TPS).toFixed(2)})`,
  );
  console.log(`  send→confirmed   p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms`);
  console.log(
    `  failed           ${failed}; sink balance ` +
      (sinkLamports === expected ? 'matches' : `MISMATCH ${sinkLamports} != ${expected}`),
  );
  tpsResult = tps;
} finally {
  (
    conn as unknown as { _rpcWebSocket: { setAutoReconnect(on: boolean): void; close(): void } }
  )._rpcWebSocket.setAutoReconnect(false);
  (conn as unknown as { _rpcWebSocket: { close(): void } })._rpcWebSocket.close();
  child.kill('SIGTERM');
  await once(child, 'exit');
}

// Part 2: indexer lag, in a fresh process (the chain of part 1 is gone).
console.log('');
const resultFile = join(mkdtempSync(join(tmpdir(), 'zx-bench-chain-')), 'lag.json');
const lagChild = spawn(
  process.execPath,
  ['--import', 'tsx', '--import', './scripts/setup-node.mjs', 'lib/indexer/bench.ts'],
  {
    env: { ...process.env, BENCH_RESULT_FILE: resultFile, BENCH_TXS: process.env.BENCH_LAG_TXS ?? '600' },
    stdio: ['ignore', 'inherit', 'inherit'],
  },
);
await once(lagChild, 'exit');
let lags: { store: string; p50: number; p99: number; missing: number; met: boolean }[] = [];
try {
  lags = JSON.parse(readFileSync(resultFile, 'utf8'));
} catch {
  console.log('indexer lag: the lag bench produced no result');
}
console.log('');
console.log('summary (bench:chain)');
console.log(
  `  JSON-RPC throughput  ${tpsResult.toFixed(0)} tx/s, target ≥ ${TARGET_TPS}: ratio ` +
    `${(tpsResult / TARGET_TPS).toFixed(2)} ${tpsResult >= TARGET_TPS ? 'PASS' : 'FAIL'}`,
);
for (const l of lags) {
  console.log(
    `  indexer lag ${l.store.padEnd(8)} p50 ${l.p50.toFixed(0)} ms, p99 ` +
      `${l.p99.toFixed(0)} ms, target p99 ≤ 1000 ms: ratio ${(l.p99 / 1000).toFixed(2)} ` +
      `${l.met ? 'PASS' : 'FAIL'}${l.missing ? ` (${l.missing} not stored)` : ''}`,
  );
}
if (tpsResult < TARGET_TPS || lags.length === 0 || lags.some((l) => !l.met)) process.exitCode = 1;
