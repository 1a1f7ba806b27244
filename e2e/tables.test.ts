/**
 * The list pages' tables in Debian Chromium against the real app (`npm start`'s launcher, the demo
 * mesh of four agents and its local chain on 6-second epochs, so batches and a challenge exist):
 * at 1,440 and 390 px in the light and the dark theme, every cell of a priority column is drawn
 * and not clipped by the box that scrolls it, the page never scrolls sideways, an agent's name
 * breaks between its words only, and every id, signature, root and address shown has its copy
 * button. Screenshots of /batches and /challenges in $TABLE_SHOTS (default $TMPDIR/zerox1-tables).
 */

import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import type { BatchList, ChallengeList, ConversationList } from '../lib/wire';
import { CHROMIUM, CHROMIUM_ARGS, type RunningServer, chromiumSkip as skip, startServer } from './harness';

const SHOTS = process.env.TABLE_SHOTS ?? join(tmpdir(), 'zerox1-tables');
let srv: RunningServer | undefined;
let browser: Browser | undefined;

/**
 * Each list page's tables (by data-testid) and the columns (by header text) a reader must always
 * see: what identifies the row and its state. The tables must mark these, and may mark more.
 */
const PRIORITY: Record<string, Record<string, string[]>> = {
  '/agents': { 'agents-table': ['State', 'Agent', 'Reliability (points)', 'Last seen'] },
  '/conversations': { 'conversation-list': ['Deal', 'Buyer', 'Seller', 'Last price', 'Outcome'] },
  '/envelopes': { 'envelope-feed': ['Type', 'From → to', 'Conversation', 'Time'] },
  '/batches': {
    'batches-table': ['Agent', 'Epoch', 'Status', 'Transaction'],
    'challenges-table': ['Challenge', 'Agent', 'Epoch', 'Status'],
  },
  '/challenges': { 'challenges-list': ['Challenge', 'Against', 'Batch epoch', 'Status', 'Challenger'] },
  '/disputes': { 'disputes-list': ['Disputed', 'By', 'Conversation', 'Status'] },
  '/reconciliation': { 'recon-rows': ['Agent', 'Epoch', 'Batch'] },
  '/collusion': {
    'collusion-reciprocal': ['Agent', 'Counterparts (without a deal)'],
    'collusion-concentration': ['Agent', 'Top counterparty', 'Top share', 'HHI'],
    'collusion-notary': ['Pair', 'Notary most often'],
    'collusion-dealless': ['Agent rated'],
  },
};

