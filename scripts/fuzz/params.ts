/**
 * The query-parameter phase of `npm run fuzz`'s HTTP part: every documented GET route (from the
 * API's OpenAPI document, so new routes are fuzzed too) called with random parameters over a
 * running observatory on PGlite (no chain and no dataset releases: those routes answer 503
 * saying so, which is not counted as a failure).
 * Values mix what the routes expect (ids, numbers, times, presets) with what they must refuse:
 * times past year 9999 and 20-digit numbers, NUL, lone surrogates as UTF-8 bytes (`%ED%A0%80`),
 * other non-UTF-8 percent-encodings, broken `%` sequences, random bytes. Half the requests pass
 * the server's request-target gate (server/request-target.ts) as `npm start` does, half reach
 * the route directly, so the routes' own query parsing is fuzzed as well. Invariant: no answer
 * 5xx other than that 503, and the server keeps answering.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerServices } from '../../app/_lib/services';
import { openApiDocument } from '../../lib/api/openapi';
import { defaultObservatoryConfig } from '../../lib/observer/config';
import { startObservatory } from '../../lib/observer/observatory';
import { quietLogger } from '../../lib/observer/testing';
import { MAX_TIME_MS } from '../../lib/wire/input-limits';
import { apiRouteFiles } from '../../server/api-testing';
import { refuseBadTarget } from '../../server/request-target';
import type { PhaseResult } from './envelopes';
import type { Rng } from './mutate';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
interface Op {
  path: string;
  query: string[];
}

/** One parameter value, percent-encoded as it is sent. */
function value(rng: Rng): string {
  const enc = encodeURIComponent;
  switch (rng.int(16)) {
    case 0:
      return String(MAX_TIME_MS + 1 + rng.int(1e9));
    case 1:
      return rng.pick([
        '99999999999999999999',
        '18446744073709551616',
        '9223372036854775808',
        String(MAX_TIME_MS),
        '-1',
        '0',
        '1.5',
        '1e3',
      ]);
    case 2:
      return `${rng.pick(['', 'a', '1', 'ab'.repeat(32)])}%00${rng.pick(['', 'b', '1'])}`;
    case 3:
      return rng.pick(['%ED%A0%80', '%ED%BF%BF', '%ED%A0%80%ED%B0%80', 'a%ED%B0%80']);
    case 4:
      return rng.pick(['%FF', '%C0%80', '%E0%80%80', '%F8%88%80%80%80', '%C3', '%E2%82']);
    case 5:
      return rng.pick(['%', '%2', '%zz', '%%', 'a%']);
    case 6:
      return Array.from(rng.bytes(rng.int(12)), (b) => `%${b.toString(16).padStart(2, '0')}`).join('');
    case 7:
      return enc(
        String.fromCharCode(...Array.from({ length: rng.int(6) }, () => rng.int(0x10000))).replace(
          /[\uD800-\uDFFF]/g,
          'x',
        ),
      );
    case 8:
      return 'ab'.repeat(rng.pick([16, 32]));
    case 9:
      return rng.pick([
        '1h',
        '24h',
        '7d',
        'all',
        'open',
        'reviewed',
        'csv',
        'parquet',
        'envelopes',
        'PROPOSE',
        '3',
        'last_seen',
        'messages',
        'desc',
        'true',
      ]);
    case 10:
      return String(rng.int(2 ** 31));
    case 11:
      return enc(new Date(rng.int(2 ** 31) * 1000).toISOString());
    case 12:
      return rng.pick(['10000-01-01T00:00:00Z', '9999-12-31T23:59:59-05:00', '0000-01-01', '+275760-09-13T00:00:00Z']);
    case 13:
      return `${rng.pick(['last_seen', 'messages', 'epoch', 'slot', ''])}.${rng.pick([
        '253402300800000',
        '1',
        '99999999999999999999',
      ])}.${'ab'.repeat(16)}`;
    case 14:
      return 'x'.repeat(rng.pick([0, 1, 101, 201, 5000]));
    default:
      return enc(rng.pick(['*', '/0x01/v1/broadcast', 'é', '😀', ' ', '+', '&', '=']));
  }
}

