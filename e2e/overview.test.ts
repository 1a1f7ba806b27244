/**
 * End to end on the real local stack (Playwright opens the overview, sees a new envelope arrive
 * without reload, finds the graph's agents and links, and focuses, hovers and opens one): `npm start`'s own launcher
 * (scripts/start.mjs: builds the app when needed, then server/main.ts) on an ephemeral port with
 * embedded PGlite in a temp dir and DEMO_AGENTS=3, driven by Debian Chromium via playwright-core.
 */
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { base58 } from '../components/format';
import { CHROMIUM, CHROMIUM_ARGS, chromiumSkip as skip, startServer, type RunningServer } from './harness';

const SCREENSHOT = join(tmpdir(), 'zerox1-overview.png');

let srv: RunningServer | undefined;
let base = '';
let browser: Browser | undefined;
const until: RunningServer['until'] = (what, ms, probe) => srv!.until(what, ms, probe);
const getJson = <T,>(path: string) => srv!.getJson<T>(path);

interface Health {
  ok: boolean;
  database: { ok: boolean; kind: string };
  mesh: { peerId: string; peers: number; multiaddrs: string[] };
  counts: { envelopes: number; agents: number; drops: number; conversations: number };
}

describe('overview in Chromium against the real server', { skip, timeout: 300_000 }, () => {
  before(async () => {
    srv = await startServer((dir) => ({
      DATA_DIR: join(dir, 'pglite'),
      DEMO_AGENTS: '3',
      OBSERVER_LISTEN: '/ip4/127.0.0.1/tcp/0 /ip4/127.0.0.1/tcp/0/ws',
    }));
    base = srv.base;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await srv?.stop();
  });

  test('GET /api/health reports the database, mesh peers and counts once the demo mesh runs', async () => {
    const h = await until('3 mesh peers and stored envelopes', 90_000, async () => {
      const { body } = await getJson<Health>('/api/health');
      return body.mesh.peers >= 3 && body.counts.envelopes > 0 && body.counts.agents >= 3 ? body : undefined;
    });
    assert.equal(h.ok, true);
    assert.deepEqual(h.database, { ok: true, kind: 'pglite' });
    assert.match(h.mesh.peerId, /^12D3KooW/);
    assert.ok(h.mesh.multiaddrs.every((a) => a.startsWith('/ip4/127.0.0.1/')), `observer listens on loopback only: ${h.mesh.multiaddrs.join(' ')}`);
    assert.ok(h.counts.agents >= 3);
  });

  test('API checks its input: 400 naming the parameter, 400 for a non-array upload', async () => {
    const bad = await getJson<{ error: string }>('/api/envelopes?limit=abc');
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /"limit"/);
    const unknown = await getJson<{ error: string }>('/api/envelopes?colour=red');
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error, /"colour"/);
    const badAgent = await getJson<{ error: string }>('/api/envelopes?agent=xyz');
    assert.equal(badAgent.status, 400);
    assert.match(badAgent.body.error, /"agent"/);
    const upload = await fetch(`${base}/api/ingest/envelopes`, { method: 'POST', headers: { 'content-type': 'application/cbor' }, body: new Uint8Array([0xa0]) });
    assert.equal(upload.status, 400);
    assert.match(((await upload.json()) as { error: string }).error, /not a CBOR array/);
    // A path that does not percent-decode is bad input too: 400, not Next's 500.
    for (const path of ['/agents/%ff%fe', '/conversations/%ff', '/api/agents/%ff%fe']) {
      const r = await getJson<{ error: string }>(path);
      assert.equal(r.status, 400, path);
      assert.match(r.body.error, /percent-encoding/);
    }
    // Agents beacon every few seconds: wait for one to be stored, then filter by type.
    const typed = await until('a stored BEACON', 30_000, async () => {
      const r = await getJson<{ envelopes: { type: string }[] }>('/api/envelopes?type=BEACON&limit=5');
      assert.equal(r.status, 200);
      return r.body.envelopes.length > 0 ? r : undefined;
    });
    assert.ok(typed.body.envelopes.every((e) => e.type === 'BEACON'));
  });

  test('the overview shows a new envelope arriving without reload, and the agent graph', async () => {
    const page: Page = await browser!.newPage({ viewport: { width: 1400, height: 1100 } });
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    try {
      const res = await page.goto(base + '/', { waitUntil: 'domcontentloaded' });
      assert.equal(res?.status(), 200);
      await page.waitForSelector('[data-testid="stream-status"][data-status="live"]', { timeout: 30_000 });
      // A marker that a reload would wipe.
      await page.evaluate(() => ((window as unknown as { __noReload: number }).__noReload = 42));
      const rowIds = () => page.$$eval('[data-testid="envelope-feed"] tbody tr[data-envelope-id]', (trs) => trs.map((tr) => tr.getAttribute('data-envelope-id')!));
      const beforeIds = await rowIds();
      const beforeCount = beforeIds.length;

      const fresh = await until('a new envelope row in the feed', 60_000, async () => {
        const ids = await rowIds();
        const added = ids.filter((id) => !beforeIds.includes(id));
        return added.length > 0 ? { ids, added } : undefined;
      });
      assert.equal(await page.evaluate(() => (window as unknown as { __noReload?: number }).__noReload), 42, 'the page was not reloaded');
      assert.ok(fresh.ids.length >= beforeCount, `rows before ${beforeCount}, after ${fresh.ids.length}`);
      if (beforeCount < 30) assert.ok(fresh.ids.length > beforeCount, 'a feed that was not full grew');
      assert.equal(fresh.ids[0], fresh.added[0], 'the newest envelope is on top');
      const liveCount = Number((await page.textContent('[data-testid="live-count"]'))!.replace(/,/g, ''));
      assert.ok(liveCount >= 1, `live counter ${liveCount}`);
      // The new row is a stored envelope: the API knows it with the same sender.
      const row = page.locator(`tr[data-envelope-id="${fresh.added[0]}"]`);
      const typeText = (await row.locator('td').first().textContent())!.trim();
      const stored = await until('the new envelope in /api/envelopes', 10_000, async () => {
        const { body } = await getJson<{ envelopes: { id: string; type: string; sender: string }[] }>('/api/envelopes?limit=200');
        return body.envelopes.find((e) => e.id === fresh.added[0]);
      });
      assert.equal(stored.type, typeText);

      // The graph: a canvas, with one entry per agent in its accessible list, carrying the id.
      const agents = (await getJson<{ agents: { id: string }[] }>('/api/agents')).body.agents.map((a) => a.id);
      const listed = await until('graph entries for every agent', 20_000, async () => {
        const ids = await page.$$eval('ul[data-testid="graph-agents"] a[data-agent]', (as) => as.map((a) => a.getAttribute('data-agent')!));
        return agents.every((a) => ids.includes(a)) ? ids : undefined;
      });
      assert.ok(listed.length >= 3, `${listed.length} agent nodes`);
      assert.ok(listed.every((id) => /^[0-9a-f]{64}$/.test(id)));
      assert.equal(new Set(listed).size, listed.length, 'one node per agent');
      assert.equal(await page.getAttribute('ul[data-testid="graph-agents"]', 'role'), 'list');
      assert.equal(await page.textContent(`ul[data-testid="graph-agents"] a[data-agent="${agents[0]}"]`), base58(agents[0]), 'the list names agents in base58');
      // Conversations between the demo agents become edges: drawn, and counted in the list.
      const edges = await until('graph edges', 30_000, async () => {
        const n = Number(await page.getAttribute('canvas.force-graph', 'data-links'));
        return n > 0 ? n : undefined;
      });
      assert.ok(edges >= 1);
      const degrees = await page.$$eval('ul[data-testid="graph-agents"] a[data-links]', (as) => as.map((a) => Number(a.getAttribute('data-links'))));
      assert.ok(degrees.reduce((a, b) => a + b, 0) >= 2 * edges, `link ends ${degrees.join(',')} for ${edges} links`);

      await page.waitForTimeout(1500); // let the force layout settle for the picture
      await page.screenshot({ path: SCREENSHOT, fullPage: true });

      // Search-to-focus: a base58 prefix centres the agent; hovering the centre names it; a click
      // there opens its page. A miss says so.
      const target = agents[1];
      await page.fill('[data-testid="graph-find"]', 'no-such-agent');
      await page.press('[data-testid="graph-find"]', 'Enter');
      assert.match((await page.textContent('[data-testid="graph-focus"]'))!, /No agent matches/);
      await page.fill('[data-testid="graph-find"]', base58(target).slice(0, 10));
      await page.press('[data-testid="graph-find"]', 'Enter');
      await page.waitForSelector(`[data-testid="graph-focus"][data-agent="${target}"]`);
      await page.waitForTimeout(1000); // the zoom transition onto the agent
      const box = (await page.locator('canvas.force-graph').boundingBox())!;
      await page.mouse.move(box.x + box.width / 2 - 3, box.y + box.height / 2);
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      const tip = await until('the tooltip of the focused agent', 10_000, async () => {
        const el = await page.$('[data-testid="graph-tooltip"]');
        return el && (await el.getAttribute('data-agent')) === target ? el : undefined;
      });
      assert.match((await tip.textContent())!, new RegExp(base58(target)));
      await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      await page.waitForURL(`${base}/agents/${target}`, { timeout: 60_000, waitUntil: 'commit' });
      await page.waitForSelector('[data-testid="agent-base58"]', { timeout: 30_000 });
      assert.equal(await page.textContent('[data-testid="agent-base58"]'), base58(target));
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test('agents list, agent page and conversation page render stored data', async () => {
    const page = await browser!.newPage();
    try {
      const agents = (await getJson<{ agents: { id: string }[] }>('/api/agents')).body.agents;
      await page.goto(base + '/agents');
      const listed = await page.$$eval('tr[data-agent-row]', (trs) => trs.map((t) => t.getAttribute('data-agent-row')));
      for (const a of agents) assert.ok(listed.includes(a.id), `agent ${a.id} listed`);

      const conv = await until('a conversation with an ACCEPT or REJECT', 60_000, async () => {
        const { body } = await getJson<{ conversations: { id: string; messages: number; participants: string[] }[] }>('/api/conversations?limit=50');
        return body.conversations.find((c) => c.messages >= 3);
      });
      // The conversation may still be going on (FEEDBACK, notary messages arrive later): compare
      // the page with the stored detail read right before it, until no message lands in between.
      let detail: { envelopes: { id: string }[]; participants: string[] } = { envelopes: [], participants: [] };
      let rows: (string | null)[] = [];
      for (let attempt = 0; attempt < 10; attempt++) {
        detail = (await getJson<{ envelopes: { id: string }[]; participants: string[] }>(`/api/conversations/${conv.id}`)).body;
        const res = await page.goto(`${base}/conversations/${conv.id}`);
        assert.equal(res?.status(), 200);
        rows = await page.$$eval('[data-testid="conversation-messages"] tbody tr', (trs) => trs.map((t) => t.getAttribute('data-envelope-id')));
        const after = (await getJson<{ envelopes: { id: string }[] }>(`/api/conversations/${conv.id}`)).body;
        if (after.envelopes.length === detail.envelopes.length) break;
      }
      assert.deepEqual(rows, detail.envelopes.map((e) => e.id), 'messages in the stored protocol order');
      await page.screenshot({ path: join(tmpdir(), 'zerox1-conversation.png'), fullPage: true });

      const agentRes = await page.goto(`${base}/agents/${detail.participants[0]}`);
      assert.equal(agentRes?.status(), 200);
      assert.ok((await page.textContent('h1'))!.includes(detail.participants[0]));
      const missing = await page.goto(`${base}/agents/${'0'.repeat(64)}`);
      assert.equal(missing?.status(), 404);
    } finally {
      await page.close();
    }
  });

  test('on a phone (390 px) and a narrow desktop window (1,000 px) no page scrolls sideways', async () => {
    const agent = (await getJson<{ agents: { id: string }[] }>('/api/agents')).body.agents[0].id;
    const conv = (await getJson<{ conversations: { id: string }[] }>('/api/conversations?limit=1')).body.conversations[0].id;
    const paths = ['/', '/agents', `/agents/${agent}`, '/envelopes', '/conversations', `/conversations/${conv}`, '/batches', '/datasets', '/docs/api', '/owner'];
    for (const width of [390, 1_000]) {
      const page = await browser!.newPage({ viewport: { width, height: 800 } });
      try {
        for (const path of paths) {
          await page.goto(base + path, { waitUntil: 'load' });
          // Client components lay out after load; the overview's live events (ids in them) arrive over seconds.
          await page.waitForTimeout(path === '/' ? 5_000 : 500);
          const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
          assert.equal(scroll, inner, `${path} is ${scroll} px wide in a ${inner} px window`);
        }
      } finally {
        await page.close();
      }
    }
  });
});
