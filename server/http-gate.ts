/**
 * What the HTTP server does with a connection before any route sees it (docs/app.md "Fair
 * limits"):
 *
 * - **Connections per client.** Each client ({@link clientKey}: an address, an IPv6 /64) holds
 *   at most `perClient` open connections; one more is answered `503` with `Connection: close`
 *   and closed at once, and counted. Without this, one address could hold every file descriptor
 *   the process has (idle keep-alive sockets, half-sent requests, upgrade requests).
 * - **Upgrades.** Every `Upgrade` request is answered: `/api/stream` goes to the stream hub
 *   (101, or its own refusals), Next's development HMR socket is left to Next (its own `upgrade`
 *   listener, registered on the first request, takes it), and anything else gets a 4xx with
 *   `Connection: close` and the socket is closed. Node hands an upgrade request to the `upgrade`
 *   listeners only, never to the request handler, so a path nobody takes would stay open for
 *   ever.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { clientKey, requestTargetProblem } from './request-target';

/** A socket that is given up on is destroyed after this long even if its peer never reads. */
const LINGER_MS = 2_000;

/**
 * Writes a complete HTTP/1.1 answer with a JSON `{ error }` body on a raw socket and closes it.
 * Used where there is no ServerResponse: upgrade requests and refused connections.
 */
export function answerAndClose(
  socket: Duplex,
  status: number,
  reason: string,
  error: string,
  headers: Record<string, string> = {},
): void {
  if (socket.destroyed) return;
  const body = JSON.stringify({ error });
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  const head =
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; ` +
    `charset=utf-8\r\nCache-Control: no-store\r\n${extra}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // A peer that keeps sending is not read any further.
  socket.on('error', () => socket.destroy());
  socket.end(head + body, () => socket.destroy());
}

export interface ConnectionStats {
  /** Connections open now. */
  open: number;
  /** Clients holding at least one. */
  clients: number;
  /** Connections refused because their client was at its cap (since start). */
  refused: number;
  /** The cap (null = none). */
  perClient: number | null;
}

export interface ConnectionCap {
  stats(): ConnectionStats;
  /** True for a socket that was refused: its requests are not served. */
  refusedSocket(socket: Socket): boolean;
}

/** Caps the open connections per client on `server` (null = no cap, only counted). */
export function capConnections(server: Server, perClient: number | null): ConnectionCap {
  if (perClient !== null && !(Number.isInteger(perClient) && perClient >= 1))
    throw new RangeError('perClient must be a positive integer or null');
  const open = new Map<string, number>();
  const refusedSockets = new WeakSet<Socket>();
  let total = 0;
  let refused = 0;
  server.on('connection', (socket: Socket) => {
    const key = clientKey(socket.remoteAddress);
    const n = open.get(key) ?? 0;
    if (perClient !== null && n >= perClient) {
      refused++;
      refusedSockets.add(socket);
      answerAndClose(
        socket,
        503,
        'Service Unavailable',
        `too many connections from this client: ${perClient} are open already; close some and retry`,
        { 'Retry-After': '1' },
      );
      return;
    }
    open.set(key, n + 1);
    total++;
    socket.once('close', () => {
      total--;
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
  return {
    stats: () => ({ open: total, clients: open.size, refused, perClient }),
    refusedSocket: (socket) => refusedSockets.has(socket),
  };
}

export interface UpgradeRoutes {
  /** Takes the stream's upgrades; false when the path is not the stream's. */
  stream(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  /** Development mode: Next's HMR socket (`/_next/…hmr`) is left to Next's own listener. */
  dev?: boolean;
  /** Refused sockets (connection cap) get no answer here: one was written already. */
  refusedSocket?(socket: Socket): boolean;
}

export interface UpgradeStats {
  /** Upgrade requests answered with a 4xx (since start). */
  refused: number;
}

/** Next's development HMR WebSocket paths. */
const HMR = /^\/_next\/(webpack-)?hmr(\/|\?|$)/;

/** Installs the one `upgrade` listener of `server` (see the module comment). */
export function routeUpgrades(server: Server, routes: UpgradeRoutes): { stats(): UpgradeStats } {
  let refused = 0;
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (routes.refusedSocket?.(socket as Socket)) return;
    const problem = requestTargetProblem(req.url);
    if (problem) {
      refused++;
      answerAndClose(socket, 400, 'Bad Request', problem);
      return;
    }
    if (routes.stream(req, socket, head)) return;
    const path = (req.url ?? '/').split('?')[0];
    // Next registers its listener on the first request it handles; before that nobody would
    // take the socket.
    if (routes.dev && HMR.test(path) && server.listenerCount('upgrade') > 1) return;
    refused++;
    answerAndClose(socket, 404, 'Not Found', `no WebSocket at ${path.slice(0, 200)}: the live stream is /api/stream`);
  });
  return { stats: () => ({ refused }) };
}
