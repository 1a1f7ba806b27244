/**
 * Search, the API reference and fair limits in the real app (`npm start`'s launcher, Debian
 * Chromium): typing a prefix in the header box suggests the agent and Enter opens its page; a
 * full id goes straight to its page; /search groups hits by kind; /conversations keeps its filter
 * in the URL; /docs/api renders the OpenAPI document; past its burst a client gets 429 with
 * Retry-After from the custom server. Screenshots in $SHOTS_DIR (default $TMPDIR/zerox1-search).
 */

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import { base58 } from '../components/format';
import type { AgentList, BatchList, ConversationList } from '../lib/wire';
import { CHROMIUM, CHROMIUM_ARGS, type RunningServer, chromiumSkip as skip, startServer } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? join(tmpdir(), 'zerox1-search');
let srv: RunningServer | undefined;
let browser: Browser | undefined;

before(async () => {
  if (skip) return;
  mkdirSync(SHOTS, { recursive: true });
  // A small API burst so the 429 check is quick; the pages' own fetches stay well inside it.
  srv = await startServer((dir) => ({
    DATA_DIR: dir,
    DEMO_AGENTS: '4',
    EPOCH_SECONDS: '6',
    CHAIN_PORT: '0',
    RATE_LIMIT_API: '5:60',
  }));
  await srv.until(
    'conversations',
    120_000,
    async () => (await srv!.getJson<ConversationList>('/api/conversations')).body.conversations.length >= 2,
  );
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await srv?.stop();
});

test('header search: suggestions as you type, Enter opens the agent; a full id goes straight there', {
  skip,
}, async () => {
  const agents = (await srv!.getJson<AgentList>('/api/agents')).body.agents;
  const target = agents[0].id;
  const page = await browser!.newPage({ viewport: { width: 1400, height: 900 } });
  // Two shared cores under load: a first page load can take longer than playwright's 30 s default.
  page.setDefaultTimeout(90_000);
  try {
    await page.goto(`${srv!.base}/agents`);
    const box = page.getByTestId('search-input');
    await box.click();
    await box.pressSequentially(target.slice(0, 4), { delay: 40 });
    const suggest = page.getByTestId('search-suggest');
    await suggest.locator(`li[data-kind="agent"]`).first().waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(SHOTS, 'suggestions.png') });
    await box.press('ArrowDown');
    await box.press('Enter');
    await page.waitForURL(/\/agents\/[0-9a-f]{64}$/, { timeout: 60_000 });
    assert.ok(page.url().includes(`/agents/${target.slice(0, 4)}`), page.url());

    await box.fill(target);
    await page.waitForTimeout(600);
    await box.press('Enter');
    await page.waitForURL(`**/agents/${target}`, { timeout: 60_000 });
  } finally {
    await page.close();
  }
});

