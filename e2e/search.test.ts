/**
 * Search, the API reference and fair limits in the real app (`npm start`'s launcher, Debian
 * Chromium): typing a prefix in the header box suggests the agent and Enter opens its page; a
 * full id goes straight to its page; /search groups hits by kind; /conversations keeps its filter
 * in the URL; /docs/api renders the OpenAPI document; past its burst a client gets 429 with
 * Retry-After from the custom server. Screenshots in $SHOTS_DIR (default $TMPDIR/zerox1-search).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import type { AgentList, ConversationList } from '../lib/wire';
import { CHROMIUM, CHROMIUM_ARGS, chromiumSkip as skip, startServer, type RunningServer } from './harness';

const SHOTS = process.env.SHOTS_DIR ?? join(tmpdir(), 'zerox1-search');
let srv: RunningServer | undefined;
let browser: Browser | undefined;

before(async () => {
  if (skip) return;
  mkdirSync(SHOTS, { recursive: true });
  // A small API burst so the 429 check is quick; the pages' own fetches stay well inside it.
  srv = await startServer((dir) => ({ DATA_DIR: dir, DEMO_AGENTS: '4', EPOCH_SECONDS: '6', CHAIN_PORT: '0', RATE_LIMIT_API: '5:60' }));
  await srv.until('conversations', 120_000, async () => (await srv!.getJson<ConversationList>('/api/conversations')).body.conversations.length >= 2);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await srv?.stop();
});

test('header search: suggestions as you type, Enter opens the agent; a full id goes straight there', { skip }, async () => {
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

test('/search groups hits by kind; /conversations and /agents keep their filter in the URL', { skip }, async () => {
  const page = await browser!.newPage({ viewport: { width: 1400, height: 1000 } });
  // Two shared cores under load: a first page load can take longer than playwright's 30 s default.
  page.setDefaultTimeout(90_000);
  try {
    await page.goto(`${srv!.base}/search?q=${(await srv!.getJson<ConversationList>('/api/conversations')).body.conversations[0].id.slice(0, 2)}`);
    const groups = await page.locator('[data-search-group]').evaluateAll((els) => els.map((e) => e.getAttribute('data-search-group')));
    assert.ok(groups.includes('conversation'), `groups: ${groups.join(', ')}`);
    await page.screenshot({ path: join(SHOTS, 'search-page.png'), fullPage: true });

    await page.goto(`${srv!.base}/conversations?range=24h&limit=1`);
    await page.getByTestId('next-page').click();
    await page.waitForURL(/before=\d+-[0-9a-f]{32}/);
    assert.match(page.url(), /range=24h/);
    await page.screenshot({ path: join(SHOTS, 'conversations-filtered.png'), fullPage: true });

    await srv!.until('three locked stakes', 60_000, async () => (await srv!.getJson<AgentList>('/api/agents?stake=locked')).body.agents.length >= 3);
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
    assert.equal(ops, Object.values(doc.paths).reduce((n: number, p) => n + Object.keys(p as object).length, 0));
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
