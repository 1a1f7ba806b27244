// Webhook delivery against real HTTP receivers (node:http on loopback) and a real store:
// URL checks refuse loopback, private, link-local and other non-public targets (also a name that
// resolves to one, and again at connect time); Slack and Discord bodies have the shapes those
// services accept; the json body's HMAC verifies with node:crypto; a failing receiver is retried
// with growing delays until it answers, or until the cap, and the webhook reports `failing`; a
// pending delivery survives its sender, and a delivered one is never sent again.

import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { test } from 'node:test';
import { testOnEachStore } from '../store/backends-testing';
import { backoffMs, post, startDeliveryWorker } from './delivery';
import { type AlertMessage, signature, webhookBody, webhookHeaders } from './payloads';
import { oneDelivery, receiver, until } from './testing';
import { checkWebhookUrl, isPublicAddress } from './url-guard';

/** A name of this machine that resolves to loopback or private addresses only (its host name; else localhost's own). */
const LOCAL_NAME = await (async () => {
  const h = hostname();
  try {
    const addrs = await lookup(h, { all: true });
    if (addrs.length && addrs.every((a) => !isPublicAddress(a.address))) return h;
  } catch {
    /* unresolvable host name */
  }
  return 'localhost.localdomain';
})();

const MSG: AlertMessage = {
  id: '7',
  kind: 'lease_grace',
  state: 'open',
  agent: 'ab'.repeat(32),
  agentName: 'demo <1> & co',
  subject: '',
  why: 'lease of demo is paid through epoch 5 and the current epoch is 6',
  at: '2026-11-27T22:00:00.000Z',
  url: 'https://obs.example/alerts?alert=7',
};

test(
  'URL checks: loopback, private, shared, link-local, unspecified, ' +
    'multicast and their names are refused unless allowed',
  async () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '100.64.0.1',
      '169.254.169.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00::1',
      'fc00::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      // IPv4 inside IPv6: compatible, SIIT-translated, local-use NAT64, 6to4.
      '::127.0.0.1',
      '::ffff:0:127.0.0.1',
      '64:ff9b:1::7f00:1',
      '64:ff9b::10.0.0.1',
      '2002:7f00:1::1',
    ]) {
      assert.equal(isPublicAddress(ip), false, ip);
      const host = ip.includes(':') ? `[${ip}]` : ip;
      const r = await checkWebhookUrl(`https://${host}/x`, { allowPrivate: false });
      assert.equal(r.ok, false, ip);
      assert.match(
        (r as { error: string }).error,
        /^url: .* non-public addresses \(also written inside IPv6\) are refused$/,
      );
    }
    for (const ip of ['93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700::1111'])
      assert.equal(isPublicAddress(ip), true, ip);
    assert.equal((await checkWebhookUrl('https://93.184.216.34/hook', { allowPrivate: false })).ok, true);
    // Names: this machine's own name (it resolves, really, to a loopback or private address), and
    // one whose resolver answers a private address among public ones.
    const local = await checkWebhookUrl(`http://${LOCAL_NAME}/hook`, { allowPrivate: false });
    assert.equal(local.ok, false);
    assert.match(
      (local as { error: string }).error,
      new RegExp(`${LOCAL_NAME.replace(/\./g, '\\.')} does not resolve to public addresses only`),
    );
    const rebind = await checkWebhookUrl('https://hooks.example/x', {
      allowPrivate: false,
      resolve: async () => ['93.184.216.34', '10.0.0.7'],
    });
    // Where an inside name points is not told (that would map the internal DNS).
    assert.deepEqual(rebind, {
      ok: false,
      error:
        'url: hooks.example does not resolve to public addresses only; names ' +
        'that do not resolve or lead to a non-public address are refused',
    });
    for (const [u, why] of [
      ['ftp://x.example/', /only http and https/],
      ['https://user:pw@x.example/', /credentials/],
      ['not a url', /not a URL/],
      ['http://localhost:3000/', /this machine/],
    ] as const) {
      const r = await checkWebhookUrl(u, { allowPrivate: false });
      assert.equal(r.ok, false, u);
      assert.match((r as { error: string }).error, why);
    }
    assert.equal(
      (await checkWebhookUrl('http://127.0.0.1:9/x', { allowPrivate: true })).ok,
      true,
      'ALERT_WEBHOOK_ALLOW_PRIVATE=1',
    );
  },
);

