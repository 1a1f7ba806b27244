/**
 * Checks of `npm run abuse` about what one request may cost (docs/app.md "Fair limits"):
 *
 * - (l) **Heavy reads.** 16 loops from one address request the heaviest valid reads (replay of
 *   the widest window at 1,000 a page, envelopes at 500 a page, collusion over 100,000 rows) for
 *   `seconds`, while /api/health is timed every 100 ms from a second address and an agent page
 *   every 500 ms from a third (the client key is the remote address, so other loopback addresses
 *   are other clients). /api/health's p99 must stay ≤ 250 ms, the agent page's ≤ 1 s, and the
 *   flood must meet 429s (slots or budget), each with Retry-After.
 * - (m) **Parameters.** Every documented GET route with a NUL, a lone surrogate and non-UTF-8
 *   bytes in each parameter and times past year 9999 (server/param-probes.ts, from the target's
 *   own /api/openapi.json) and every MCP tool with the same in its arguments: every answer 4xx
 *   (a query parameter's 400 naming it; for MCP a tool error without database text); the pages
 *   that take the same parameters: none 500.
 */
import type { ParamProbe } from '../../server/param-probes';
import { paramProbes, probeFailure, YEAR_10000_MS } from '../../server/param-probes';
import { type CheckResult, getJson, http, percentile, sentence, sleep, source, type Target } from './support';

const HEAVY_READS = [
  '/api/replay?from=0&to=253402300799999&limit=1000',
  '/api/envelopes?limit=500',
  '/api/collusion?window=100000',
];

/** Times `path` from address `from` every `everyMs` until `running()` is false. */
async function timeLoop(t: Target, path: string, from: string | undefined, everyMs: number, running: () => boolean) {
  const ms: number[] = [];
  let failures = 0;
  while (running()) {
    const t0 = performance.now();
    const r = await http(t, 'GET', path, { from, timeoutMs: 30_000 }).catch(() => null);
    if (r?.status !== 200) failures++;
    ms.push(r ? r.ms : performance.now() - t0);
    await sleep(Math.max(0, everyMs - (performance.now() - t0)));
  }
  return { ms, failures };
}

export async function heavyReads(t: Target, seconds = 20): Promise<CheckResult[]> {
  const attacker = source(t, 100);
  const agents = await getJson<{ agents: Array<{ id: string }> }>(t, '/api/agents?limit=1', source(t, 103)).catch(
    () => ({ agents: [] }),
  );
  const agentPage = agents.agents[0] ? `/agents/${agents.agents[0].id}` : null;
  // Before: the quiet figures to compare with.
  let quiet = true;
  const quietHealth = timeLoop(t, '/api/health', source(t, 101), 100, () => quiet);
  const quietPage = agentPage
    ? timeLoop(t, agentPage, source(t, 102), 500, () => quiet)
    : Promise.resolve({ ms: [], failures: 0 });
  await sleep(5_000);
  quiet = false;
  const [before, pageBefore] = await Promise.all([quietHealth, quietPage]);

  let flooding = true;
  const statuses = new Map<number, number>();
  let withoutRetryAfter = 0;
  const sentences = new Set<string>();
  const loops = Array.from({ length: 16 }, async (_, i) => {
    for (let n = i; flooding; n++) {
      const r = await http(t, 'GET', HEAVY_READS[n % HEAVY_READS.length], { from: attacker, timeoutMs: 60_000 }).catch(
        () => null,
      );
      const status = r?.status ?? 0;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (r && status === 429) {
        if (!r.headers['retry-after']) withoutRetryAfter++;
        if (sentences.size < 3) sentences.add(sentence(r.body).slice(0, 90));
        // A well-behaved client would wait; an attacker tries again at once, but not in a hot loop.
        await sleep(20);
      }
    }
  });
  const health = timeLoop(t, '/api/health', source(t, 101), 100, () => flooding);
  const page = agentPage
    ? timeLoop(t, agentPage, source(t, 102), 500, () => flooding)
    : Promise.resolve({ ms: [], failures: 0 });
  await sleep(seconds * 1000);
  flooding = false;
  const [h, p] = await Promise.all([health, page, ...loops]);
  const p50 = percentile(h.ms, 50);
  const p99 = percentile(h.ms, 99);
  const refused = statuses.get(429) ?? 0;
  const served = statuses.get(200) ?? 0;
  const counts = [...statuses]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  const out: CheckResult[] = [
    {
      ok: p99 <= 250 && h.failures === 0,
      detail:
        `/api/health from a second address while one address ran 16 heavy reads at once ` +
        `for ${seconds} s: p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms over ${h.ms.length}` +
        ` probes, ${h.failures} not 200 (before: p50 ${percentile(before.ms, 50).toFixed(0)}` +
        ` ms, p99 ${percentile(before.ms, 99).toFixed(0)} ms; target p99 ≤ 250 ms)`,
    },
    {
      ok: refused > 0 && withoutRetryAfter === 0 && served > 0,
      detail:
        `the heavy reads: ${counts} (${served} served, ${refused} refused with 429, ` +
        `${withoutRetryAfter} without Retry-After): ${[...sentences].join(' | ')}`,
    },
  ];
  if (agentPage) {
    const pp99 = percentile(p.ms, 99);
    out.push({
      ok: pp99 <= 1_000 && p.failures === 0,
      detail:
        `${agentPage.slice(0, 20)}… from a third address meanwhile: p50 ` +
        `${percentile(p.ms, 50).toFixed(0)} ms, p99 ${pp99.toFixed(0)} ms over ${p.ms.length} loads, ` +
        `${p.failures} not 200 (before: p50 ${percentile(pageBefore.ms, 50).toFixed(0)}` +
        ` ms, p99 ${percentile(pageBefore.ms, 99).toFixed(0)} ms; target p99 ≤ 1 s)`,
    });
  }
  return out;
}

