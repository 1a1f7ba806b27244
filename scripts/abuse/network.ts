/**
 * The connection and limit attacks of `npm run abuse`: upgrade floods (d), dot segments (e),
 * JSON-RPC batches (f), stream slots (g) and the faucet (h). Every loop has a count and a
 * deadline; sockets opened here are destroyed before the check returns.
 */

import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import bs58 from 'bs58';
import WebSocket from 'ws';
import {
  type CheckResult,
  fdCount,
  getJson,
  http,
  percentile,
  pidListeningOn,
  sentence,
  sleep,
  source,
  type Target,
} from './support';

interface Health {
  limits?: { stream?: { perClient: number } };
}

/**
 * d. Upgrade flood: `count` requests with `Upgrade: websocket` to paths other than /api/stream
 * within `seconds`, at most 600 open at once (a third of the rate if every one hangs for
 * its wait). Each request must be answered or closed within 15 s of being sent (a connection
 * the server had not even accepted by then is counted apart: a busy server, not a leak), with
 * the time to the answer printed (p50, p99); the server's open file descriptors, 3 s after the
 * flood, must be within 50 of before.
 */
export async function upgradeFlood(t: Target, count = 2_000, seconds = 20): Promise<CheckResult> {
  const pid = t.pid ?? pidListeningOn(t.port);
  const fd0 = fdCount(pid);
  const paths = ['/', '/api/stats', '/nope', '/api/health', '/overview'];
  const ANSWER_MS = 15_000;
  const answerMs: number[] = [];
  let answered = 0;
  let closed = 0;
  let hung = 0;
  let unaccepted = 0;
  let failed = 0;
  const start = Date.now();
  const deadline = start + seconds * 1000;
  type Outcome = 'answered' | 'closed' | 'hung' | 'unaccepted' | 'failed';
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const s: Socket = connect({ host: t.host, port: t.port });
      let done = false;
      const finish = (what: Outcome) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        if (what === 'answered') answered++;
        else if (what === 'closed') closed++;
        else if (what === 'hung') hung++;
        else if (what === 'unaccepted') unaccepted++;
        else failed++;
        s.destroy();
        resolve();
      };
      // A connection the kernel has not completed within the window is the server's backlog
      // (an event loop too busy to accept), told apart from a request that got no answer.
      let timer = setTimeout(() => finish('unaccepted'), ANSWER_MS);
      let sentAt = 0;
      s.on('connect', () => {
        clearTimeout(timer);
        sentAt = performance.now();
        timer = setTimeout(() => finish('hung'), ANSWER_MS);
        s.write(
          `GET ${paths[i % paths.length]} HTTP/1.1\r\nHost: ${t.host}` +
            `:${t.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
            `Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n\r\n`,
        );
      });
      const answer = (what: Outcome) => {
        if (!done && sentAt) answerMs.push(performance.now() - sentAt);
        finish(what);
      };
      s.on('data', () => answer('answered'));
      s.on('end', () => answer('closed'));
      s.on('close', () => answer('closed'));
      s.on('error', () => finish('failed'));
    });
  const inFlight = new Set<Promise<void>>();
  let sent = 0;
  for (; sent < count && Date.now() < deadline; sent++) {
    // Spread evenly over the time given, and never more than 600 sockets open at once.
    const due = start + (sent * seconds * 1000) / count;
    if (due > Date.now()) await sleep(due - Date.now());
    while (inFlight.size >= 600) await Promise.race(inFlight);
    const p = one(sent).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  await Promise.all(inFlight);
  const fdPeak = fdCount(pid);
  await sleep(3_000);
  const fd1 = fdCount(pid);
  const flat = fd0 === undefined || fd1 === undefined ? undefined : fd1 - fd0 <= 50;
  return {
    ok: hung === 0 && flat !== false && pid !== undefined,
    detail:
      `upgrade flood: ${sent} upgrade requests to non-stream paths in ${seconds} s: ${answered} ` +
      `answered, ${closed} closed, ${failed} refused at connect, ${unaccepted} not accepted within ` +
      `${ANSWER_MS / 1000} s, ${hung} sent and left hanging > ${ANSWER_MS / 1000} s; answer time p50 ` +
      `${percentile(answerMs, 50).toFixed(0)} ms, p99 ${percentile(answerMs, 99).toFixed(0)} ms; ` +
      (pid === undefined
        ? 'server pid not found (pass --pid)'
        : `server (pid ${pid}) file descriptors ${fd0} before, ${fdPeak} at the end of the flood, ${fd1} 3 s later`),
  };
}

/**
 * e. Dot segments: `path` hammered from its own source address (its own rate-limit bucket),
 * up to 1,000 requests in 20 s, 32 at a time (well over the API class's 20/s with a burst of
 * 100); a 429 must come, as for /api/stats asked directly.
 */
async function hammer(
  t: Target,
  path: string,
  from: string | undefined,
): Promise<{ sent: number; firstLimited: number | null; statuses: Map<number, number> }> {
  const statuses = new Map<number, number>();
  let sent = 0;
  let answers = 0;
  let firstLimited: number | null = null;
  const end = Date.now() + 20_000;
  const worker = async () => {
    while (sent < 1_000 && firstLimited === null && Date.now() < end) {
      sent++;
      const r = await http(t, 'GET', path, { from, timeoutMs: 10_000 }).catch(() => null);
      const s = r?.status ?? 0;
      answers++;
      statuses.set(s, (statuses.get(s) ?? 0) + 1);
      // Counted in answers received: the first 429 came back after this many answers.
      if (s === 429 && firstLimited === null) firstLimited = answers;
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
  return { sent, firstLimited, statuses };
}

export async function dotSegments(t: Target): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  const cases: Array<[string, number]> = [
    ['/api/stats', 41],
    ['/x/../api/stats', 42],
    ['/%2e%2e/api/stats', 43],
  ];
  for (const [path, n] of cases) {
    const r = await hammer(t, path, source(t, n));
    const st = [...r.statuses].map(([s, c]) => `${s}×${c}`).join(' ');
    out.push({
      ok: r.firstLimited !== null,
      detail:
        `rate limit on ${path}: ` +
        (r.firstLimited === null ? `no 429 in ${r.sent} requests` : `429 after ${r.firstLimited} requests`) +
        ` (${st})`,
    });
  }
  return out;
}

/**
 * f. JSON-RPC batches: 4 clients (own source addresses) each send 20 batches of 1,000
 * getProgramAccounts calls within 10 s to /api/chain/rpc, while /api/health is timed every
 * 100 ms from a fifth address. Every batch over the cap must be refused, and /api/health's p99
 * must stay at or under 200 ms.
 */
export async function rpcBatches(t: Target): Promise<CheckResult[]> {
  const call = (id: number) => ({
    jsonrpc: '2.0',
    id,
    method: 'getProgramAccounts',
    params: ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA', { encoding: 'base64' }],
  });
  const batch = JSON.stringify(Array.from({ length: 1_000 }, (_, i) => call(i)));
  const probe = await http(t, 'POST', '/api/chain/rpc', {
    body: JSON.stringify(call(1)),
    headers: { 'content-type': 'application/json' },
    from: source(t, 60),
  }).catch(() => null);
  if (!probe || probe.status === 404)
    return [
      { ok: true, detail: `RPC batches: no chain proxy here (${probe?.status ?? 'no answer'}); nothing to flood` },
    ];
  const health: number[] = [];
  let healthFailures = 0;
  let flooding = true;
  const prober = (async () => {
    while (flooding) {
      const t0 = performance.now();
      const r = await http(t, 'GET', '/api/health', { from: source(t, 65), timeoutMs: 10_000 }).catch(() => null);
      if (r?.status !== 200) healthFailures++;
      health.push(r ? r.ms : performance.now() - t0);
      await sleep(Math.max(0, 100 - (performance.now() - t0)));
    }
  })();
  await sleep(10_000); // as long as the flood: the two p99s compare
  const baseline = health.slice();
  const outcomes = new Map<string, number>();
  let refused = 0;
  let served = 0;
  const start = Date.now();
  const client = async (c: number) => {
    const sends: Promise<void>[] = [];
    for (let b = 0; b < 20; b++) {
      const due = start + b * 500;
      if (due > Date.now()) await sleep(due - Date.now());
      sends.push(
        http(t, 'POST', '/api/chain/rpc', {
          body: batch,
          headers: { 'content-type': 'application/json' },
          from: source(t, 61 + c),
          timeoutMs: 30_000,
          maxBody: 1 << 20,
        })
          .then((r) => {
            let key = String(r.status);
            try {
              const j = JSON.parse(r.body.toString('utf8')) as { error?: { code?: number } } | unknown[];
              if (!Array.isArray(j) && j.error?.code !== undefined) key += `/${j.error.code}`;
            } catch {
              /* cut or not JSON */
            }
            outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
            if (r.status >= 400 && r.status < 500) refused++;
            else served++;
          })
          .catch(() => {
            outcomes.set('no answer', (outcomes.get('no answer') ?? 0) + 1);
          }),
      );
    }
    await Promise.all(sends);
  };
  await Promise.all([0, 1, 2, 3].map(client));
  flooding = false;
  await prober;
  const during = health.slice(baseline.length);
  const quiet = percentile(baseline, 50);
  const quiet99 = percentile(baseline, 99);
  const p50 = percentile(during, 50);
  const p99 = percentile(during, 99);
  return [
    {
      ok: served === 0 && refused === 80,
      detail:
        `RPC batches of 1,000 getProgramAccounts, 4 clients × 20 in ${((Date.now() - start) / 1000).toFixed(1)}` +
        ` s: ${refused} refused, ${served} served (${[...outcomes].map(([k, n]) => `${k}×${n}`).join(' ')})`,
    },
    {
      ok: p99 <= 200 && healthFailures === 0,
      detail:
        `/api/health during the RPC flood (before it, over ${baseline.length} probes: p50 ` +
        `${quiet.toFixed(0)} ms, p99 ${quiet99.toFixed(0)} ms): p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)}` +
        ` ms over ${during.length} probes, ${healthFailures} not 200 (target p99 ≤ 200 ms)`,
    },
  ];
}

/**
 * g. Stream slots: from one address, `share + 10` /api/stream sockets at once (share from
 * /api/health `limits.stream.perClient`, else 20); at most `share` may stay open, and another
 * address (127.0.0.2) must still connect while they are held. A socket counts as held when its
 * hello arrived and it is still open half a second later; each gets 20 s (a loaded server
 * completes handshakes slowly).
 */
export async function streamSlots(t: Target): Promise<CheckResult> {
  if (!t.ipv4) return { ok: false, detail: 'stream slots: needs an IPv4 loopback URL to use a second source address' };
  const h = await getJson<Health>(t, '/api/health').catch(() => ({}) as Health);
  const share = h.limits?.stream?.perClient ?? 20;
  const tries = Math.min(share + 10, 200);
  const open = (from: string) =>
    new Promise<{ ws: WebSocket; ok: boolean; why: string }>((resolve) => {
      const ws = new WebSocket(`ws://${t.host}:${t.port}/api/stream`, { localAddress: from, handshakeTimeout: 20_000 });
      let settled = false;
      const settle = (ok: boolean, why: string) => {
        if (!settled) {
          settled = true;
          clearTimeout(timer);
          resolve({ ws, ok, why });
        }
      };
      // Held open: the hello arrived and the socket is still open half a second later.
      const timer = setTimeout(() => settle(false, 'no hello within 20 s'), 20_000);
      ws.on('message', () => setTimeout(() => settle(ws.readyState === WebSocket.OPEN, 'closed after hello'), 500));
      ws.on('close', (code, reason) => settle(false, `closed ${code} ${reason.toString().slice(0, 60)}`));
      ws.on('unexpected-response', (_req, res) => settle(false, `HTTP ${res.statusCode}`));
      ws.on('error', (e) => settle(false, e.message));
    });
  const held: WebSocket[] = [];
  try {
    const a = await Promise.all(Array.from({ length: tries }, () => open('127.0.0.1')));
    held.push(...a.map((x) => x.ws));
    const kept = a.filter((x) => x.ok).length;
    const why = new Map<string, number>();
    for (const x of a) if (!x.ok) why.set(x.why, (why.get(x.why) ?? 0) + 1);
    const b = await open('127.0.0.2');
    held.push(b.ws);
    return {
      ok: kept <= share && b.ok,
      detail: `stream slots: 127.0.0.1 opened ${tries}, ${kept} held (share ${share})${
        why.size ? `, refused: ${[...why].map(([k, n]) => `${k} ×${n}`).join('; ')}` : ''
      }; 127.0.0.2 ${b.ok ? 'connected' : `refused (${b.why})`}`,
    };
  } finally {
    for (const ws of held) ws.terminate();
  }
}

