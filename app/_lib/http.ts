/**
 * Shared plumbing of the thin API routes (routes parse, call lib, map errors): the running observatory
 * from the process-global accessor, zod-checked query strings (400 naming the parameter),
 * JSON with bigint/bytes made safe, and error mapping (400 bad input, 503 not running or database unreachable, 500
 * logged).
 */
import type { z } from 'zod';
import { BaseError } from '../../lib/protocol/errors';
import { isStoreUnavailable } from '../../lib/store/engine';
import { agentBytes } from '../../lib/wire/agent-id';
import { toJsonText } from '../../lib/wire/codec';
import { textProblem } from '../../lib/wire/input-limits';
import { qp } from '../../lib/wire/params';
import { getServices, type Services } from './services';

export class HttpError extends BaseError {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A JSON response in the wire forms (lib/wire toJsonText: bigint → decimal string, bytes → lowercase hex). */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(toJsonText(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export function problem(status: number, error: string, extra: Record<string, unknown> = {}): Response {
  return json({ error, ...extra }, status);
}

/** The running observatory and its read store, or a 503 HttpError before start / after stop. */
export function runtime(): Services {
  const o = getServices();
  if (!o) throw new HttpError(503, 'observatory is not running in this process (start it with `npm start`)');
  return o;
}

/**
 * Parses `url`'s query string with `schema`. Unknown parameters are rejected so a typo is not
 * silently ignored; the 400 message names the parameter. A NUL or lone surrogate in any value
 * (lib/wire/input-limits.ts) is refused here for every route, whatever its schema says.
 */
export function parseQuery<S extends z.ZodObject>(url: string | URL, schema: S): z.output<S> {
  const u = new URL(url);
  // URLSearchParams decodes a broken %-sequence to U+FFFD without a word; refuse it instead.
  for (const part of u.search.slice(1).split('&')) {
    try {
      decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      throw new HttpError(400, `query string: malformed percent-encoding in "${part.split('=')[0].slice(0, 40)}"`);
    }
  }
  const params = u.searchParams;
  const raw: Record<string, string> = {};
  for (const [k, v] of params) {
    const badName = textProblem(k);
    if (badName) throw new HttpError(400, `a query parameter name ${badName}`);
    if (k in raw) throw new HttpError(400, `query parameter "${k}" given more than once`);
    const bad = textProblem(v);
    if (bad) throw new HttpError(400, `query parameter "${k}": ${bad}`);
    raw[k] = v;
  }
  const r = schema.strict().safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    const name = issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : issue.path.join('.');
    const what = issue.code === 'unrecognized_keys' ? 'unknown query parameter' : 'query parameter';
    throw new HttpError(
      400,
      `${what} "${name}": ` +
        `${issue.code === 'unrecognized_keys' ? `allowed: ${Object.keys(schema.shape).join(', ')}` : issue.message}`,
    );
  }
  return r.data as z.output<S>;
}

/**
 * Runs a route body with the error mapping above (400 bad input, 503 not running or database unreachable, 500 logged).
 */
export async function handle(fn: () => Promise<Response> | Response): Promise<Response> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof HttpError) return problem(err.status, err.message);
    // decodeURIComponent of a path segment with a broken %-sequence: the client's input, not ours.
    if (err instanceof URIError) return problem(400, `malformed percent-encoding in the URL: ${err.message}`);
    // The database is down or restarting: the request may succeed later, nothing is broken here.
    if (isStoreUnavailable(err))
      return json({ error: 'the database is unreachable; try again shortly' }, 503, { 'retry-after': '5' });
    console.error('[api] unhandled error', err);
    return problem(500, 'internal error');
  }
}

/** Query-string field helpers (lib/wire/params.ts, where the API's request schemas live). */
export const q = qp;

/** The running chain reads, or a 503 HttpError when this process runs no chain. */
export function chainRuntime(): NonNullable<Services['chain']> {
  const c = runtime().chain;
  if (!c) throw new HttpError(503, 'the chain is not running in this process');
  return c;
}

/** An agent query/path parameter (64 hex characters or a base58 address) as bytes; 400 naming `name` when bad. */
export function agentParam(name: string, raw: string): Uint8Array {
  const bytes = agentBytes(raw);
  if (!bytes) throw new HttpError(400, `parameter "${name}": must be 64 hex characters or a base58 agent address`);
  return bytes;
}

/** {@link agentParam} as lowercase hex, the form the envelope and conversation reads take. */
export const agentHexParam = (name: string, raw: string): string => Buffer.from(agentParam(name, raw)).toString('hex');
