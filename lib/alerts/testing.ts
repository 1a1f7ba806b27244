/**
 * Test helpers of the webhook outbox: a real node:http receiver on loopback, a watchlist with one
 * webhook and queued deliveries on a real store, and a poll-until.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Store } from '../store';

export interface Hit {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver answering `statuses` in turn (then 200), or as `answer` decides. */
export async function receiver(
  statuses: number[],
  answer?: (res: ServerResponse, req: IncomingMessage, n: number) => void,
) {
  const hits: Hit[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      hits.push({ at: Date.now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (answer) return answer(res, req, hits.length);
      res.writeHead(statuses[hits.length - 1] ?? 200).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    hits,
    url: `http://127.0.0.1:${port}/hook`,
    port,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** A watchlist with one webhook at `url`. */
export async function listWithWebhook(store: Store, url: string, secret: string | null = null) {
  const wl = `wl${Math.random().toString(36).slice(2, 12)}`.padEnd(22, 'x');
  await store.alerts.createWatchlist(wl, new Uint8Array(randomBytes(32)), []);
  await store.alerts.addWebhook({ id: `wh${wl.slice(2)}`, watchlistId: wl, url, format: 'json', secret }, 5);
  return { wl, webhookId: `wh${wl.slice(2)}` };
}

/** Opens one alert on the list and queues its delivery; the alert's id. */
export async function queueAlert(store: Store, wl: string, agentByte = 0xab): Promise<bigint> {
  const a = store.alerts;
  const [ins] = await a.insertAlerts([
    {
      watchlistId: wl,
      agent: new Uint8Array(32).fill(agentByte),
      kind: 'offline',
      subject: '',
      dedupeKey: `${agentByte}`,
      why: 'no envelope for 12 min',
      throttled: false,
      at: new Date(),
    },
  ]);
  assert.equal(await a.enqueueDeliveries([{ alertId: ins.id, watchlistId: wl, event: 'open' }], 60), 1);
  return ins.id;
}

/** A list with a webhook at `url` and one queued delivery. */
export async function oneDelivery(store: Store, url: string, secret: string | null) {
  const { wl, webhookId } = await listWithWebhook(store, url, secret);
  return { alertId: await queueAlert(store, wl), webhookId, wl };
}

export async function until<T>(what: string, ms: number, f: () => Promise<T | false | null | undefined>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
