/**
 * Alerts end to end on the real stack (`npm start`'s launcher, PGlite, embedded chain, the
 * observer and indexer, three demo agents on 6-second epochs): demo agent 3 holds back its lease
 * (DEMO_LEASE_PAUSE), a watchlist made through the API watches it with the lease_grace rule and a
 * signed json webhook to a receiver run here. The receiver first answers 503; the server is
 * killed (SIGKILL) with that delivery pending and started again on the same DATA_DIR (without agents);
 * the delivery then arrives, and is answered 2xx exactly once, under one X-Zerox1-Delivery id,
 * and the alert was opened once. A lease payment sent from here (faucet-funded wallet) ends the
 * grace: the clearing is recorded with its sentence and delivered. The header's bell, in a
 * browser holding the watchlist, shows the unread alert.
 */

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import { chromium } from 'playwright-core';
import { lease, loadEconomyConfig } from '../lib/chain';
import { payLease } from '../lib/chain/node/economy';
import { CHROMIUM, CHROMIUM_ARGS, type RunningServer, startServer } from './harness';

const EPOCH_SECONDS = 6;
const SECRET = 'e2e-receiver-secret-0123456789';

interface Hit {
  delivery: string;
  timestamp: string;
  status: number;
  body: { kind: string; state: string; agent: string; why: string };
  raw: string;
  signature: string | undefined;
}

const hits: Hit[] = [];
let answer = 503;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    hits.push({
      delivery: String(req.headers['x-zerox1-delivery']),
      timestamp: String(req.headers['x-zerox1-timestamp']),
      status: answer,
      body: JSON.parse(raw),
      raw,
      signature: req.headers['x-zerox1-signature'] as string | undefined,
    });
    res.writeHead(answer).end();
  });
});
const dataDir = mkdtempSync(join(tmpdir(), 'zerox1-e2e-alerts-'));
let srv: RunningServer | undefined;

after(async () => {
  await srv?.stop();
  await new Promise<void>((r) => receiver.close(() => r()));
  rmSync(dataDir, { recursive: true, force: true });
});

const env = (extra: Record<string, string>) => () => ({
  DATA_DIR: dataDir,
  SOLANA_RPC_URL: '',
  CHAIN_PORT: '0',
  EPOCH_SECONDS: String(EPOCH_SECONDS),
  OBSERVER_LISTEN: '/ip4/127.0.0.1/tcp/0',
  ALERT_WEBHOOK_ALLOW_PRIVATE: '1',
  ALERT_EVAL_MS: '500',
  ALERT_RETRY_BASE_MS: '1000',
  ...extra,
});

