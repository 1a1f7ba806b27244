// No webhook receiver can hold another list's alerts (real store, real node:http receivers on
// loopback): an attempt ends at its deadline however slowly the receiver answers, at most 4 KiB
// of an answer are read, every outbox row is scheduled on its own (one list's slow receiver never
// delays another list's delivery, and its retries back off alone), a redirect is a failure, and
// what the list's owner sees of a failure is its class.
import assert from 'node:assert/strict';
import { testOnEachStore } from '../store/backends-testing';
import { startDeliveryWorker } from './delivery';
import { listWithWebhook, oneDelivery, queueAlert, receiver, until } from './testing';

const link = () => 'http://obs.example/';

/** A receiver that answers 200 and then drips one byte every `everyMs` for `forMs`. */
const dripper = (everyMs: number, forMs: number) =>
  receiver([], (res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    const t = setInterval(() => res.write('.'), everyMs);
    const stop = setTimeout(() => {
      clearInterval(t);
      res.end();
    }, forMs);
    res.on('close', () => {
      clearInterval(t);
      clearTimeout(stop);
    });
  });

testOnEachStore(
  'a dripping receiver on list A holds neither list B nor the outbox: B is delivered at once, A ends at its deadline',
  async (store) => {
    const slow = await dripper(100, 30_000);
    const fast = await receiver([]);
    // A's deadline is long enough that B, held by nothing, arrives well inside it even on a loaded
    // machine; B arriving while A still drips is what shows A holds no one.
    const worker = startDeliveryWorker({
      store: store.alerts,
      linkFor: link,
      allowPrivate: true,
      timeoutMs: 6_000,
      retryBaseMs: 60_000,
      pollMs: 20,
    });
    try {
      const a = await oneDelivery(store, slow.url, null);
      await until('A being sent', 10_000, async () => slow.hits.length === 1);
      // A's attempt is under way (and dripping); B's alert fires now.
      const b = await oneDelivery(store, fast.url, null);
      await until(
        'B delivered',
        10_000,
        async () => (await store.alerts.deliveriesOf(b.alertId))[0].status === 'delivered',
      );
      const aNow = (await store.alerts.deliveriesOf(a.alertId))[0];
      assert.equal(aNow.lastError ?? null, null, `B was delivered only after A's attempt ended (${aNow.lastError})`);
      // A's attempt was cut at the deadline (not at the receiver's 30 s) and backs off on its own.
      const [d] = await until('A failed once', 20_000, async () => {
        const rows = await store.alerts.deliveriesOf(a.alertId);
        return rows[0].status === 'pending' && rows[0].lastError ? rows : null;
      });
      assert.equal(d.lastError, 'attempt 1 of 8: timed out');
      const w = (await store.alerts.getWatchlist(a.wl))!.webhooks[0];
      assert.deepEqual([w.status, w.lastError], ['failing', 'attempt 1 of 8: timed out']);
    } finally {
      await worker.stop();
      await slow.close();
      await fast.close();
    }
  },
  { dbPrefix: 'zx_alerts_drip', timeout: 60_000 },
);

testOnEachStore(
  'rows are scheduled one by one: a freed slot is refilled at once, and one webhook has one attempt under way',
  async (store) => {
    // Two slots. List A's receiver holds each attempt 800 ms; A has three alerts queued.
    let concurrentA = 0,
      maxA = 0;
    const slowA = await receiver([], (res) => {
      concurrentA++;
      maxA = Math.max(maxA, concurrentA);
      setTimeout(() => {
        concurrentA--;
        res.writeHead(200).end();
      }, 800);
    });
    const fast = await receiver([]);
    const worker = startDeliveryWorker({
      store: store.alerts,
      linkFor: link,
      allowPrivate: true,
      timeoutMs: 5_000,
      concurrency: 2,
      pollMs: 20,
    });
    try {
      const a = await listWithWebhook(store, slowA.url);
      const aIds = [
        await queueAlert(store, a.wl, 1),
        await queueAlert(store, a.wl, 2),
        await queueAlert(store, a.wl, 3),
      ];
      await until('A being sent', 3_000, async () => slowA.hits.length === 1);
      // List B's alerts come one after another while A's are held: each is sent as soon as it is queued.
      const b = await listWithWebhook(store, fast.url);
      for (let i = 0; i < 3; i++) {
        const at = Date.now();
        const id = await queueAlert(store, b.wl, 10 + i);
        await until(
          `B ${i} delivered`,
          2_000,
          async () => (await store.alerts.deliveriesOf(id))[0].status === 'delivered',
        );
        assert.ok(fast.hits[i].at - at < 400, `B ${i} waited ${fast.hits[i].at - at} ms`);
      }
      for (const id of aIds)
        await until('A delivered', 5_000, async () => (await store.alerts.deliveriesOf(id))[0].status === 'delivered');
      assert.equal(maxA, 1, 'one attempt at a time per webhook');
    } finally {
      await worker.stop();
      await slowA.close();
      await fast.close();
    }
  },
  { dbPrefix: 'zx_alerts_sched', timeout: 60_000 },
);

testOnEachStore(
  'a huge answer is not read: 4 KiB, then the socket is closed; the delivery stands on its status',
  async (store) => {
    let written = 0;
    const huge = await receiver([], (res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 0x78);
      const pump = () => {
        while (written < 300 * 1024 * 1024 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
    });
    const worker = startDeliveryWorker({
      store: store.alerts,
      linkFor: link,
      allowPrivate: true,
      timeoutMs: 10_000,
      pollMs: 20,
    });
    try {
      const t0 = Date.now();
      const a = await oneDelivery(store, huge.url, null);
      await until(
        'delivered',
        3_000,
        async () => (await store.alerts.deliveriesOf(a.alertId))[0].status === 'delivered',
      );
      assert.ok(Date.now() - t0 < 1_500, `took ${Date.now() - t0} ms`);
      await new Promise((r) => setTimeout(r, 200));
      assert.ok(
        written < 16 * 1024 * 1024,
        `the receiver could write only ${(written / 1024 / 1024).toFixed(1)} MiB before the socket closed`,
      );
    } finally {
      await worker.stop();
      await huge.close();
    }
  },
  { dbPrefix: 'zx_alerts_huge', timeout: 60_000 },
);

testOnEachStore(
  'a redirect is a failure and is not followed; a refused connection shows as "could not connect"',
  async (store) => {
    const target = await receiver([]);
    const redirecting = await receiver([], (res) => res.writeHead(307, { location: target.url }).end());
    const closed = await receiver([]);
    const closedUrl = closed.url;
    await closed.close();
    const worker = startDeliveryWorker({
      store: store.alerts,
      linkFor: link,
      allowPrivate: true,
      retryBaseMs: 60_000,
      pollMs: 20,
    });
    try {
      const r = await oneDelivery(store, redirecting.url, null);
      const c = await oneDelivery(store, closedUrl, null);
      const err = async (id: bigint) => (await store.alerts.deliveriesOf(id))[0].lastError;
      assert.equal(
        await until('redirect failure', 3_000, () => err(r.alertId)),
        'attempt 1 of 8: HTTP 307 (redirects are not followed)',
      );
      assert.equal(target.hits.length, 0);
      // The list's owner sees the class, never the system's text (ECONNREFUSED and the address).
      assert.equal(await until('refused failure', 3_000, () => err(c.alertId)), 'attempt 1 of 8: could not connect');
    } finally {
      await worker.stop();
      await target.close();
      await redirecting.close();
    }
  },
  { dbPrefix: 'zx_alerts_redirect', timeout: 60_000 },
);