/** Pages whose server render reads the same time and text parameters as their API routes. */
const PAGE_PROBES = [
  `/conversations?from=0&to=${YEAR_10000_MS}`,
  '/conversations?agent=%00',
  `/envelopes?from=${YEAR_10000_MS}`,
  '/envelopes?type=%00',
  '/mesh?topic=%00',
  '/mesh?observer=%00',
  '/search?q=%00',
  '/search?q=%ED%A0%80',
  '/collusion?agent=%00',
  '/reconciliation?agent=%00',
  '/agents/%00',
  '/conversations/%00',
];

/** MCP tool calls with the same bad values in their arguments. */
const MCP_PROBES: Array<[string, Record<string, unknown>]> = [
  ['list_negotiations', { from_ms: 0, to_ms: Number(YEAR_10000_MS) }],
  ['list_negotiations', { agent: 'a\u0000' }],
  ['list_negotiations', { cursor: '\uD800' }],
  ['search', { query: 'a\u0000b' }],
  ['search', { query: '\uDC00' }],
  ['get_agent', { agent: '\u0000' }],
  ['get_negotiation', { id: 'ab\u0000' }],
  ['get_batch', { agent: '11'.repeat(32), epoch: '99999999999999999999' }],
  ['verify_inclusion', { agent: '11'.repeat(32), epoch: '1', envelope: '\u0000' }],
  ['get_stake_status', { agent: '\uD800x' }],
];

export async function badParameters(t: Target): Promise<CheckResult[]> {
  const doc = await getJson<Parameters<typeof paramProbes>[0]>(t, '/api/openapi.json', source(t, 110));
  const probes: Array<ParamProbe | { target: string; kind: string; param: string; named: false; method: 'GET' }> = [
    ...paramProbes(doc),
    ...PAGE_PROBES.map((target) => ({
      method: 'GET' as const,
      target,
      kind: 'page',
      param: 'page',
      named: false as const,
    })),
  ];
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  // Spread over addresses so the request budget (20 a second) answers none of them in its stead.
  for (let i = 0; i < probes.length; i++) {
    const p = probes[i];
    const r = await http(t, 'GET', p.target, { from: source(t, 111 + (i % 40)), timeoutMs: 30_000 }).catch(
      (e: Error) => ({ status: 0, body: Buffer.from(e.message) }),
    );
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    // A page may ignore a parameter it cannot use (200); what it must not do is fail.
    const f =
      r.status === 429
        ? null
        : p.kind === 'page'
          ? r.status >= 500 || r.status === 0
            ? `${p.target} answered ${r.status}: ${r.body.toString('utf8', 0, 160)}`
            : null
          : probeFailure(p as ParamProbe, r.status, r.body.toString('utf8'));
    if (f) failures.push(f);
  }
  const mcpFailures: string[] = [];
  for (const [i, [name, args]] of MCP_PROBES.entries()) {
    const body = JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name, arguments: args } });
    const r = await http(t, 'POST', '/api/mcp', {
      from: source(t, 151),
      body,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      timeoutMs: 30_000,
    }).catch(() => null);
    const text = r?.body.toString('utf8') ?? '';
    const isError = /"isError":true/.test(text) || /"error":\{/.test(text);
    if (
      !r ||
      r.status >= 500 ||
      !isError ||
      /displacement|invalid byte sequence|timestamptz|prisma|SQLSTATE/i.test(text)
    )
      mcpFailures.push(`${name} ${JSON.stringify(args)}: ${r?.status ?? 'no answer'} ${text.slice(0, 160)}`);
  }
  const counts = [...statuses]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s}×${n}`)
    .join(' ');
  return [
    {
      ok: failures.length === 0,
      detail:
        `${probes.length} requests with NUL, lone surrogates, non-UTF-8 bytes and times past year 9999 in every ` +
        `parameter of every GET route and page: ${counts}` +
        (failures.length
          ? `; ${failures.length} wrong, first: ${failures.slice(0, 3).join(' | ')}`
          : ", none 500, every query parameter's 400 names it"),
    },
    {
      ok: mcpFailures.length === 0,
      detail:
        `${MCP_PROBES.length} MCP tool calls with the same in their arguments: ` +
        (mcpFailures.length
          ? mcpFailures.slice(0, 3).join(' | ')
          : 'each a tool error naming the argument, no database text'),
    },
  ];
}
