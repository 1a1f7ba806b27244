/**
 * The outbound attacks of `npm run abuse`: a webhook receiver that drips (i) or answers a huge
 * body (j) must not delay another watchlist's delivery, and webhook URLs naming a private address
 * in any spelling are refused with a 4xx sentence (k).
 *
 * i and j need a receiver on this machine's loopback, so the target must run with
 * ALERT_WEBHOOK_ALLOW_PRIVATE=1; k needs the opposite (the setting lifts the address rule). Each
 * finds out which way the target runs and says SKIP with the reason when it cannot check.
 *
 * An alert is made to fire at will: a list watches the first agents the target lists and turns on
 * `lease_due` with a window of a year, which holds for any agent whose lease is active (the
 * demo's are), so its alert opens at the evaluator's next tick. The json body's `at` is when the
 * alert opened; a delivery's lateness is its arrival at the receiver minus that.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CheckResult, getJson, http, poll, sentence, sleep, type Target } from './support';

interface Hit {
  at: number;
  openedAt: number;
  kind: string;
}

/** A receiver on 127.0.0.1 recording json deliveries; `answer` writes the response. */
async function receiver(
  answer: (res: ServerResponse) => void,
): Promise<{ url: string; hits: Hit[]; server: Server; close(): Promise<void> }> {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        const b = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { at: string; kind: string };
        hits.push({ at: Date.now(), openedAt: Date.parse(b.at), kind: b.kind });
      } catch {
        /* not a json delivery */
      }
      answer(res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    hits,
    server,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

interface List {
  id: string;
  token: string;
  webhooks: string[];
}

async function call(t: Target, method: string, path: string, token: string | null, body?: unknown) {
  const r = await http(t, method, path, {
    headers: { 'content-type': 'application/json', ...(token ? { 'x-watchlist-token': token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    timeoutMs: 20_000,
  });
  let json: unknown = null;
  try {
    json = JSON.parse(r.body.toString('utf8'));
  } catch {
    /* not JSON */
  }
  return { status: r.status, json, body: r.body };
}

async function newList(t: Target): Promise<List> {
  const r = await call(t, 'POST', '/api/watchlists', null);
  if (r.status !== 201) throw new Error(`POST /api/watchlists: ${r.status} ${sentence(r.body)}`);
  const { id, token } = r.json as { id: string; token: string };
  return { id, token, webhooks: [] };
}

/** Adds a json webhook; the status and sentence (201 when accepted). */
async function addWebhook(t: Target, l: List, url: string): Promise<{ status: number; error: string }> {
  const r = await call(t, 'POST', `/api/watchlists/${l.id}/webhooks`, l.token, { url, format: 'json' });
  if (r.status === 201) l.webhooks.push((r.json as { id: string }).id);
  return { status: r.status, error: r.status === 201 ? '' : sentence(r.body) };
}

/** Watches up to 5 agents with only `lease_due` (a year's window) on: an alert at the next tick. */
async function arm(t: Target, l: List, agents: string[]): Promise<void> {
  const view = (await call(t, 'GET', `/api/watchlists/${l.id}`, l.token)).json as {
    rules: Array<{ kind: string; enabled: boolean }>;
  };
  for (const r of view.rules)
    if (r.enabled) await call(t, 'PUT', `/api/watchlists/${l.id}/rules/${r.kind}`, l.token, { enabled: false });
  for (const a of agents) await call(t, 'PUT', `/api/watchlists/${l.id}/items`, l.token, { kind: 'agent', target: a });
  const on = await call(t, 'PUT', `/api/watchlists/${l.id}/rules/lease_due`, l.token, {
    enabled: true,
    params: { hours: 8_760 },
  });
  if (on.status !== 200) throw new Error(`turning lease_due on: ${on.status} ${sentence(on.body)}`);
}

/** Deletes the list's webhooks (no retries left behind). */
async function disarm(t: Target, l: List): Promise<void> {
  for (const w of l.webhooks)
    await call(t, 'DELETE', `/api/watchlists/${l.id}/webhooks/${w}`, l.token).catch(() => undefined);
}

/** Whether the target lets webhooks reach loopback (ALERT_WEBHOOK_ALLOW_PRIVATE=1). */
async function allowsPrivate(t: Target): Promise<boolean> {
  const l = await newList(t);
  const r = await addWebhook(t, l, 'http://127.0.0.1:9/allow-private-probe');
  await disarm(t, l);
  return r.status === 201;
}

const SKIP_PRIVATE =
  'needs the target started with ALERT_WEBHOOK_ALLOW_PRIVATE=1 (a receiver on loopback); it refuses loopback webhooks';

/**
 * List A's receiver misbehaves (`slow`); once A's first delivery is under way, list B is armed
 * `gapMs` later (3 s for the drip, 0.5 s for the huge answer, which a reader of every byte takes a
 * few seconds over) and its delivery must arrive at most 2 s after its alert opened.
 */
async function secondListLateness(
  t: Target,
  name: string,
  slow: (res: ServerResponse) => void,
  waitMs: number,
  gapMs: number,
): Promise<{ late: number | null; aHits: number }> {
  // A freshly started demo lists its agents once they have gossiped.
  const agents = await poll(
    async () => {
      const ids = (await getJson<{ agents: Array<{ id: string }> }>(t, '/api/agents?limit=5')).agents.map((a) => a.id);
      return ids.length ? ids : undefined;
    },
    60_000,
    2_000,
  );
  if (!agents) throw new Error('the target lists no agents to watch (waited 60 s)');
  const a = await receiver(slow);
  const b = await receiver((res) => res.writeHead(200).end());
  const la = await newList(t);
  const lb = await newList(t);
  try {
    if ((await addWebhook(t, la, a.url)).status !== 201 || (await addWebhook(t, lb, b.url)).status !== 201)
      throw new Error(`${name}: webhooks refused`);
    await arm(t, la, agents);
    const first = await poll(async () => (a.hits.length ? a.hits[0] : undefined), 30_000, 200);
    if (!first) throw new Error(`${name}: list A's alert was never delivered (does an agent have an active lease?)`);
    await sleep(gapMs);
    await arm(t, lb, agents);
    const hit = await poll(async () => (b.hits.length ? b.hits[0] : undefined), waitMs, 200);
    return { late: hit ? hit.at - hit.openedAt : null, aHits: a.hits.length };
  } finally {
    await disarm(t, la);
    await disarm(t, lb);
    await a.close();
    await b.close();
  }
}

/** i. A receiver that answers 200, then drips one byte every 2 s for 90 s. */
export async function dripReceiver(t: Target): Promise<CheckResult> {
  if (!(await allowsPrivate(t))) return { ok: true, skip: true, detail: `drip receiver: ${SKIP_PRIVATE}` };
  const { late } = await secondListLateness(
    t,
    'drip',
    (res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const tick = setInterval(() => res.write('.'), 2_000);
      const stop = setTimeout(() => {
        clearInterval(tick);
        res.end();
      }, 90_000);
      res.on('close', () => {
        clearInterval(tick);
        clearTimeout(stop);
      });
    },
    100_000,
    3_000,
  );
  return {
    ok: late !== null && late <= 2_000,
    detail:
      late === null
        ? "drip receiver on list A: list B's delivery did not arrive within 100 s"
        : `drip receiver (1 byte / 2 s for 90 s) on list A: list B's delivery ` +
          `arrived ${(late / 1000).toFixed(2)} s after its alert opened (at most 2 s)`,
  };
}

/** j. A receiver that answers 200 with a body of up to 300 MB (written until the socket closes). */
export async function hugeAnswer(t: Target): Promise<CheckResult> {
  if (!(await allowsPrivate(t))) return { ok: true, skip: true, detail: `huge answer: ${SKIP_PRIVATE}` };
  const cap = 300 * 1024 * 1024;
  const written: number[] = [];
  const { late } = await secondListLateness(
    t,
    'huge',
    (res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(1 << 20, 0x61);
      let n = 0;
      const pump = () => {
        while (n < cap && !res.destroyed) {
          n += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => written.push(n));
      pump();
    },
    60_000,
    500,
  );
  const mb = written.length ? Math.max(...written) / 1024 / 1024 : 0;
  return {
    ok: late !== null && late <= 2_000 && mb < 64,
    detail:
      `huge answer (up to 300 MB) on list A: the server read until the ` +
      `socket closed after ${mb.toFixed(0)} MB written (under 64 MB); ` +
      (late === null
        ? "list B's delivery did not arrive within 60 s"
        : `list B's delivery arrived ${(late / 1000).toFixed(2)} s after its alert opened (at most 2 s)`),
  };
}

/** The private-address spellings a webhook URL must not get through with. */
export const PRIVATE_FORMS = [
  'http://127.0.0.1/',
  'http://127.1/',
  'http://0x7f000001/',
  'http://2130706433/',
  'http://10.0.0.1/',
  'http://169.254.169.254/latest/meta-data/',
  'http://100.64.0.1/',
  'http://0.0.0.0/',
  'http://[::1]/',
  'http://[::]/',
  'http://[fd00::1]/',
  'http://[fe80::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::127.0.0.1]/',
  'http://[::ffff:0:127.0.0.1]/',
  'http://[64:ff9b::127.0.0.1]/',
  'http://[64:ff9b:1::7f00:1]/',
  'http://[2002:7f00:1::1]/',
  'http://[2001:0:7f00:1::1]/',
  'http://localhost/',
  'http://localhost.localdomain/',
];

/** k. Every form is refused with a 4xx and a sentence naming the URL. */
export async function privateWebhooks(t: Target): Promise<CheckResult[]> {
  if (await allowsPrivate(t))
    return [
      {
        ok: true,
        skip: true,
        detail:
          'private webhook forms: needs a target without ' +
          'ALERT_WEBHOOK_ALLOW_PRIVATE (the setting lifts the address rule)',
      },
    ];
  const l = await newList(t);
  const through: string[] = [];
  const statuses = new Map<number, number>();
  for (const url of PRIVATE_FORMS) {
    const r = await addWebhook(t, l, url);
    statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
    if (r.status < 400 || r.status >= 500 || !/^url: /.test(r.error))
      through.push(`${url} → ${r.status} ${r.error.slice(0, 60)}`);
  }
  await disarm(t, l);
  return [
    {
      ok: through.length === 0,
      detail:
        through.length === 0
          ? `private webhook forms: all ${PRIVATE_FORMS.length} refused with a 4xx sentence (${[...statuses]
              .map(([s, n]) => `${s} ×${n}`)
              .join(', ')})`
          : `private webhook forms: ${through.length} of ${PRIVATE_FORMS.length}` +
            ` not refused with a 4xx sentence: ${through.join('; ')}`,
    },
  ];
}