test('names: a base58 prefix finds the agent, its page shows that id, copy ' +
  'copies exactly it, its batch page opens by base58 with an explorer link', {
  skip,
}, async () => {
  const batch = await srv!.until('a batch on chain', 120_000, async () =>
    (await srv!.getJson<BatchList>('/api/batches?limit=5')).body.batches.find((b) => b.signature),
  );
  const hex = batch.agent;
  const b58 = base58(hex);
  assert.equal(b58, batch.agentAddress, 'the page helper and the API agree on the base58 form');
  const ctx = await browser!.newContext({
    viewport: { width: 1440, height: 1000 },
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await ctx.newPage();
  page.setDefaultTimeout(90_000);
  try {
    // The header box: five base58 characters reach the agent (a range walk on the id index).
    await page.goto(`${srv!.base}/glossary`);
    const box = page.getByTestId('search-input');
    await box.click();
    await box.pressSequentially(b58.slice(0, 5), { delay: 40 });
    const hit = page
      .getByTestId('search-suggest')
      .locator('li[data-kind="agent"]')
      .filter({ hasText: `${b58.slice(0, 5)}…` })
      .first();
    await hit.waitFor({ timeout: 60_000 });
    await hit.click();
    await page.waitForURL(`**/agents/${hex}`, { timeout: 60_000 });
    // The page shows the base58 id, and its copy button puts exactly that on the clipboard.
    const shown = (await page.getByTestId('agent-base58').textContent())!.trim();
    assert.equal(shown, b58);
    const copy = page.locator(`[data-testid="copy-agent-id"][data-copy="${b58}"]`).first();
    await copy.click();
    await page.getByText('copied').first().waitFor({ timeout: 5_000 });
    assert.equal(
      await page.evaluate(() => navigator.clipboard.readText()),
      shown,
      'the clipboard holds the id as shown',
    );
    const visible = await page.locator('main').innerText();
    const at = visible.indexOf(hex);
    assert.ok(
      at < 0,
      `no hex id in the agent page's visible text (only in the raw view); found in ${JSON.stringify(
        visible.slice(Math.max(0, at - 200), at + 80),
      )}`,
    );
    // The agent page by base58, without a redirect.
    const byB58 = await page.goto(`${srv!.base}/agents/${b58}`);
    assert.equal(byB58?.status(), 200);
    assert.equal((await page.getByTestId('agent-base58').textContent())!.trim(), b58);

    // Its batch page by base58: the transaction links to Solana Explorer on this (custom) cluster.
    const res = await page.goto(`${srv!.base}/batches/${b58}/${batch.epoch}`);
    assert.equal(res?.status(), 200, 'the batch page answers for a base58 agent');
    const tx = page.getByTestId('batch-facts').getByTestId('tx-link');
    const href = (await tx.getAttribute('href'))!;
    const rpc = (await srv!.getJson<{ chain: { rpcUrl: string } }>('/api/health')).body.chain.rpcUrl;
    assert.equal(
      href,
      `https://explorer.solana.com/tx/${batch.signature}?cluster=custom&customUrl=${encodeURIComponent(rpc)}`,
    );
    assert.match(await page.getByTestId('batch-facts').innerText(), /Slot\s+\d+/);
    await page.getByTestId('batch-verifier').waitFor({ timeout: 60_000 });
    await page.screenshot({ path: join(SHOTS, 'batch-by-base58.png'), fullPage: true });
    // A page that does not exist says so and offers the search.
    const missing = await page.goto(`${srv!.base}/no-such-page`);
    assert.equal(missing?.status(), 404);
    await page.getByTestId('not-found').waitFor();
    assert.equal(await page.locator('[data-testid="not-found"] input[name="q"]').count(), 1);
    assert.equal((await page.goto(`${srv!.base}/receipts`))?.url(), `${srv!.base}/receipts/verify`);
    await page.goto(`${srv!.base}/challenges`);
    await page.getByRole('heading', { name: 'Challenges' }).waitFor();
  } finally {
    await ctx.close();
  }
});

test('/search groups hits by kind; /conversations and /agents keep their filter in the URL', { skip }, async () => {
  const page = await browser!.newPage({ viewport: { width: 1400, height: 1000 } });
  // Two shared cores under load: a first page load can take longer than playwright's 30 s default.
  page.setDefaultTimeout(90_000);
  try {
    const { body } = await srv!.getJson<ConversationList>('/api/conversations');
    await page.goto(`${srv!.base}/search?q=${body.conversations[0].id.slice(0, 2)}`);
    const groups = await page
      .locator('[data-search-group]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-search-group')));
    assert.ok(groups.includes('conversation'), `groups: ${groups.join(', ')}`);
    await page.screenshot({ path: join(SHOTS, 'search-page.png'), fullPage: true });

    await page.goto(`${srv!.base}/conversations?range=24h&limit=1`);
    await page.getByTestId('next-page').click();
    await page.waitForURL(/before=\d+-[0-9a-f]{32}/);
    assert.match(page.url(), /range=24h/);
    await page.screenshot({ path: join(SHOTS, 'conversations-filtered.png'), fullPage: true });

    await srv!.until(
      'three locked stakes',
      60_000,
      async () => (await srv!.getJson<AgentList>('/api/agents?stake=locked')).body.agents.length >= 3,
    );
    await page.goto(`${srv!.base}/agents?stake=locked&sort=envelopes&limit=2`);
    const rows = await page.locator('tr[data-agent-row]').count();
    assert.equal(rows, 2);
    await page.getByTestId('next-page').click();
    await page.waitForURL(/before=/);
    assert.match(page.url(), /stake=locked/);
    await page.screenshot({ path: join(SHOTS, 'agents-filtered.png'), fullPage: true });
  } finally {
    await page.close();
  }
});

test('/docs/api renders the document; /api/openapi.json is OpenAPI 3.1', { skip }, async () => {
  const doc = (await srv!.getJson<{ openapi: string; paths: Record<string, unknown> }>('/api/openapi.json')).body;
  assert.equal(doc.openapi, '3.1.0');
  const page = await browser!.newPage({ viewport: { width: 1400, height: 1400 } });
  // Two shared cores under load: a first page load can take longer than playwright's 30 s default.
  page.setDefaultTimeout(90_000);
  try {
    await page.goto(`${srv!.base}/docs/api`);
    const ops = await page.locator('[data-op]').count();
    assert.equal(
      ops,
      Object.values(doc.paths).reduce((n: number, p) => n + Object.keys(p as object).length, 0),
    );
    await page.screenshot({ path: join(SHOTS, 'docs-api.png'), fullPage: false });
  } finally {
    await page.close();
  }
});

test('past its burst a client gets 429 with Retry-After', { skip }, async () => {
  let res: Response | undefined;
  for (let i = 0; i < 200; i++) {
    res = await fetch(`${srv!.base}/api/stats`);
    if (res.status === 429) break;
    await res.arrayBuffer();
  }
  assert.equal(res!.status, 429);
  assert.ok(Number(res!.headers.get('retry-after')) >= 1);
  assert.match(((await res!.json()) as { error: string }).error, /rate limit/);
});
