/**
 * `npm run fuzz` (not part of `npm test`): 1,000,000 random and mutated envelopes through the
 * observer's decode and full validation (scripts/fuzz/envelopes.ts), then the upload routes and
 * the embedded chain's JSON-RPC for a bounded time each (scripts/fuzz/http.ts), and every GET
 * route's query and path parameters (scripts/fuzz/params.ts: out-of-range times, NUL, lone
 * surrogates, non-UTF-8 percent-encodings among ordinary values), all from one
 * seeded generator (scripts/fuzz/mutate.ts). Prints the seed first (FUZZ_SEED / --seed replays
 * a run), the findings, and `N passed, N failed` last; exits 1 on any failure.
 *
 *   npm run fuzz -- --n 20000 --seconds 5 --seed 12345
 *   FUZZ_N=20000 FUZZ_SECONDS=5 npm run fuzz
 *   --only envelopes|uploads|rpc|params
 */
import { parseArgs } from 'node:util';
import { fuzzEnvelopes, type PhaseResult } from './fuzz/envelopes';
import { fuzzChainRpc, fuzzUploads } from './fuzz/http';
import { Rng } from './fuzz/mutate';
import { fuzzParams } from './fuzz/params';

const { values } = parseArgs({
  options: { n: { type: 'string' }, seconds: { type: 'string' }, seed: { type: 'string' }, only: { type: 'string' } },
  allowPositionals: false,
});
const num = (v: string | undefined, name: string, dflt: number) => {
  if (v === undefined || v === '') return dflt;
  const x = Number(v);
  if (!Number.isFinite(x) || x < 0) {
    console.error(`${name} must be a non-negative number (got ${JSON.stringify(v)})`);
    process.exit(2);
  }
  return x;
};
const n = Math.floor(num(values.n ?? process.env.FUZZ_N, '--n / FUZZ_N', 1_000_000));
const seconds = num(values.seconds ?? process.env.FUZZ_SECONDS, '--seconds / FUZZ_SECONDS', 20);
const seed = Math.floor(num(values.seed ?? process.env.FUZZ_SEED, '--seed / FUZZ_SEED', Date.now() % 2 ** 32)) >>> 0;
const only = values.only;
if (only !== undefined && !['envelopes', 'uploads', 'rpc', 'params'].includes(only)) {
  console.error('--only must be envelopes, uploads, rpc or params');
  process.exit(2);
}

console.log(`fuzz seed ${seed} (replay: npm run fuzz -- --seed ${seed} --n ${n} --seconds ${seconds})`);
let passed = 0;
let failed = 0;
function report(name: string, r: PhaseResult, ms: number): void {
  passed += r.passed;
  failed += r.failed;
  const stats = Object.entries(r.stats)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  console.log(
    `${name}: ${r.passed} passed, ${r.failed} failed in ${(ms / 1000).toFixed(1)} s (${Math.round(
      (r.passed + r.failed) / (ms / 1000),
    )}/s)`,
  );
  console.log(`  ${stats}`);
  for (const f of r.failures) console.log(`  FAIL ${f}`);
}

// Each phase gets its own stream derived from the seed, so --only replays the same inputs.
const t0 = Date.now();
if (!only || only === 'envelopes') {
  const t = Date.now();
  const r = await fuzzEnvelopes(new Rng(seed), n, (done) => console.log(`  envelopes: ${done} …`));
  report(`envelopes (${n} inputs, live + archive validation)`, r, Date.now() - t);
}
if (!only || only === 'uploads') {
  const t = Date.now();
  report(
    `uploads (${seconds} s, POST /api/ingest/envelopes and /api/ingest/log)`,
    await fuzzUploads(new Rng(seed ^ 0x55555555), seconds),
    Date.now() - t,
  );
}
if (!only || only === 'rpc') {
  const t = Date.now();
  report(`chain JSON-RPC (${seconds} s)`, await fuzzChainRpc(new Rng(seed ^ 0x2aaaaaaa), seconds), Date.now() - t);
}
if (!only || only === 'params') {
  const t = Date.now();
  report(
    `query and path parameters (${seconds} s, every documented GET route)`,
    await fuzzParams(new Rng(seed ^ 0x33333333), seconds),
    Date.now() - t,
  );
}
console.log(`seed ${seed}, total ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