/** Calls random documented GET routes with random parameters for `seconds`. */
export async function fuzzParams(rng: Rng, seconds: number): Promise<PhaseResult> {
  const res: PhaseResult = { passed: 0, failed: 0, failures: [], stats: {} };
  const record = (ok: boolean, what: string) => {
    if (ok) res.passed++;
    else {
      res.failed++;
      if (res.failures.length < 20) res.failures.push(what);
    }
  };
  const dir = mkdtempSync(join(tmpdir(), 'zx-fuzz-params-'));
  const config = defaultObservatoryConfig({ dataDir: dir, listen: ['/ip4/127.0.0.1/tcp/0'], demoAgents: 0, port: 0 });
  const obs = await startObservatory({ config, logger: quietLogger, verifyWorkers: 0 });
  registerServices({ observatory: obs, reads: obs.store, config });
  const routes = (await apiRouteFiles()).sort((a, b) => a.path.split('{').length - b.path.split('{').length);
  const doc = openApiDocument() as unknown as {
    paths: Record<string, { get?: { parameters?: Array<{ in: string; name: string }> } }>;
  };
  const ops: Op[] = Object.entries(doc.paths)
    .filter(([, o]) => o.get)
    .map(([path, o]) => ({
      path,
      query: (o.get!.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
    }));
  const server = createServer(async (req, res) => {
    try {
      // Half the requests as `npm start` serves them, half straight to the route.
      if (req.headers['x-gate'] === '1' && refuseBadTarget(req, res)) return;
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const found = routes.map((r) => ({ r, params: r.match(url.pathname) })).find((x) => x.params);
      const h = found?.r.module.GET as Handler | undefined;
      if (!found?.params || !h) {
        res.writeHead(404).end();
        return;
      }
      const request = new Request(`http://127.0.0.1${req.url}`, {
        method: 'GET',
        headers: req.headers as Record<string, string>,
      });
      // Next hands a route its path parameters decoded; a segment that does not decode is its 400.
      const params = Object.fromEntries(
        Object.entries(found.params).map(([k, v]) => [
          k,
          Array.isArray(v) ? v.map(decodeURIComponent) : decodeURIComponent(v),
        ]),
      );
      const response = await h(request, { params: Promise.resolve(params) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (e) {
      res.writeHead(e instanceof URIError ? 400 : 500).end(String((e as Error)?.message ?? e));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const send = (target: string, gate: boolean) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const r = get(`${base}${target}`, { headers: gate ? { 'x-gate': '1' } : {}, agent: false }, (resp) => {
        let body = '';
        resp.on('data', (b: Buffer) => (body += b));
        resp.on('end', () => resolve({ status: resp.statusCode ?? 0, body }));
      });
      r.on('error', reject);
    });
  try {
    const end = Date.now() + seconds * 1000;
    while (Date.now() < end) {
      const op = rng.pick(ops);
      const path = op.path.replace(/\{[^}]+\}/g, () => value(rng));
      const names = op.query.length ? Array.from({ length: 1 + rng.int(3) }, () => rng.pick(op.query)) : [];
      const target = names.length ? `${path}?${names.map((n) => `${n}=${value(rng)}`).join('&')}` : path;
      const gate = rng.bool();
      try {
        const r = await send(target, gate);
        res.stats[`status_${r.status}`] = (res.stats[`status_${r.status}`] ?? 0) + 1;
        // This observatory runs no chain and no dataset releases: those routes say so with a 503.
        record(
          r.status < 500 || (r.status === 503 && /not running|offers no/.test(r.body)),
          `GET ${target.slice(0, 300)}${gate ? '' : ' (past the gate)'} answered ${r.status}: ${r.body.slice(0, 200)}`,
        );
      } catch (e) {
        record(false, `GET ${target.slice(0, 300)}: no answer (${String((e as Error)?.message ?? e)})`);
      }
    }
    const alive = await send('/api/health', true);
    record(alive.status === 200, `after fuzzing, /api/health answered ${alive.status}`);
  } finally {
    server.close();
    registerServices(undefined);
    await obs.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return res;
}