test('at send time the connection itself refuses a name that resolves to a non-public address', async () => {
  const r = await receiver([]);
  try {
    const url = `http://${LOCAL_NAME}:${r.port}/hook`;
    await assert.rejects(
      post(url, '{}', {}, { allowPrivate: false, timeoutMs: 2_000 }),
      /^OutboundError: refused: private address$/,
    );
    await assert.rejects(
      post(r.url, '{}', {}, { allowPrivate: false, timeoutMs: 2_000 }),
      /^OutboundError: refused: private address$/,
    );
    assert.equal(r.hits.length, 0);
    assert.equal(await post(url, '{}', {}, { allowPrivate: true, timeoutMs: 2_000 }), 200);
  } finally {
    await r.close();
  }
});

test('Slack, Discord and json bodies; the json signature verifies with node:crypto over the raw body', () => {
  const slack = JSON.parse(webhookBody('slack', MSG, 'd1', 1_790_000_000));
  assert.equal(typeof slack.text, 'string');
  assert.match(slack.text, /demo &lt;1&gt; &amp; co: lease_grace opened: lease of demo/);
  assert.deepEqual(
    slack.blocks.map((b: { type: string }) => b.type),
    ['section', 'context'],
  );
  assert.equal(slack.blocks[0].text.type, 'mrkdwn');
  assert.match(slack.blocks[1].elements[0].text, /^<https:\/\/obs\.example\/alerts\?alert=7\|Open in the observatory>/);

  const long = { ...MSG, why: 'x'.repeat(5_000) };
  const discord = JSON.parse(webhookBody('discord', long, 'd1', 1_790_000_000));
  assert.equal(discord.content.length, 2_000);
  assert.equal(discord.embeds.length, 1);
  assert.ok(discord.embeds[0].description.length <= 4_096);
  assert.equal(discord.embeds[0].url, MSG.url);
  assert.equal(discord.embeds[0].timestamp, MSG.at);
  assert.deepEqual(discord.allowed_mentions, { parse: [] });

  const body = webhookBody('json', MSG, 'd1', 1_790_000_000);
  assert.deepEqual(Object.keys(JSON.parse(body)), [
    'id',
    'kind',
    'state',
    'agent',
    'agentName',
    'subject',
    'why',
    'at',
    'url',
    'delivery',
    'sentAt',
  ]);
  const secret = 'a receiver secret of 32 chars!!';
  const header = signature(secret, 1_790_000_000, 'd1', body);
  // What a receiver does: HMAC "<timestamp>.<delivery>.<raw body>", compare in constant time.
  const mine = Buffer.from(`sha256=${createHmac('sha256', secret).update(`1790000000.d1.${body}`).digest('hex')}`);
  assert.ok(timingSafeEqual(mine, Buffer.from(header)));
  assert.notEqual(signature(secret, 1_790_000_000, 'd1', body.replace('lease', 'Lease')), header);
});

test(
  'Slack and Discord bodies carry no time or id, so the signature ' +
    'binds both from the headers: a replay under a new time or id fails',
  () => {
    const secret = 'a receiver secret of 32 chars!!';
    for (const format of ['slack', 'discord'] as const) {
      const body = webhookBody(format, MSG, 'd7', 1_790_000_000);
      assert.doesNotMatch(body, /1790000000|d7/, 'nothing of the time or id in the body');
      const h = webhookHeaders(body, 'd7', 1_790_000_000, secret);
      assert.equal(h['x-zerox1-timestamp'], '1790000000');
      assert.equal(h['x-zerox1-delivery'], 'd7');
      assert.equal(
        h['x-zerox1-signature'],
        `sha256=${createHmac('sha256', secret).update(`1790000000.d7.${body}`).digest('hex')}`,
      );
      // The same body captured and sent again with a fresh timestamp or another id does not verify.
      assert.notEqual(signature(secret, 1_790_000_999, 'd7', body), h['x-zerox1-signature']);
      assert.notEqual(signature(secret, 1_790_000_000, 'd8', body), h['x-zerox1-signature']);
    }
  },
);

test('backoff doubles from the base with ±25% jitter; 8 attempts at a 30 s base span about an hour', () => {
  assert.equal(
    backoffMs(1, 1_000, () => 0.5),
    1_000,
  );
  assert.equal(
    backoffMs(3, 1_000, () => 0.5),
    4_000,
  );
  assert.equal(
    backoffMs(3, 1_000, () => 0),
    3_000,
  );
  assert.equal(
    backoffMs(3, 1_000, () => 1),
    5_000,
  );
  let total = 0;
  for (let a = 1; a < 8; a++) total += backoffMs(a, 30_000, () => 0.5);
  assert.equal(total, 30_000 * 127);
});

