/**
 * Plumbing shared by the watchlist and alert routes: the running alert service, the watchlist
 * token header, and
 * lib/alerts' refusals mapped to their status with their sentence.
 */
import { HttpError, handle, runtime } from '../../../_lib/http';

export const TOKEN_HEADER = 'x-watchlist-token';

export function alertService() {
  const a = runtime().alerts;
  if (!a) throw new HttpError(503, 'alerts are not running in this process');
  return a;
}

export const tokenOf = (req: Request): string | null => req.headers.get(TOKEN_HEADER);

/** {@link handle} that also maps lib/alerts' refusals. */
export function handleAlerts(fn: () => Promise<Response>): Promise<Response> {
  return handle(async () => {
    try {
      return await fn();
    } catch (e) {
      // By name, not instanceof: the service was built by the server's module graph, not this bundle's.
      const a = e as { name?: unknown; status?: unknown; message?: unknown };
      if (a?.name === 'AlertsError' && typeof a.status === 'number' && typeof a.message === 'string')
        throw new HttpError(a.status, a.message);
      throw e;
    }
  });
}

/** A watch item's target: an agent (hex or base58) or a conversation (32 hex characters). */
export function targetBytes(
  kind: 'agent' | 'conversation',
  raw: string,
  agentParam: (name: string, raw: string) => Uint8Array,
): Uint8Array {
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
