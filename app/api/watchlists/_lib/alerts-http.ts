/**
 * Plumbing shared by the watchlist and alert routes: the running alert service, the watchlist
 * token header, JSON bodies checked with their lib/wire schema (400 naming the field), and
 * lib/alerts' refusals mapped to their status with their sentence.
 */
import type { z } from 'zod';
import { readCapped } from '../../../_lib/body';
import { handle, HttpError, runtime } from '../../../_lib/http';
import { jsonTextProblem } from '../../../../lib/wire/input-limits';

/** Bodies of these routes are small objects. */
const BODY_CAP = 16 * 1024;

export const TOKEN_HEADER = 'x-watchlist-token';

export function alertService() {
  const a = runtime().alerts;
  if (!a) throw new HttpError(503, 'alerts are not running in this process');
  return a;
}

export const tokenOf = (req: Request): string | null => req.headers.get(TOKEN_HEADER);

/** The JSON body checked with `schema`; 400 naming the field or what is wrong. */
export async function jsonBody<S extends z.ZodType>(req: Request, schema: S): Promise<z.output<S>> {
  const bytes = await readCapped(req, BODY_CAP);
  if (bytes === null) throw new HttpError(413, `body: larger than ${BODY_CAP} bytes`);
  let raw: unknown;
  try {
    raw = bytes.length ? JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) : undefined;
  } catch {
    throw new HttpError(400, 'body: not JSON (in UTF-8)');
  }
  // JSON escapes can spell what no stored text may hold (\u0000, a lone \ud800).
  const bad = jsonTextProblem(raw);
  if (bad) throw new HttpError(400, `field "${bad.path}": ${bad.problem}`);
  const r = schema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0];
    const where = i.code === 'unrecognized_keys' ? `unknown field ${i.keys.join(', ')}` : i.path.length ? `field "${i.path.join('.')}"` : 'body';
    throw new HttpError(400, `${where}: ${i.message}`);
  }
  return r.data as z.output<S>;
}

/** {@link handle} that also maps lib/alerts' refusals. */
export function handleAlerts(fn: () => Promise<Response>): Promise<Response> {
  return handle(async () => {
    try {
      return await fn();
    } catch (e) {
      // By name, not instanceof: the service was built by the server's module graph, not this bundle's.
      const a = e as { name?: unknown; status?: unknown; message?: unknown };
      if (a?.name === 'AlertsError' && typeof a.status === 'number' && typeof a.message === 'string') throw new HttpError(a.status, a.message);
      throw e;
    }
  });
}

/** A watch item's target: an agent (hex or base58) or a conversation (32 hex characters). */
export function targetBytes(kind: 'agent' | 'conversation', raw: string, agentParam: (name: string, raw: string) => Uint8Array): Uint8Array {
  if (kind === 'agent') return agentParam('target', raw);
  const s = raw.trim().toLowerCase().replace(/^0x/, '');
  if (!/^[0-9a-f]{32}$/.test(s)) throw new HttpError(400, 'parameter "target": a conversation id is 32 hex characters');
  return new Uint8Array(Buffer.from(s, 'hex'));
}

/**
 * A route that changes one watchlist: its id from the path, its token checked before the body or
 * query is read (a caller without the token learns nothing from a 400 about them), then `fn`.
 */
export function onWatchlist<P extends { id: string }>(
  req: Request,
  ctx: { params: Promise<P> },
  fn: (w: { svc: ReturnType<typeof alertService>; id: string; token: string | null; params: P }) => Promise<Response>,
): Promise<Response> {
  return handleAlerts(async () => {
    const params = await ctx.params;
    const id = decodeURIComponent(params.id);
    const svc = alertService();
    const token = tokenOf(req);
    await svc.authorize(id, token);
    return fn({ svc, id, token, params });
  });
}