before(async () => {
  if (skip) return;
  mkdirSync(SHOTS, { recursive: true });
  srv = await startServer((dir) => ({
    DATA_DIR: dir,
    SOLANA_RPC_URL: '',
    CHAIN_PORT: '0',
    DEMO_AGENTS: '4',
    EPOCH_SECONDS: '6',
    OBSERVER_LISTEN: '/ip4/127.0.0.1/tcp/0',
  }));
  // A challenge comes about three epochs after the demo's cheating batch (docs/chain.md).
  await srv.until('batches, a challenge and conversations', 300_000, async () => {
    const [b, c, v] = await Promise.all([
      srv!.getJson<BatchList>('/api/batches?limit=1'),
      srv!.getJson<ChallengeList>('/api/challenges?limit=1'),
      srv!.getJson<ConversationList>('/api/conversations?limit=1'),
    ]);
    return b.body.batches.length > 0 && c.body.challenges.length > 0 && v.body.conversations.length > 0;
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
});

after(async () => {
  await browser?.close();
  await srv?.stop();
});

interface Problems {
  pageWidth: number;
  innerWidth: number;
  problems: string[];
  tables: { id: string; rows: number; width: number; box: number }[];
}

/** Everything wrong with the lists of the page shown, in words. */
function inspect(page: Page, expected: Record<string, string[]>): Promise<Problems> {
  return page.evaluate((expected) => {
    const problems: string[] = [];
    const text = (e: Element) => (e.textContent ?? '').replace(/[↓↑]/g, '').replace(/\s+/g, ' ').trim();
    const shown = (e: Element) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
    };
    /** The nearest box that clips or scrolls `e` sideways (the table itself where it is the scroller). */
    const clipper = (e: Element): Element => {
      for (let p = e.parentElement; p; p = p.parentElement) {
        if (p === document.body) return p;
        if (getComputedStyle(p).overflowX !== 'visible') return p;
      }
      return document.body;
    };
    const tables: Problems['tables'] = [];
    const main = document.querySelector('main')!;
    for (const table of main.querySelectorAll<HTMLTableElement>('table.list, table.feed')) {
      const id = table.getAttribute('data-testid') ?? '(unnamed table)';
      const heads = [...table.querySelectorAll('thead th')];
      const rows = [...table.querySelectorAll<HTMLTableRowElement>('tbody tr')];
      const box = clipper(table);
      tables.push({ id, rows: rows.length, width: table.scrollWidth, box: box.clientWidth });
      if (rows.length === 0) continue;
      const marked = heads.flatMap((h, i) => (h.getAttribute('data-col') === 'priority' ? [i] : []));
      for (const name of expected[id] ?? []) {
        const i = heads.findIndex((h) => text(h) === name);
        if (i < 0) problems.push(`${id}: no column "${name}" (columns: ${heads.map(text).join(' | ')})`);
        else if (!marked.includes(i)) problems.push(`${id}: "${name}" is not marked as a priority column`);
        if (i >= 0 && !marked.includes(i)) marked.push(i);
      }
      // A list (named above, or drawn by the shared table) marks its priority columns; a small fixed
      // table (the reconciliation's four topics) is held to the copy and name checks only.
      if (marked.length === 0 && (id in expected || table.classList.contains('dt')))
        problems.push(`${id}: no priority column`);
      for (const row of rows) {
        // The row's cell at each column index, colspans counted.
        const at: Element[] = [];
        for (const cell of row.cells) for (let k = 0; k < cell.colSpan; k++) at.push(cell);
        for (const i of marked) {
          const cell = at[i];
          const name = heads[i] ? text(heads[i]) || `column ${i + 1}` : `column ${i + 1}`;
          if (!cell || !shown(cell)) {
            problems.push(`${id}: a "${name}" cell is not shown`);
            continue;
          }
          const c = cell.getBoundingClientRect();
          const clip = clipper(cell);
          const b = clip === document.body ? { left: 0, right: window.innerWidth } : clip.getBoundingClientRect();
          if (c.left < b.left - 1 || c.right > b.right + 1 || c.right > window.innerWidth + 1)
            problems.push(
              `${id}: a "${name}" cell (${Math.round(c.left)}–${Math.round(c.right)} px) ` +
                `is clipped by its box (${Math.round(b.left)}–${Math.round(b.right)} px)`,
            );
        }
      }
      // Ids, signatures, addresses and conversation ids drawn in a list come with a copy button.
      for (const e of table.querySelectorAll(
        '[data-testid="tx-link"], [data-testid="account-link"], a.mono[href^="/conversations/"], .agent-short',
      ))
        if (shown(e) && !e.closest('[data-ident]'))
          problems.push(`${id}: "${text(e)}" is shown without its copy button`);
      // A name breaks between its words, never inside one.
      for (const n of table.querySelectorAll('.agent-name')) {
        if (!shown(n)) continue;
        // A hyphenated label (wise-marten) may break at its hyphen, a word boundary too.
        const words = text(n).split(/[\s-]+/).length;
        const lines = new Set([...n.getClientRects()].map((r) => Math.round(r.top))).size;
        if (lines > words) problems.push(`${id}: the name "${text(n)}" is broken over ${lines} lines`);
      }
    }
    for (const e of main.querySelectorAll('[data-ident]'))
      if (shown(e) && !e.querySelector('button.copy-id[data-copy]'))
        problems.push(`a ${e.getAttribute('data-ident')} "${text(e)}" has no copy button`);
    return {
      pageWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      problems: [...new Set(problems)],
      tables,
    };
  }, expected);
}

test('list pages at 1,440 and 390 px, light and dark: priority columns ' +
  'drawn and unclipped, no sideways page, every id with its copy button', {
  skip,
  timeout: 900_000,
}, async () => {
  const found: string[] = [];
  const sizes: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1_440, 390]) {
      const page = await browser!.newPage({ viewport: { width, height: 900 }, colorScheme });
      page.setDefaultTimeout(120_000);
      // tsx names the check's inner functions with a helper the page does not have.
      await page.addInitScript('globalThis.__name = (f) => f;');
      try {
        for (const [path, expected] of Object.entries(PRIORITY)) {
          await page.goto(srv!.base + path, { waitUntil: 'load' });
          await page.waitForTimeout(400); // client components lay out after load
          const r = await inspect(page, expected);
          const where = `${path} at ${width} px (${colorScheme})`;
          if (r.pageWidth > r.innerWidth) found.push(`${where}: the page is ${r.pageWidth} px wide`);
          for (const p of r.problems) found.push(`${where}: ${p}`);
          // A phone shows each row as a card: nothing left to scroll to.
          if (width === 390)
            for (const t of r.tables)
              if (t.rows > 0 && t.width > t.box + 1) found.push(`${where}: ${t.id} is ${t.width} px in ${t.box} px`);
          // The pages with a challenge and batches must have drawn them, or the checks saw nothing.
          for (const id of Object.keys(expected))
            if ((path === '/batches' || path === '/challenges') && !r.tables.some((t) => t.id === id && t.rows > 0))
              found.push(`${where}: no rows in ${id}`);
          if (colorScheme === 'light')
            sizes.push(
              `${path} @${width}: ${r.tables
                .map((t) => `${t.id} ${t.rows} rows, ${t.width} px in ${t.box} px`)
                .join('; ')}`,
            );
          if (path === '/batches' || path === '/challenges')
            await page.screenshot({
              path: join(SHOTS, `${path.slice(1)}-${width}-${colorScheme}.png`),
              fullPage: true,
            });
        }
      } finally {
        await page.close();
      }
    }
  }
  console.log(`table widths:\n${sizes.join('\n')}\nscreenshots in ${SHOTS}`);
  // One line per problem, the same problem once across rows.
  assert.deepEqual([...new Set(found)], []);
});
