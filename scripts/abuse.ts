/**
 * `npm run abuse -- URL`: attacks a running observatory the way an outsider could (a fresh
 * identity, loopback only) and checks it neither lies nor stops: a forged epoch log changes no
 * batch (a), extreme timestamps neither break a release nor make partitions (b), a partition
 * flood is bounded (c), upgrade floods leave the file descriptors flat (d), dot segments are
 * rate limited (e), JSON-RPC batches are capped and /api/health stays fast (f), one address
 * cannot take more than its share of stream slots (g), the faucet never answers 500 (h), a
 * dripping (i) or huge (j) webhook answer does not delay another list's delivery, webhook URLs
 * naming a private address in any spelling are refused (k), one wallet signature buys one action
 * whatever its spelling and however long after (n), opinions from 20 fresh keys move no dispute
 * and no dataset count (o), a new watchlist starts within the target's caps (p), one address's heavy reads leave
 * /api/health fast for everyone else (l), no parameter of any route, page or MCP tool makes a
 * 500 (m). i and j need the
 * target started with ALERT_WEBHOOK_ALLOW_PRIVATE=1, k without it: each says SKIP when the target
 * runs the other way.
 *
 * Prints one line per check, then `N passed, N failed` (exit 1 if any failed). Not part of
 * `npm test`. Refuses any target whose host is not loopback; every loop is bounded in count and
 * time (a full run takes a few minutes, most of it waiting for epochs to end).
 *
 * Flags: --only a,b,… (checks to run), --epoch-seconds N (the target's EPOCH_SECONDS, 20 in
 * the demo), --pid N (the server's pid, for its file descriptors; found from the port
 * otherwise), --database-url URL (the target's Postgres, to count envelope partitions in c),
 * --upgrades N (2,000) and --upgrade-seconds S (20) for d, --later-seconds S (15: how long n waits
 * before using a signature again), --dispute-wait-seconds S (240: how long o waits for an open
 * dispute), --heavy-seconds S (20) for l.
 */

import { badParameters, heavyReads } from './abuse/heavy';
import { dotSegments, faucet, rpcBatches, streamSlots, upgradeFlood } from './abuse/network';
import { dripReceiver, hugeAnswer, privateWebhooks } from './abuse/outbound';
import { capsAtCreation, opinionStuffing, signatureSpellings } from './abuse/signed';
import { type CheckResult, closeAgents, getJson, parseTarget, type Target } from './abuse/support';
import { extremeTimestamp, forgedLog, partitionFlood } from './abuse/uploads';

function flag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}
function int(name: string, dflt: number, min: number, max: number): number {
  const raw = flag(name);
  if (raw === undefined) return dflt;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    console.error(`abuse: --${name} must be an integer ${min}..${max}, got ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  const url = process.argv
    .slice(2)
    .find((a, i, all) => !a.startsWith('--') && !(i > 0 && all[i - 1]!.startsWith('--') && !all[i - 1]!.includes('=')));
  const parsed = parseTarget(url);
  if ('error' in parsed) {
    console.error(`abuse: ${parsed.error}`);
    process.exit(2);
  }
  const pid = flag('pid');
  const t: Target = {
    ...parsed,
    base: `http://${parsed.ipv4 ? parsed.host : `[${parsed.host}]`}:${parsed.port}`,
    epochSeconds: int('epoch-seconds', 20, 1, 86_400),
    pid: pid === undefined ? undefined : int('pid', 0, 1, 2 ** 22),
  };
  const databaseUrl = flag('database-url');
  const only = new Set((flag('only') ?? 'a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p').split(',').map((s) => s.trim()));
  // Checks run one after another, the heavy floods last so they do not disturb the others' timing.
  const checks: Array<[string, string, () => Promise<CheckResult | CheckResult[]>]> = [
    ['a', 'forged log', () => forgedLog(t)],
    ['b', 'extreme timestamp', () => extremeTimestamp(t)],
    ['c', 'partition flood', () => partitionFlood(t, databaseUrl)],
    ['e', 'dot segments', () => dotSegments(t)],
    ['g', 'stream slots', () => streamSlots(t)],
    ['h', 'faucet', () => faucet(t)],
    ['n', 'signature spellings', () => signatureSpellings(t, int('later-seconds', 15, 0, 600))],
    ['o', 'opinion stuffing', () => opinionStuffing(t, int('dispute-wait-seconds', 240, 1, 3_600))],
    ['p', 'caps at creation', () => capsAtCreation(t)],
    ['k', 'private webhooks', () => privateWebhooks(t)],
    ['i', 'drip receiver', () => dripReceiver(t)],
    ['j', 'huge answer', () => hugeAnswer(t)],
    ['m', 'bad parameters', () => badParameters(t)],
    [
      'd',
      'upgrade flood',
      () => upgradeFlood(t, int('upgrades', 2_000, 1, 20_000), int('upgrade-seconds', 20, 1, 120)),
    ],
    ['f', 'RPC batches', () => rpcBatches(t)],
    ['l', 'heavy reads', () => heavyReads(t, int('heavy-seconds', 20, 1, 600))],
  ];
  try {
    await getJson(t, '/api/health');
  } catch (e) {
    console.error(`abuse: ${t.base} does not answer /api/health: ${(e as Error).message}`);
    process.exit(2);
  }
  console.log(`abuse: ${t.base}, epochs of ${t.epochSeconds} s, checks ${[...only].join(',')}`);
  let passed = 0;
  let failed = 0;
  for (const [key, name, run] of checks) {
    if (!only.has(key)) continue;
    let results: CheckResult[];
    try {
      const r = await run();
      results = Array.isArray(r) ? r : [r];
    } catch (e) {
      results = [{ ok: false, detail: `${name}: the check itself failed: ${(e as Error).message}` }];
    }
    for (const r of results) {
      if (r.skip) {
        console.log(`SKIP ${key}. ${r.detail}`);
        continue;
      }
      if (r.ok) passed++;
      else failed++;
      console.log(`${r.ok ? 'PASS' : 'FAIL'} ${key}. ${r.detail}`);
    }
  }
  closeAgents();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
