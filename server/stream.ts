/**
 * The `/api/stream` WebSocket endpoint (docs/app.md "Live stream: `/api/stream`"):
 * every LiveEvent from the observatory's bus goes to every connected browser as one JSON text
 * frame. Lives outside Next's bundle; main.ts attaches it to the HTTP server's `upgrade` event.
 *
 * Backpressure: ingest must never wait for a browser. Each event is serialised once and handed to
 * every client whose socket buffer is below {@link StreamHubOptions.highWaterBytes}. A client
 * above it is "lagging": its events are dropped (counted) until the buffer drains below
 * `lowWaterBytes`, then it gets one `{"type":"lagged","data":{"dropped":n}}` frame so it can
 * reload a snapshot over HTTP. A client lagging longer than `maxLagMs` is disconnected.
 *
 * Slots: at most `maxClients` sockets in all and `maxPerClient` per client (./request-target.ts
 * clientKey: an address, an IPv6 /64), so one address cannot take the slots everyone else needs.
 * Either refusal is a close with 1013 (try again later) and a reason saying which cap, counted.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { eventJson } from '../lib/observer/events';
import type { LiveBus } from '../lib/observer/types';
import { clientKey } from './request-target';

export const STREAM_PATH = '/api/stream';

export interface StreamHubOptions {
  /** Socket buffer size above which events for that client are dropped. */
  highWaterBytes?: number;
  /** Buffer size at which a lagging client is resumed. */
  lowWaterBytes?: number;
  /** A client lagging longer than this is closed (1013, try again later). */
  maxLagMs?: number;
  /** Most simultaneous clients; more are refused with 1013. */
  maxClients?: number;
  /** Most simultaneous sockets of one client (address); more are refused with 1013. */
  maxPerClient?: number;
  /** Ping interval; a client that missed the previous pong is terminated. */
  heartbeatMs?: number;
}

export interface StreamHubStats {
  clients: number;
  sent: number;
  dropped: number;
  /** Sockets closed at once because a slot cap was reached (since start). */
  refused: number;
}

/** Default of {@link StreamHubOptions.maxPerClient}. */
export const DEFAULT_STREAM_PER_CLIENT = 20;

export interface StreamHub {
  /** Handles an HTTP upgrade; returns false when the path is not {@link STREAM_PATH}. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  stats(): StreamHubStats;
  close(): Promise<void>;
}

interface Client {
  ws: WebSocket;
  alive: boolean;
  laggingSince: number;
  dropped: number;
  corked: boolean;
}

type Corkable = { cork(): void; uncork(): void };

/**
 * Events published in one synchronous burst (the observer publishes a committed batch in one
 * loop) leave in one socket write per client instead of one write per frame: the client's
 * socket is corked on its first frame of the tick and uncorked on the next tick.
 */
function corkForTick(client: Client): void {
  if (client.corked) return;
  const sock = (client.ws as unknown as { _socket?: Corkable })._socket;
  if (!sock || typeof sock.cork !== 'function') return;
  sock.cork();
  client.corked = true;
  process.nextTick(() => {
    client.corked = false;
    sock.uncork();
  });
}

/** JSON with bigints as decimal strings and bytes as lowercase hex (LiveEvent contract). */
export const serializeEvent = eventJson;

/** Subscribes to `bus` and serves its events to WebSocket clients on {@link STREAM_PATH}. */
export function createStreamHub(bus: LiveBus, options: StreamHubOptions = {}): StreamHub {
  if (!bus || typeof bus.subscribe !== 'function') throw new TypeError('bus must be a LiveBus');
  const highWater = options.highWaterBytes ?? 1 << 20;
  const lowWater = options.lowWaterBytes ?? 64 << 10;
  const maxLagMs = options.maxLagMs ?? 30_000;
  const maxClients = options.maxClients ?? 1_000;
  const maxPerClient = options.maxPerClient ?? DEFAULT_STREAM_PER_CLIENT;
  const heartbeatMs = options.heartbeatMs ?? 30_000;

  const wss = new WebSocketServer({ noServer: true, maxPayload: 4 << 10, perMessageDeflate: false });
  const clients = new Set<Client>();
  const perClient = new Map<string, number>();
  let refused = 0;
  let sent = 0;
  let dropped = 0;

  function deliver(client: Client, frame: string, now: number): void {
    const { ws } = client;
    if (ws.readyState !== WebSocket.OPEN) return;
    if (client.laggingSince) {
      if (ws.bufferedAmount > lowWater) {
        client.dropped++;
        dropped++;
        if (now - client.laggingSince > maxLagMs) ws.close(1013, 'too slow');
        return;
      }
      ws.send(JSON.stringify({ type: 'lagged', at: now, data: { dropped: client.dropped } }));
      client.laggingSince = 0;
      client.dropped = 0;
    }
    if (ws.bufferedAmount > highWater) {
      client.laggingSince = now;
      client.dropped = 1;
      dropped++;
      return;
    }
    corkForTick(client);
    ws.send(frame);
    sent++;
  }

  const unsubscribe = bus.subscribe((event) => {
    if (clients.size === 0) return;
    let frame: string;
    try {
      frame = serializeEvent(event);
    } catch {
      return; // an unserialisable event is the publisher's bug; never let it reach ingest
    }
    const now = Date.now();
    for (const c of clients) deliver(c, frame, now);
  });

  const heartbeat = setInterval(() => {
    for (const c of clients) {
      if (!c.alive) {
        c.ws.terminate();
        continue;
      }
      c.alive = false;
      c.ws.ping();
    }
  }, heartbeatMs);
  heartbeat.unref();

  wss.on('connection', (ws: WebSocket, req: IncomingMessage) => {
    if (clients.size >= maxClients) {
      refused++;
      ws.close(1013, `too many clients: all ${maxClients} stream slots are taken; retry later`);
      return;
    }
    const key = clientKey(req.socket.remoteAddress);
    const mine = perClient.get(key) ?? 0;
    if (mine >= maxPerClient) {
      refused++;
      ws.close(1013, `too many streams from this client: ${maxPerClient} are open already`);
      return;
    }
    perClient.set(key, mine + 1);
    const client: Client = { ws, alive: true, laggingSince: 0, dropped: 0, corked: false };
    clients.add(client);
    ws.on('pong', () => {
      client.alive = true;
    });
    // The stream is one-way; anything the browser sends is ignored.
    ws.on('message', () => {});
    ws.on('error', () => ws.terminate());
    ws.on('close', () => {
      if (!clients.delete(client)) return;
      const left = (perClient.get(key) ?? 1) - 1;
      if (left <= 0) perClient.delete(key);
      else perClient.set(key, left);
    });
    ws.send(JSON.stringify({ type: 'hello', at: Date.now(), data: {} }));
  });

  return {
    handleUpgrade(req, socket, head) {
      const path = (req.url ?? '').split('?')[0];
      if (path !== STREAM_PATH) return false;
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
      return true;
    },
    stats: () => ({ clients: clients.size, sent, dropped, refused }),
    close() {
      unsubscribe();
      clearInterval(heartbeat);
      for (const c of clients) c.ws.terminate();
      clients.clear();
      perClient.clear();
      return new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
