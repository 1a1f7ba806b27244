/**
 * The datasets feature end to end (docs/datasets.md): the real server (`npm start`'s launcher)
 * on a Postgres database filled through the store's ingest with deals played by the demo agents'
 * state machine; the HTTP API's headers, 400s and streaming; then /datasets in Debian Chromium
 * downloads a Parquet export while its progress bar moves, and the file reads back in hyparquet.
 * Needs TEST_DATABASE_URL (the fixture is loaded before the server starts) and /usr/bin/chromium.
 * Screenshot: $TMPDIR/zerox1-datasets.png.
 */

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parquetReadObjects } from 'hyparquet';
import { type Browser, chromium } from 'playwright-core';
import { loadFixture, makeDeals } from '../lib/export/deals-testing';
import { TABLES } from '../lib/export/tables';
import { openStore } from '../lib/store';
import { createTestDatabase, skipWithoutPostgres, testPostgresUrl } from '../lib/store/testing';
import { CHROMIUM, CHROMIUM_ARGS, chromiumSkip, type RunningServer, startServer } from './harness';

const skip = chromiumSkip || skipWithoutPostgres();
const DEALS = Number(process.env.E2E_DATASET_DEALS ?? 8_000);
const SCREENSHOT = join(tmpdir(), 'zerox1-datasets.png');

describe('datasets against the real server', { skip, timeout: 600_000 }, () => {
  let srv: RunningServer | undefined;
  let browser: Browser | undefined;
  let drop: (() => Promise<void>) | undefined;
  let envelopes = 0;
  before(async () => {
    const db = await createTestDatabase(testPostgresUrl()!, 'zx_e2e_datasets');
    drop = db.drop;
    const store = await openStore({ databaseUrl: db.url, epochSeconds: 3_600 });
    const fx = makeDeals({ deals: DEALS, seed: 21 });
    await loadFixture(store, fx, 3_600, { batches: false });
    envelopes = fx.items.length;
    await store.close();
    // The tests below make more exports than the default export budget's burst (server/rate-limit.ts).
    srv = await startServer(() => ({
      DATABASE_URL: db.url,
      DEMO_AGENTS: '0',
      CHAIN: 'off',
      EPOCH_SECONDS: '3600',
      RATE_LIMIT_EXPORT: '100:1000',
    }));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await srv?.stop();
    await drop?.();
  });

  test('API: total first, attachment name, 400 naming the parameter', async () => {
    const res = await fetch(`${srv!.base}/api/export/envelopes?format=csv&limit=5`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-total-rows'), '5');
    assert.equal(
      res.headers.get('content-disposition'),
      `attachment; filename="zerox1-envelopes-v${TABLES.envelopes.version}.csv"`,
    );
    assert.equal((await res.text()).trimEnd().split('\r\n').length, 6);
    for (const [qs, param] of [
      ['format=xml', 'format'],
      ['from=soon', 'from'],
      ['colour=red', 'colour'],
    ]) {
      const bad = await fetch(`${srv!.base}/api/export/envelopes?${qs}`);
      assert.equal(bad.status, 400);
      assert.match(((await bad.json()) as { error: string }).error, new RegExp(`"${param}"`));
    }
    assert.equal((await fetch(`${srv!.base}/api/export/nope`)).status, 400);
    const full = await fetch(`${srv!.base}/api/export/envelopes?format=jsonl`);
    assert.equal(Number(full.headers.get('x-total-rows')), envelopes);
    await full.body?.cancel();
    // The server releases the fixture's finished epochs in the background (e2e/datasets-http.test.ts
    // checks releases); here only the listing's shape.
    const list = await srv!.getJson<{ releases: unknown[] }>('/api/datasets');
    assert.equal(list.status, 200);
    assert.ok(Array.isArray(list.body.releases));
  });

  test('the page downloads Parquet with a moving progress bar, and the file reads back', async () => {
    const page = await browser!.newPage({ viewport: { width: 1400, height: 1000 }, acceptDownloads: true });
    try {
      await page.goto(`${srv!.base}/datasets`);
      await page.selectOption('[data-testid=table]', 'envelopes');
      await page.selectOption('[data-testid=format]', 'parquet');
      await page.click('text=Preview');
      await page.waitForSelector('[data-testid=preview] tbody tr');
      const downloaded = page.waitForEvent('download', { timeout: 300_000 });
      await page.click('[data-testid=download]');
      const seen = new Set<number>();
      let total = 0;
      let shot = false;
      for (;;) {
        const el = await page.$('[data-testid=progress]');
        if (el) {
          const rows = Number(await el.getAttribute('data-rows'));
          total = Number(await el.getAttribute('data-total'));
          if (total > 0 && rows > 0 && rows < total) {
            seen.add(rows);
            if (!shot && rows > total / 5) {
              await page.screenshot({ path: SCREENSHOT, fullPage: true });
              shot = true;
            }
          }
          if ((await el.getAttribute('data-state')) !== 'running') break;
        }
        await page.waitForTimeout(100);
      }
      assert.equal(await page.getAttribute('[data-testid=progress]', 'data-state'), 'done');
      assert.equal(total, envelopes);
      assert.ok(seen.size >= 2, `the bar moved through several values below the total: ${[...seen].join(', ')}`);
      const file = readFileSync((await (await downloaded).path())!);
      const rows = await parquetReadObjects({
        file: file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer,
        utf8: false,
        columns: ['id', 'nonce'],
      });
      assert.equal(rows.length, envelopes);
      if (!shot) await page.screenshot({ path: SCREENSHOT, fullPage: true });
    } finally {
      await page.close();
    }
  });
});
