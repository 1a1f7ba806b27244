/**
 * Who sent a request, as the custom server counts clients (server/request-target.ts clientKey).
 * Route handlers see no socket, so server/main.ts writes the key into {@link CLIENT_HEADER} on
 * every request before Next sees it, replacing any value the client sent: a client cannot choose
 * whose budget it spends. Outside that server (route tests) the header may be absent.
 */
export const CLIENT_HEADER = 'x-observatory-client';

/** The client key of `req`, or 'unknown'. */
export function clientOf(req: Request): string {
  return req.headers.get(CLIENT_HEADER) || 'unknown';
}
