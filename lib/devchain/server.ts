/**
 * HTTP + WebSocket transport of the embedded chain: JSON-RPC on POST, PubSub on
 * WebSocket upgrade, both on one port bound to 127.0.0.1. A companion listener on port + 1
 * serves the same, because @solana/web3.js `Connection` (and Phantom, the CLI) derive the
 * WebSocket URL of an http://host:PORT endpoint as ws://host:PORT+1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import { BIND_HOST, MAX_BODY_BYTES } from './constants';
import type { PubSub } from './pubsub';
import { type Call, handleBody } from './rpc';

export interface EmbeddedLogger {
  debug?(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface RpcServerParams {
  port: number;
  companion: boolean;
  call: Call;
  has: (method: string) => boolean;
  /** Methods answered "Method not found" when the request carries an Origin header (a browser sent it). */
  refusedToBrowsers?: (method: string) => boolean;
  pubsub: PubSub;
  logger: EmbeddedLogger;
}

export interface RpcServer {
  port: number;
  companionPort: number | null;
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'POST, GET, OPTIONS',
  'access-control-allow-headers': 'content-type, solana-client',
  'access-control-max-age': '86400',
};
const MAX_WS_BUFFER = 32 * 1024 * 1024;

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    server.once('error', onError);
    server.listen(port, BIND_HOST, () => {
      server.off('error', onError);
      const a = server.address();
      resolve(typeof a === 'object' && a ? a.port : port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** Starts the listeners; rejects when the main port is taken. */
export async function startRpcServer(p: RpcServerParams): Promise<RpcServer> {
  const onInternal = (err: unknown, method: string) =>
    p.logger.error('embedded chain: internal error', { method, err: String(err) });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });

  wss.on('connection', (ws: WebSocket) => {
    const send = (msg: unknown) => {
      if (ws.readyState !== WebSocket.OPEN) return;
      if (ws.bufferedAmount > MAX_WS_BUFFER) return void ws.terminate();
      ws.send(JSON.stringify(msg));
    };
    const conn = p.pubsub.connect(send);
    ws.on('message', (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
      const text = isBinary
        ? ''
        : Buffer.isBuffer(data)
          ? data.toString('utf8')
          : Array.isArray(data)
            ? Buffer.concat(data).toString('utf8')
            : Buffer.from(data).toString('utf8');
      const reply = handleBody(
        text,
        (m, params) => conn.call(m, params),
        (m) => conn.methods.has(m),
        onInternal,
      );
      if (reply !== null && ws.readyState === WebSocket.OPEN) ws.send(reply);
    });
    ws.on('close', () => conn.close());
    ws.on('error', () => conn.close());
  });

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    req.on('error', () => res.destroy());
    if (req.method === 'OPTIONS') return void res.writeHead(204, CORS).end();
    if (req.method === 'GET' && req.url?.split('?')[0] === '/health')
      return void res.writeHead(200, { 'content-type': 'text/plain', ...CORS }).end('ok');
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST', ...CORS }).end();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { connection: 'close', ...CORS }).end();
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (size > MAX_BODY_BYTES || res.writableEnded) return;
      // CORS is open so the wallet can call the chain from the app's origin; that also lets any
      // page the machine's browser opens reach 127.0.0.1, so development methods need a client
      // that sends no Origin (a test, a script, the server itself).
      const refuse = req.headers.origin !== undefined ? p.refusedToBrowsers : undefined;
      const has = refuse ? (m: string) => p.has(m) && !refuse(m) : p.has;
      const reply = handleBody(Buffer.concat(chunks).toString('utf8'), p.call, has, onInternal);
      if (reply === null) return void res.writeHead(204, CORS).end();
      res.writeHead(200, { 'content-type': 'application/json', ...CORS }).end(reply);
    });
  };
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };
  const make = () => {
    const s = createServer({ keepAliveTimeout: 65_000 }, onRequest);
    s.on('upgrade', onUpgrade);
    s.on('clientError', (_err, socket) => socket.destroy());
    return s;
  };

  for (let attempt = 0; ; attempt++) {
    const main = make();
    const port = await listen(main, p.port);
    if (!p.companion) return finish(main, port, null);
    const side = make();
    try {
      const companionPort = await listen(side, port + 1);
      return finish(main, port, side, companionPort);
    } catch (err) {
      if (p.port === 0 && attempt < 10) {
        await closeServer(main);
        continue;
      }
      p.logger.warn('embedded chain: WebSocket companion port unavailable', { port: port + 1, err: String(err) });
      return finish(main, port, null);
    }
  }

  function finish(main: Server, port: number, side: Server | null, companionPort: number | null = null): RpcServer {
    return {
      port,
      companionPort,
      async close() {
        for (const ws of wss.clients) ws.terminate();
        wss.close();
        await Promise.all([closeServer(main), side ? closeServer(side) : Promise.resolve()]);
      },
    };
  }
}