/**
 * h. Faucet: 15 requests from one address for 15 new wallets (4 at a time, within 45 s), then
 * 5 from another address for one wallet (within 45 s). Never a 500; every refusal a sentence;
 * the address budget and the wallet budget each answer 429 before the end (or the faucet is
 * off: 4xx with a sentence).
 */
export async function faucet(t: Target): Promise<CheckResult[]> {
  const wallet = () => bs58.encode(randomBytes(32));
  const statuses = new Map<number, number>();
  let mute = 0;
  let lastSentence = '';
  const ask = async (address: string, from: string | undefined) => {
    const r = await http(t, 'POST', '/api/chain/faucet', {
      from,
      body: JSON.stringify({ address }),
      headers: { 'content-type': 'application/json' },
      timeoutMs: 30_000,
    }).catch(() => null);
    const s = r?.status ?? 0;
    statuses.set(s, (statuses.get(s) ?? 0) + 1);
    if (r && s >= 400) {
      const said = sentence(r.body);
      if (!said || /^internal error$/i.test(said)) mute++;
      else lastSentence = said;
    }
    return s;
  };
  const perAddress: number[] = [];
  let end = Date.now() + 45_000;
  let next = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (next < 15 && Date.now() < end) {
        next++;
        perAddress.push(await ask(wallet(), source(t, 71)));
      }
    }),
  );
  const one = wallet();
  const perWallet: number[] = [];
  end = Date.now() + 45_000;
  for (let i = 0; i < 5 && Date.now() < end; i++) perWallet.push(await ask(one, source(t, 72)));
  const all = [...perAddress, ...perWallet];
  const off = all.length > 0 && all.every((s) => s === 403 || s === 404 || s === 409);
  const st = [...statuses].map(([s, n]) => `${s}×${n}`).join(' ');
  return [
    {
      ok: !all.some((s) => s >= 500 && s !== 503) && !all.includes(0) && mute === 0,
      detail:
        `faucet hammered (${all.length} requests): ${st}; ${mute} refusals without ` +
        `a sentence${lastSentence ? `; e.g. "${lastSentence.slice(0, 90)}"` : ''}`,
    },
    {
      ok: off || perAddress.includes(429) || perAddress.includes(503),
      detail:
        `faucet per-address budget: ` +
        (off
          ? 'faucet off'
          : perAddress.includes(429)
            ? `429 after ${perAddress.indexOf(429)} drops from one address`
            : `no 429 in ${perAddress.length} requests from one address`),
    },
    {
      ok: off || perWallet.includes(429) || perWallet.includes(503),
      detail:
        `faucet per-wallet budget: ` +
        (off
          ? 'faucet off'
          : perWallet.includes(429)
            ? `429 after ${perWallet.indexOf(429)} drops to one wallet`
            : `no 429 in ${perWallet.length} requests for one wallet`),
    },
  ];
}
