/**
 * A reader's walk in Debian Chromium against the real app (`npm start`'s launcher, the demo mesh of
 * four agents and its local chain on 6-second epochs, so batches and a challenge exist), with
 * PUBLIC_RPC_URL set as a deployment would.
 *
 * Every page at 1,440 and 390 px in the light and the dark theme, in a browser whose zone is
 * Europe/Berlin:
 * - layout: every cell of a priority column is drawn and not clipped by the box that scrolls it,
 *   the page never scrolls sideways, an agent's name breaks between its words only, and every id,
 *   signature, root and address shown has its copy button;
 * - reading: every time shown names the viewer's zone (CET), none is a bare UTC clock, every epoch
 *   shown has its clock span on the page, every slot its block's time (or says it is unknown), no
 *   agent is linked by a raw id where its name exists, and no link points at a loopback address.
 * Screenshots of /batches, /challenges, an agent, a conversation and /owner in $TABLE_SHOTS
 * (default $TMPDIR/zerox1-tables). Then the header's switch shows UTC, kept across pages.
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
/** The chain's public JSON-RPC URL as a deployment names it: links must name it, never loopback. */
const PUBLIC_RPC = 'https://rpc.observatory.example';
/** The walk's browser zone: an hour from UTC, so a time left in UTC shows. */
const ZONE = 'Europe/Berlin';
const ZONE_NAMES = /\b(CET|CEST|GMT\+1|GMT\+2)\b/;
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
    PUBLIC_RPC_URL: PUBLIC_RPC,
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

test("every page at 1,440 and 390 px, light and dark, in the viewer's zone: priority columns drawn and " +
  'unclipped, no sideways page, every id with its copy button; times named, epochs and slots with clock ' +
  'times, agents by name, no loopback links', {
  skip,
  timeout: 900_000,
}, async () => {
  const found: string[] = [];
  const sizes: string[] = [];
  const walk: [string, Record<string, string[]>][] = [
    ...Object.entries(PRIORITY),
    ...(await otherPages()).map((p): [string, Record<string, string[]>] => [p, {}]),
  ];
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1_440, 390]) {
      const context = await browser!.newContext({ viewport: { width, height: 900 }, colorScheme, timezoneId: ZONE });
      const page = await context.newPage();
      page.setDefaultTimeout(120_000);
      // tsx names the check's inner functions with a helper the page does not have.
      await page.addInitScript('globalThis.__name = (f) => f;');
      try {
        for (const [path, expected] of walk) {
          await page.goto(srv!.base + path, { waitUntil: 'load' });
          // Times switch from the server's UTC to the viewer's zone once the page has hydrated (slow
          // on a busy machine); client components lay out after that.
          await page
            .waitForFunction(
              (zone) =>
                [...document.querySelectorAll('main time')].every((t) => new RegExp(zone).test(t.textContent ?? '')),
              ZONE_NAMES.source,
              { timeout: 30_000 },
            )
            .catch(() => {});
          await page.waitForTimeout(300);
          const r = await inspect(page, expected);
          const where = `${path} at ${width} px (${colorScheme})`;
          for (const p of await inspectReading(page, ZONE_NAMES.source)) found.push(`${where}: ${p}`);
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
          const shot = /^\/(batches|challenges|owner)$|^\/(agents|conversations)\/[^/]+$/.exec(path);
          if (shot)
            await page.screenshot({
              path: join(SHOTS, `${shot[1] ?? shot[2]}-${width}-${colorScheme}.png`),
              fullPage: true,
            });
        }
      } finally {
        await context.close();
      }
    }
  }
  console.log(`table widths:\n${sizes.join('\n')}\nscreenshots in ${SHOTS}`);
  // One line per problem, the same problem once across rows.
  assert.deepEqual([...new Set(found)], []);
});

/** The pages besides the lists, with ids of what the demo made: details, charts, forms, help. */
async function otherPages(): Promise<string[]> {
  const [agents, conv, batches, challenges] = await Promise.all([
    srv!.getJson<{ agents: { id: string }[] }>('/api/agents?limit=1'),
    srv!.getJson<ConversationList>('/api/conversations?limit=1'),
    srv!.getJson<BatchList>('/api/batches?limit=1'),
    srv!.getJson<ChallengeList>('/api/challenges?limit=1'),
  ]);
  const b = batches.body.batches[0];
  return [
    '/',
    '/stats',
    '/mesh',
    `/agents/${agents.body.agents[0].id}`,
    `/conversations/${conv.body.conversations[0].id}`,
    `/batches/${b.agentAddress}/${b.epoch}`,
    `/reconciliation/${b.agentAddress}/${b.epoch}`,
    '/datasets',
    '/alerts',
    '/owner',
    '/glossary',
    `/search?q=${encodeURIComponent(challenges.body.challenges[0].agent.slice(0, 6))}`,
  ];
}

