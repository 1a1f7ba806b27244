/**
 * Test driver: the real runtime (store, embedded chain, observer, indexer, demo agents) with every
 * `app/api/**∕route.ts` handler served by a plain node:http server through the same gates
 * main.ts puts in front of Next (request target, rate limits, heavy-read slots). Next's file-system routing is mirrored
 * (`[id]` and catch-all `[...file]` segments), so a test can walk the route files and call each one over HTTP without a
 * Next build.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { inBackgroundLane } from '../lib/store';
import { loadConfig } from './config';
import { createHeavyGate, type HeavyGate } from './heavy-gate';
import { createLogger } from './logger';
import { createRateLimiter, type RateLimits } from './rate-limit';
import { refuseBadTarget } from './request-target';
import { type Runtime, startRuntime } from './runtime';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

export interface RouteFile {
  /** `app/api/agents/[id]/route.ts` */
  file: string;
  /** OpenAPI form: `/api/agents/{id}` */
  path: string;
  /** Upper-case methods the module exports. */
  methods: string[];
  match(pathname: string): Record<string, string | string[]> | null;
  module: Record<string, unknown>;
}

/** Every route file under app/api with its exported methods. */
export async function apiRouteFiles(): Promise<RouteFile[]> {
  const out: RouteFile[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name === 'route.ts') out.push({ file: relative(ROOT, p).split(sep).join('/') } as RouteFile);
    }
  };
  walk(join(ROOT, 'app/api'));
  for (const r of out) {
    const segs = r.file
      .replace(/^app/, '')
      .replace(/\/route\.ts$/, '')
      .split('/')
      .filter(Boolean);
    // `[...name]` is a catch-all: one or more segments, handed to the route as a string array.
    r.path = `/${segs.map((s) => s.replace(/^\[(?:\.\.\.)?(.+)\]$/, '{$1}')).join('/')}`;
    const names = segs.map((s) => /^\[(?:\.\.\.)?(.+)\]$/.exec(s)?.[1] ?? null);
    const rest = segs.map((s) => s.startsWith('[...'));
    const re = new RegExp(
      `^/${segs
        .map((s) => (s.startsWith('[...') ? '(.+)' : s.startsWith('[') ? '([^/]+)' : s.replace(/[.]/g, '\\.')))
        .join('/')}$`,
    );
    const dynamic = names
      .map((n, i) => ({ n, rest: rest[i] }))
      .filter((x): x is { n: string; rest: boolean } => x.n !== null);
    r.match = (pathname) => {
      const m = re.exec(pathname);
      if (!m) return null;
      const params: Record<string, string | string[]> = {};
      dynamic.forEach(({ n, rest: all }, i) => (params[n] = all ? m[i + 1].split('/') : m[i + 1]));
      return params;
    };
    r.module = (await import(pathToFileURL(join(ROOT, r.file)).href)) as Record<string, unknown>;
    r.methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((m) => typeof r.module[m] === 'function');
  }
  return out;
}

export interface ApiHarness {
  base: string;
  runtime: Runtime;
  routes: RouteFile[];
  getJson<T = unknown>(path: string): Promise<{ status: number; body: T; headers: Headers }>;
  /** The heavy-read gate in front of the routes, as main.ts puts it. */
  heavy: HeavyGate;
  stop(): Promise<void>;
}

/** Starts the runtime and serves app/api on 127.0.0.1; `env` adds to the test defaults. */
export async function startApiHarness(env: Record<string, string> = {}, limits?: RateLimits): Promise<ApiHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zerox1-api-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DEMO_AGENTS: '3',
    EPOCH_SECONDS: '5',
    CHAIN_PORT: '0',
    OBSERVER_LISTEN: '/ip4/127.0.0.1/tcp/0',
    // Tests read in bursts a visitor never would; the heavy-read time budget is off unless a test sets it.
    LOG_LEVEL: 'error',
    NODE_ENV: 'test',
    VERIFY_WORKERS: '0',
    HEAVY_BUDGET: 'off',
    ...env,
  });
  const log = createLogger('api-test', config.logLevel);
  const routes = await apiRouteFiles();
  const runtime = await startRuntime(config, log);
  const limiter = createRateLimiter(limits ?? config.rateLimits);
  const heavy = createHeavyGate(config.heavy, { runHeavy: inBackgroundLane });
  // The server keeps an idle connection longer than fetch's pool does (4 s), so the client always
  // closes it first: at Node's default 5 s, a loaded event loop closes a socket fetch is just
  // reusing and the request fails with ECONNRESET.
  const server: Server = createServer({ keepAliveTimeout: 65_000 }, (req, res) => {
    if (refuseBadTarget(req, res)) return;
    if (limiter.reject(req, res)) return;
    heavy.run(req, res, () => void serve(req, res));
  });
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let found: { r: RouteFile; params: Record<string, string | string[]> } | null = null;
    // Static segments win over dynamic ones, as in Next.
    for (const r of [...routes].sort((a, b) => a.path.split('{').length - b.path.split('{').length)) {
      const params = r.match(url.pathname);
      if (params) {
        found = { r, params };
        break;
      }
    }
    const handler = found?.r.module[req.method ?? 'GET'] as Handler | undefined;
    if (!found || !handler) {
      res.writeHead(found ? 405 : 404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: found ? 'method not allowed' : 'no such route' }));
      return;
    }
    try {
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      const request = new Request(url, {
        method: req.method,
        headers: req.headers as Record<string, string>,
        ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
      } as RequestInit);
      const response = await handler(request, { params: Promise.resolve(found.params) });
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    } catch (e) {
      res.writeHead(500);
      res.end(String(e));
    }
  };
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  await runtime.startDemo(base);
  return {
    base,
    runtime,
    routes,
    async getJson<T>(path: string) {
      const res = await fetch(base + path);
      return { status: res.status, body: (await res.json()) as T, headers: res.headers };
    },
    heavy,
    async stop() {
      limiter.close();
      heavy.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `probe` every 300 ms until it returns something truthy, or fails naming `what`. */
export async function until<T>(
  what: string,
  ms: number,
  probe: () => Promise<T | null | undefined | false>,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/**
 * Runs a comparison of two reads of live data (the demo keeps negotiating) up to five times:
 * a message landing between the two reads is not a failure, the same mismatch five times is.
 */
export async function stable(fn: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (attempt >= 5) throw e;
    }
  }
}

/** The parts of the OpenAPI document the checks read. */
export interface ApiDocument {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>
  >;
  components: { schemas: Record<string, unknown> };
}

/**
 * A checker of real answers against the document's own JSON Schemas (ajv, draft 2020-12, the
 * dialect of OpenAPI 3.1); `$ref: #/components/schemas/X` resolves because each compiled schema
 * carries the document's `components`.
 */
export function documentChecker(
  doc: ApiDocument,
): (method: string, path: string, status: number, body: unknown) => void {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  return (method, path, status, body) => {
    const op = doc.paths[path]?.[method];
    assert.ok(op, `${method} ${path} is documented`);
    const schema = op.responses[String(status)]?.content?.['application/json']?.schema;
    assert.ok(schema, `${method} ${path} documents a ${status} JSON answer`);
    const validate = ajv.compile({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      ...(schema as object),
      components: doc.components,
    });
    assert.ok(validate(body), `${method} ${path} ${status}: ${ajv.errorsText(validate.errors)}`);
  };
}