testOnEachStore(
  'a receiver that fails three times gets the same delivery four times, with growing gaps, signed',
  async (store) => {
    const r = await receiver([503, 500, 502]);
    const secret = 'secret-of-the-receiver-0123456789';
    const { alertId, webhookId, wl } = await oneDelivery(store, r.url, secret);
    const worker = startDeliveryWorker({
      store: store.alerts,
      linkFor: (i) => `http://obs.example/alerts?alert=${i}`,
      allowPrivate: true,
      retryBaseMs: 60,
      pollMs: 10,
      random: () => 0.5,
    });
    try {
      await until(
        'delivered',
        10_000,
        async () => (await store.alerts.deliveriesOf(alertId))[0].status === 'delivered',
      );
      assert.equal(r.hits.length, 4);
      const ids = new Set(r.hits.map((h) => h.headers['x-zerox1-delivery']));
      assert.equal(ids.size, 1, 'one delivery id on every attempt');
      const gaps = r.hits.slice(1).map((h, i) => h.at - r.hits[i].at);
      assert.ok(gaps[0] >= 55 && gaps[1] >= 110 && gaps[2] >= 230, `gaps ${gaps.join(', ')} ms follow 60, 120, 240`);
      for (const h of r.hits) {
        assert.equal(
          h.headers['x-zerox1-signature'],
          `sha256=${createHmac('sha256', secret)
            .update(`${h.headers['x-zerox1-timestamp']}.${h.headers['x-zerox1-delivery']}.${h.body}`)
            .digest('hex')}`,
        );
        assert.equal(h.headers['x-zerox1-timestamp'], String(JSON.parse(h.body).sentAt));
        assert.equal(JSON.parse(h.body).state, 'open');
      }
      const [d] = await store.alerts.deliveriesOf(alertId);
      assert.equal(d.attempts, 4);
      const w = (await store.alerts.getWatchlist(wl))!.webhooks.find((x) => x.id === webhookId)!;
      assert.equal(w.status, 'ok');
      assert.ok(w.lastDeliveredAt);
      // Delivered is final: nothing is claimed again.
      assert.equal(await worker.runOnce(), 0);
      assert.equal(r.hits.length, 4);
    } finally {
      await worker.stop();
      await r.close();
    }
  },
  { dbPrefix: 'zx_alerts_retry', timeout: 60_000 },
);

testOnEachStore(
  'a receiver that always fails: the delivery fails after the cap, the webhook reports failing with the last error',
  async (store) => {
    const r = await receiver(Array(20).fill(500));
    const { alertId, webhookId, wl } = await oneDelivery(store, r.url, null);
    const worker = startDeliveryWorker({
      store: store.alerts,
      linkFor: () => 'http://obs.example/',
      allowPrivate: true,
      retryBaseMs: 20,
      maxAttempts: 4,
      pollMs: 10,
    });
    try {
      await until('failed', 10_000, async () => (await store.alerts.deliveriesOf(alertId))[0].status === 'failed');
      assert.equal(r.hits.length, 4);
      assert.equal(r.hits[0].headers['x-zerox1-signature'], undefined, 'no secret, no signature');
      const w = (await store.alerts.getWatchlist(wl))!.webhooks.find((x) => x.id === webhookId)!;
      assert.deepEqual([w.status, w.lastError], ['failing', 'attempt 4 of 4: HTTP 500']);
      await new Promise((res) => setTimeout(res, 100));
      assert.equal(r.hits.length, 4, 'no attempt after the cap');
    } finally {
      await worker.stop();
      await r.close();
    }
  },
  { dbPrefix: 'zx_alerts_cap', timeout: 60_000 },
);

testOnEachStore(
  'a pending delivery outlives its sender: the next sender on the same store delivers it once',
  async (store) => {
    const r = await receiver([503]);
    const { alertId } = await oneDelivery(store, r.url, null);
    const first = startDeliveryWorker({
      store: store.alerts,
      linkFor: () => 'http://obs.example/',
      allowPrivate: true,
      retryBaseMs: 300,
      pollMs: 10,
    });
    await until('the first attempt', 5_000, async () => r.hits.length === 1);
    await first.stop();
    assert.equal((await store.alerts.deliveriesOf(alertId))[0].status, 'pending');
    const second = startDeliveryWorker({
      store: store.alerts,
      linkFor: () => 'http://obs.example/',
      allowPrivate: true,
      retryBaseMs: 300,
      pollMs: 10,
    });
    try {
      await until(
        'delivered by the second sender',
        5_000,
        async () => (await store.alerts.deliveriesOf(alertId))[0].status === 'delivered',
      );
      await new Promise((res) => setTimeout(res, 50));
      assert.equal(r.hits.length, 2);
      assert.equal(r.hits[0].headers['x-zerox1-delivery'], r.hits[1].headers['x-zerox1-delivery']);
    } finally {
      await second.stop();
      await r.close();
    }
  },
  { dbPrefix: 'zx_alerts_restart', timeout: 60_000 },
);