/** Everything wrong with the clock, names and links of the page shown, in words. */
function inspectReading(page: Page, zone: string): Promise<string[]> {
  return page.evaluate((zoneSource) => {
    const zoneRe = new RegExp(zoneSource);
    const problems: string[] = [];
    const main = document.querySelector('main')!;
    const text = (e: Node) => (e.textContent ?? '').replace(/\s+/g, ' ').trim();
    const shown = (e: Element) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
    };
    for (const t of main.querySelectorAll('time'))
      if (shown(t) && !zoneRe.test(text(t))) problems.push(`a time without the viewer's zone: "${text(t)}"`);
    const epochsShown = new Set([...main.querySelectorAll('.epoch-time')].map((e) => e.getAttribute('data-epoch')));
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || !shown(el) || el.closest('script, style, time, .epoch-time, pre, code, textarea, [hidden]')) continue;
      const s = n.textContent ?? '';
      const clock = /\b\d{1,2}:\d{2}(:\d{2})?(\.\d+)?\s*UTC\b/.exec(s);
      if (clock) problems.push(`a clock in UTC, not the viewer's zone: "${s.trim().slice(0, 80)}"`);
      const iso = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.exec(s);
      if (iso) problems.push(`a raw ISO time: "${s.trim().slice(0, 80)}"`);
      for (const m of s.matchAll(/\bepochs?\s+([\d,]{1,24})\b/gi)) {
        const e = m[1].replace(/,/g, '');
        if (/^\d+$/.test(e) && !epochsShown.has(e))
          problems.push(`epoch ${e} without its clock time: "${s.trim().slice(0, 80)}"`);
      }
    }
    // A column of epochs: each cell its clock span.
    for (const table of main.querySelectorAll('table')) {
      const heads = [...table.querySelectorAll('thead th')].map((h) => text(h).replace(/[↓↑]/g, '').trim());
      heads.forEach((h, i) => {
        if (!/^(batch )?epoch$/i.test(h)) return;
        for (const row of table.querySelectorAll('tbody tr')) {
          const cell = (row as HTMLTableRowElement).cells[i];
          if (cell && shown(cell) && text(cell) && !cell.querySelector('.epoch-time'))
            problems.push(`an "${h}" cell without its clock time: "${text(cell)}"`);
        }
      });
    }
    // A fact list's slot (the glossary's lists define words, not values).
    for (const dt of main.querySelectorAll('dl.kv > dt')) {
      if (text(dt) !== 'Slot') continue;
      const dd = dt.nextElementSibling;
      if (dd && !dd.querySelector('time') && !/clock time unknown/.test(text(dd)))
        problems.push(`a slot without its clock time: "${text(dd)}"`);
    }
    // An agent is named, not shown by its raw id alone.
    for (const a of main.querySelectorAll<HTMLAnchorElement>('a[href^="/agents/"]')) {
      if (!shown(a) || a.querySelector('.agent-name')) continue;
      const t = text(a);
      if (
        /^[1-9A-HJ-NP-Za-km-z0-9]{4,}…[1-9A-HJ-NP-Za-km-z0-9]{2,}$|^[0-9a-f]{16,}$|^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(
          t,
        )
      )
        problems.push(`an agent linked by its raw id "${t}" where its name exists`);
    }
    for (const a of document.querySelectorAll<HTMLAnchorElement>('a[href]')) {
      const h = a.getAttribute('href') ?? '';
      if (/\/\/(127\.|localhost|\[::1\])|%2F%2F(127\.|localhost)|customUrl=http%3A%2F%2F(127|localhost)/i.test(h))
        problems.push(`a link to a loopback address: ${h.slice(0, 120)}`);
    }
    return [...new Set(problems)];
  }, zone);
}

test("the header's switch shows every time in UTC, kept across pages, and back", {
  skip,
  timeout: 300_000,
}, async () => {
  const context = await browser!.newContext({ viewport: { width: 1_440, height: 900 }, timezoneId: ZONE });
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  try {
    // The header's switch: every time in UTC, kept across pages, and back. The switch names the
    // choice once hydrated (data-choice), so each step waits for the page to have taken it.
    const toggle = page.getByTestId('zone-toggle');
    await page.goto(`${srv!.base}/batches`, { waitUntil: 'load' });
    await page.locator('[data-testid=zone-toggle][data-choice=local]').waitFor({ timeout: 60_000 });
    await toggle.click();
    await page.goto(`${srv!.base}/conversations`, { waitUntil: 'load' });
    await page.locator('[data-testid=zone-toggle][data-choice=utc]').waitFor({ timeout: 60_000 });
    const times = await page.locator('main time').allTextContents();
    assert.ok(times.length > 0, 'the conversations list shows times');
    for (const t of times) assert.match(t, /UTC/, `after the switch: ${t}`);
    await toggle.click();
    await page.locator('[data-testid=zone-toggle][data-choice=local]').waitFor();
    assert.match((await page.locator('main time').first().textContent()) ?? '', ZONE_NAMES);
  } finally {
    await context.close();
  }
});