test('lease_grace fires once, its delivery survives a restart and arrives once, and the payment clears it', {
  timeout: 420_000,
}, async () => {
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  // Agent 3 (index 2) pays its first lease at start, then nothing for an hour.
  srv = await startServer(env({ DEMO_AGENTS: '3', DEMO_LEASE_PAUSE: `2@${Math.floor(Date.now() / 1000) + 3_600}` }));
  const s = srv;
  const agent = await s.until('demo agent 3 on the mesh', 120_000, async () => {
    const l = (await s.getJson<{ agents: Array<{ id: string; name: string | null }> }>('/api/agents?limit=50')).body
      .agents;
    return l.find((a) => a.name === 'Zerox1 demo agent 3')?.id;
  });

  // A watchlist through the API: this agent, lease_grace only, a signed json webhook.
  const made = (await (await fetch(`${s.base}/api/watchlists`, { method: 'POST' })).json()) as {
    id: string;
    token: string;
  };
  const call = async (base: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method,
      headers: { 'x-watchlist-token': made.token, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const b = (await res.json()) as Record<string, unknown>;
    assert.ok(res.ok, `${method} ${path}: ${res.status} ${JSON.stringify(b)}`);
    return b;
  };
  // Rules and the webhook first: the lease may be in grace already when the agent is added.
  for (const kind of ['offline', 'deactivated', 'batch_missing', 'challenged', 'slashed'])
    await call(s.base, 'PUT', `/api/watchlists/${made.id}/rules/${kind}`, { enabled: false });
  await call(s.base, 'PUT', `/api/watchlists/${made.id}/rules/lease_grace`, { enabled: true });
  await call(s.base, 'POST', `/api/watchlists/${made.id}/webhooks`, { url: hookUrl, format: 'json', secret: SECRET });
  await call(s.base, 'PUT', `/api/watchlists/${made.id}/items`, { kind: 'agent', target: agent });

  // The lease runs into grace: the alert opens and its first delivery meets a 503.
  const first = await s.until(
    'the lease_grace delivery (answered 503)',
    120_000,
    () => hits.find((h) => h.body.kind === 'lease_grace' && h.body.state === 'open'),
    200,
  );
  assert.equal(first.body.agent, agent);
  assert.match(first.body.why, /is paid through epoch \d+ and the current epoch is \d+: \d+ unpaid epochs? in grace/);
  assert.equal(
    first.signature,
    `sha256=${createHmac('sha256', SECRET).update(`${first.timestamp}.${first.delivery}.${first.raw}`).digest('hex')}`,
  );
  const alertsOf = async (base: string) =>
    (await call(base, 'GET', `/api/alerts?watchlist=${made.id}`)).alerts as Array<{
      id: string;
      kind: string;
      agent: string;
      state: string;
      why: string;
      clearedWhy: string | null;
    }>;
  assert.deepEqual(
    (await alertsOf(s.base)).map((a) => [a.kind, a.agent, a.state]),
    [['lease_grace', agent, 'open']],
  );

  // Kill the server (SIGKILL: nothing shuts down) with the delivery pending, then start again on
  // the same folder, without agents (the held-back lease stays unpaid), the receiver now accepting.
  await s.crash();
  srv = undefined;
  answer = 200;
  srv = await startServer(env({ DEMO_AGENTS: '0', FAUCET: 'on' }));
  const s2 = srv;
  // A row the killed process had claimed waits for its claim to lapse (30 s) before it is sent again.
  await s2.until(
    'the delivery accepted after the restart',
    90_000,
    () => hits.some((h) => h.body.kind === 'lease_grace' && h.body.state === 'open' && h.status === 200),
    200,
  );
  const opens = hits.filter((h) => h.body.kind === 'lease_grace' && h.body.state === 'open');
  assert.equal(new Set(opens.map((h) => h.delivery)).size, 1, 'one delivery id for the open event');
  assert.equal(opens.filter((h) => h.status === 200).length, 1, 'accepted exactly once');
  await new Promise((r) => setTimeout(r, 2_500));
  assert.equal(
    hits.filter((h) => h.body.state === 'open' && h.status === 200).length,
    1,
    'nothing is sent again once accepted',
  );
  assert.equal((await alertsOf(s2.base)).length, 1, 'the restart opened no second alert');

  // The page's bell, in a browser holding this watchlist as the page keeps it (localStorage).
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.addInitScript(
      (v) => window.localStorage.setItem('zx1.watchlist', v),
      JSON.stringify({ id: made.id, token: made.token, items: [] }),
    );
    await page.goto(`${s2.base}/glossary`);
    const bell = page.locator('[data-testid="alerts-bell"][data-unread="1"]');
    await bell.waitFor({ timeout: 30_000 });
    assert.match((await bell.getAttribute('aria-label')) ?? '', /1 unread/);
  } finally {
    await browser.close();
  }

  // Pay the lease from a faucet-funded wallet; the indexer sees it and the alert clears.
  const health = await s2.getJson<{ chain?: { rpcUrl: string } }>('/api/health');
  const conn = new Connection(health.body.chain!.rpcUrl, 'confirmed');
  const payer = Keypair.generate();
  const drop = await fetch(`${s2.base}/api/chain/faucet`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ address: payer.publicKey.toBase58() }),
  });
  assert.equal(drop.status, 200, await drop.text());
  const agentKey = new PublicKey(Buffer.from(agent, 'hex'));
  const l = lease.decodeLease((await conn.getAccountInfo(lease.findLeasePda(agentKey)[0], 'confirmed'))!.data)!;
  const now = BigInt(Math.floor(Date.now() / 1000 / EPOCH_SECONDS));
  try {
    await payLease(conn, {
      payer,
      agent: agentKey,
      epochs: Number(now - l.paidThroughEpoch) + 5,
      config: await loadEconomyConfig(conn),
    });
  } finally {
    // web3.js confirms over a WebSocket that reconnects forever once the server is gone.
    const ws = (conn as unknown as { _rpcWebSocket?: { close(): void; setAutoReconnect?(v: boolean): void } })
      ._rpcWebSocket;
    ws?.setAutoReconnect?.(false);
    ws?.close();
  }
  const cleared = await s2.until('the alert cleared', 60_000, async () =>
    (await alertsOf(s2.base)).find((a) => a.state === 'cleared'),
  );
  assert.match(cleared.clearedWhy!, /lease of .* paid through epoch \d+ \(current epoch \d+\)/);
  const clearHit = await s2.until(
    'the clearing delivered',
    30_000,
    () => hits.find((h) => h.body.state === 'cleared' && h.status === 200),
    200,
  );
  assert.equal(clearHit.body.kind, 'lease_grace');
  assert.notEqual(clearHit.delivery, first.delivery);
  assert.equal(hits.filter((h) => h.body.state === 'cleared').length, 1);
});
