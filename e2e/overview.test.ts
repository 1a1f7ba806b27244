/**
 * End to end on the real local stack (Playwright opens the overview, sees a new envelope arrive
 * without reload, finds the graph's agents and links, and focuses, hovers and opens one): `npm start`'s own launcher
 * (scripts/start.mjs: builds the app when needed, then server/main.ts) on an ephemeral port with
 * embedded PGlite in a temp dir and DEMO_AGENTS=3, driven by Debian Chromium via playwright-core.
 */

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { type Browser, chromium, type Page } from 'playwright-core';
import { base58 } from '../components/format';
import { agentDisplayName, shortBase58 } from '../components/names/label';
import { STATS_METRIC_NAMES, type StatsSeries, statsColumn } from '../lib/wire/stats';
import { CHROMIUM, CHROMIUM_ARGS, type RunningServer, chromiumSkip as skip, startServer } from './harness';

const SCREENSHOT = join(tmpdir(), 'zerox1-overview.png');

let srv: RunningServer | undefined;
let base = '';
let browser: Browser | undefined;
const until: RunningServer['until'] = (what, ms, probe) => srv!.until(what, ms, probe);
const getJson = <T>(path: string) => srv!.getJson<T>(path);

interface Health {
  ok: boolean;
  database: { ok: boolean; kind: string };
  mesh: { peerId: string; peers: number; multiaddrs: string[] };
  counts: { envelopes: number; agents: number; drops: number; conversations: number };
}

describe('overview in Chromium against the real server', { skip, timeout: 600_000 }, () => {
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
    assert.ok(
      h.mesh.multiaddrs.every((a) => a.startsWith('/ip4/127.0.0.1/')),
      `observer listens on loopback only: ${h.mesh.multiaddrs.join(' ')}`,
    );
    assert.ok(h.counts.agents >= 3);
  });

  test(
    '/metrics is what a Prometheus server scrapes: the text ' +
      'format, GossipSub and the observer per topic, the process',
    async () => {
      const res = await fetch(`${base}/metrics`);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
      const families = parsePrometheusTextFormat(await res.text());
      const names = new Set(families.map((f) => f.name));
      const accepted = families.find((f) => f.name === 'zerox1_envelopes_accepted_total');
      assert.ok(
        accepted?.metrics.some((m) => m.labels?.topic === '/0x01/v1/broadcast' && Number(m.value) > 0),
        "the demo's BEACONs counted on the broadcast topic",
      );
      for (const n of [
        'gossipsub_mesh_peer_count',
        'gossipsub_msg_received_prevalidation_total',
        'zerox1_first_seen_latency_seconds',
        'process_cpu_user_seconds_total',
      ])
        assert.ok(names.has(n), n);
      assert.ok(
        ![...names].some((n) => n.startsWith('libp2p_')),
        "libp2p's own metrics are off unless LIBP2P_METRICS=on",
      );
    },
  );

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
    const upload = await fetch(`${base}/api/ingest/envelopes`, {
      method: 'POST',
      headers: { 'content-type': 'application/cbor' },
      body: new Uint8Array([0xa0]),
    });
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
      const res = await page.goto(`${base}/`, { waitUntil: 'domcontentloaded' });
      assert.equal(res?.status(), 200);
      await page.waitForSelector('[data-testid="stream-status"][data-status="live"]', { timeout: 30_000 });
      // A marker that a reload would wipe.
      await page.evaluate(() => ((window as unknown as { __noReload: number }).__noReload = 42));
      // Each row's id with its type cell, read together: a busy feed may scroll a row away
      // between two reads.
      const rows = () =>
        page.$$eval('[data-testid="envelope-feed"] tbody tr[data-envelope-id]', (trs) =>
          trs.map((tr) => [tr.getAttribute('data-envelope-id')!, (tr.querySelector('td')?.textContent ?? '').trim()]),
        );
      const rowIds = async () => (await rows()).map(([id]) => id);
      const beforeIds = await rowIds();
      const beforeCount = beforeIds.length;

      const fresh = await until('a new envelope row in the feed', 60_000, async () => {
        const seen = await rows();
        const ids = seen.map(([id]) => id);
        const added = ids.filter((id) => !beforeIds.includes(id));
        return added.length > 0 ? { ids, added, typeText: seen.find(([id]) => id === added[0])![1] } : undefined;
      });
      assert.equal(
        await page.evaluate(() => (window as unknown as { __noReload?: number }).__noReload),
        42,
        'the page was not reloaded',
      );
      assert.ok(fresh.ids.length >= beforeCount, `rows before ${beforeCount}, after ${fresh.ids.length}`);
      if (beforeCount < 30) assert.ok(fresh.ids.length > beforeCount, 'a feed that was not full grew');
      assert.equal(fresh.ids[0], fresh.added[0], 'the newest envelope is on top');
      const liveCount = Number((await page.textContent('[data-testid="live-count"]'))!.replace(/,/g, ''));
      assert.ok(liveCount >= 1, `live counter ${liveCount}`);
      // The new row is a stored envelope: the API knows it with the same sender.
      const typeText = fresh.typeText;
      const stored = await until('the new envelope in /api/envelopes', 10_000, async () => {
        const { body } = await getJson<{ envelopes: { id: string; type: string; sender: string }[] }>(
          '/api/envelopes?limit=200',
        );
        return body.envelopes.find((e) => e.id === fresh.added[0]);
      });
      assert.equal(stored.type, typeText);

      // The graph: a canvas, with one entry per agent in its accessible list, carrying the id.
      const agents = (await getJson<{ agents: { id: string }[] }>('/api/agents')).body.agents.map((a) => a.id);
      const listed = await until('graph entries for every agent', 20_000, async () => {
        const ids = await page.$$eval('ul[data-testid="graph-agents"] a[data-agent]', (as) =>
          as.map((a) => a.getAttribute('data-agent')!),
        );
        return agents.every((a) => ids.includes(a)) ? ids : undefined;
      });
      assert.ok(listed.length >= 3, `${listed.length} agent nodes`);
      assert.ok(listed.every((id) => /^[0-9a-f]{64}$/.test(id)));
      assert.equal(new Set(listed).size, listed.length, 'one node per agent');
      assert.equal(await page.getAttribute('ul[data-testid="graph-agents"]', 'role'), 'list');
      const listedName = (await page.textContent(`ul[data-testid="graph-agents"] a[data-agent="${agents[0]}"]`)) ?? '';
      assert.ok(
        listedName.endsWith(` (${shortBase58(agents[0])})`) && !listedName.startsWith(base58(agents[0])),
        `the list names each agent, its base58 id shortened beside: ${listedName}`,
      );
      // Conversations between the demo agents become edges: drawn, and counted in the list.
      const edges = await until('graph edges', 30_000, async () => {
        const n = Number(await page.getAttribute('canvas.force-graph', 'data-links'));
        return n > 0 ? n : undefined;
      });
      assert.ok(edges >= 1);
      const degrees = await page.$$eval('ul[data-testid="graph-agents"] a[data-links]', (as) =>
        as.map((a) => Number(a.getAttribute('data-links'))),
      );
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
    // Two shared cores under load: a page can take longer than playwright's 30 s default.
    page.setDefaultTimeout(120_000);
    try {
      const agents = (await getJson<{ agents: { id: string }[] }>('/api/agents')).body.agents;
      await page.goto(`${base}/agents`);
      const listed = await page.$$eval('tr[data-agent-row]', (trs) => trs.map((t) => t.getAttribute('data-agent-row')));
      for (const a of agents) assert.ok(listed.includes(a.id), `agent ${a.id} listed`);

      const conv = await until('a conversation with an ACCEPT or REJECT', 60_000, async () => {
        const { body } = await getJson<{ conversations: { id: string; messages: number; participants: string[] }[] }>(
          '/api/conversations?limit=50',
        );
        return body.conversations.find((c) => c.messages >= 3);
      });
      // The conversation may still be going on (FEEDBACK, notary messages arrive later): compare
      // the page with the stored detail read right before it, until no message lands in between.
      let detail: { envelopes: { id: string }[]; participants: string[] } = { envelopes: [], participants: [] };
      let rows: (string | null)[] = [];
      for (let attempt = 0; attempt < 10; attempt++) {
        detail = (
          await getJson<{ envelopes: { id: string }[]; participants: string[] }>(`/api/conversations/${conv.id}`)
        ).body;
        const res = await page.goto(`${base}/conversations/${conv.id}`);
        assert.equal(res?.status(), 200);
        rows = await page.$$eval('[data-testid="conversation-messages"] tbody tr', (trs) =>
          trs.map((t) => t.getAttribute('data-envelope-id')),
        );
        const after = (await getJson<{ envelopes: { id: string }[] }>(`/api/conversations/${conv.id}`)).body;
        if (after.envelopes.length === detail.envelopes.length) break;
      }
      assert.deepEqual(
        rows,
        detail.envelopes.map((e) => e.id),
        'messages in the stored protocol order',
      );
      await page.screenshot({ path: join(tmpdir(), 'zerox1-conversation.png'), fullPage: true });

      const agentRes = await page.goto(`${base}/agents/${detail.participants[0]}`);
      assert.equal(agentRes?.status(), 200);
      // The heading names the agent (its SATI name once discovery has read it, else its id); the
      // identity card always shows the id.
      // Pages read names through a cache of a few seconds, so a name discovery has just stored may
      // show on the next render: reload until the heading and the stored name agree.
      let h1 = '';
      let named: string | null = null;
      for (let i = 0; i < 10; i++) {
        h1 = ((await page.textContent('h1')) ?? '').trim();
        named = (await getJson<{ agent: { name: string | null } }>(`/api/agents/${detail.participants[0]}`)).body.agent
          .name;
        if (h1 === agentDisplayName(detail.participants[0], named)) break;
        await page.waitForTimeout(1000);
        await page.reload();
      }
      assert.equal(
        h1,
        agentDisplayName(detail.participants[0], named),
        `agent heading ${JSON.stringify(h1)}, stored name ${JSON.stringify(named)}`,
      );
      assert.equal(
        (await page.textContent('[data-testid="agent-base58"]'))?.trim(),
        base58(detail.participants[0]),
        'the agent page shows the agent id',
      );
      const missing = await page.goto(`${base}/agents/${'0'.repeat(64)}`);
      assert.equal(missing?.status(), 404);
    } finally {
      await page.close();
    }
  });

  test(
    'the feed pauses and counts what arrives meanwhile; ' + 'its filters live in the URL; the counters keep running',
    async () => {
      const page = await browser!.newPage({ viewport: { width: 1440, height: 1100 } });
      page.setDefaultTimeout(120_000);
      try {
        await page.goto(`${base}/`, { waitUntil: 'domcontentloaded' });
        await page.waitForSelector('[data-testid="stream-status"][data-status="live"]', { timeout: 60_000 });
        const rowIds = () =>
          page.$$eval('[data-testid="envelope-feed"] tbody tr[data-envelope-id]', (trs) =>
            trs.map((tr) => tr.getAttribute('data-envelope-id')!),
          );
        await until('rows in the feed', 30_000, async () => ((await rowIds()).length > 0 ? true : undefined));
        await page.getByTestId('feed-pause').click();
        const frozen = await rowIds();
        const live0 = Number((await page.textContent('[data-testid="live-count"]'))!.replace(/,/g, ''));
        const liveNow = async () => Number((await page.textContent('[data-testid="live-count"]'))!.replace(/,/g, ''));
        const n = await until('new envelopes counted while paused', 60_000, async () => {
          const c = Number(await page.getAttribute('[data-testid="feed-new"]', 'data-count'));
          return c >= 2 ? c : undefined;
        });
        assert.match((await page.textContent('[data-testid="feed-new"]'))!, /^[\d,]+ new$/, `count ${n}`);
        // An envelope that arrived between the last render and the click is counted as new at once,
        // so the live counter is waited for rather than read right after the new count.
        const live1 = await until('the live counter keeps running while paused', 60_000, async () => {
          const v = await liveNow();
          return v > live0 ? v : undefined;
        });
        assert.ok(live1 > live0, `the live counter kept running while paused (${live0} → ${live1})`);
        assert.deepEqual(await rowIds(), frozen, 'the paused table does not move');
        // The rate needs its measuring window filled first.
        const rate = await until('the feed rate measured', 30_000, async () => {
          const t = (await page.textContent('[data-testid="feed-rate"]')) ?? '';
          return /^(≥ )?\d+\.\d envelopes\/s$/.test(t) ? t : undefined;
        });
        assert.match(rate, /^(≥ )?\d+\.\d envelopes\/s$/);
        await page.getByTestId('feed-pause').click();
        await until('the feed moves again after resume', 30_000, async () =>
          JSON.stringify(await rowIds()) !== JSON.stringify(frozen) ? true : undefined,
        );
        // A type filter: kept in the URL, and every row is of that type.
        await page.getByTestId('feed-type').selectOption('BEACON');
        await page.waitForURL(/[?&]type=BEACON/);
        await until('BEACON rows', 30_000, async () => ((await rowIds()).length > 0 ? true : undefined));
        const types = await page.$$eval('[data-testid="envelope-feed"] tbody tr td:first-child', (tds) =>
          tds.map((td) => td.textContent!.trim()),
        );
        assert.ok(
          types.every((t) => t === 'BEACON'),
          `types ${types.join(',')}`,
        );
        // The URL restores it.
        await page.goto(page.url());
        assert.equal(await page.getByTestId('feed-type').inputValue(), 'BEACON');
      } finally {
        await page.close();
      }
    },
  );

  test('the stats page charts every metric with data from the demo; its CSV downloads read back', async () => {
    const series = async (metric: string) =>
      (await getJson<StatsSeries>(`/api/stats/series?metric=${metric}&range=1h`)).body;
    const total = (s: StatsSeries) =>
      s.series.reduce((t, x) => t + x.values.reduce((u, v) => u + Number(v ?? 0), 0), 0);
    // Deals agree within seconds; a batch needs its 20-second epoch to end and be submitted.
    await until('agreed deals with a price and a submitted batch in the rollups', 120_000, async () => {
      const [neg, vol, b] = await Promise.all([series('negotiations'), series('volume'), series('batches')]);
      return total(neg) > 0 && vol.series.length > 0 && total(b) > 0 ? true : undefined;
    });
    for (const metric of [
      'envelopes',
      'active_agents',
      'negotiations',
      'agreement_rate',
      'volume',
      'median_price',
      'batches',
    ]) {
      assert.ok(total(await series(metric)) > 0, `${metric} has data from the demo`);
    }
    const shots: string[] = [];
    for (const colorScheme of ['dark', 'light'] as const) {
      for (const width of [1_440, 390]) {
        const page = await browser!.newPage({ viewport: { width, height: 900 }, colorScheme, acceptDownloads: true });
        const errors: string[] = [];
        page.on('pageerror', (e) => errors.push(String(e)));
        try {
          const res = await page.goto(`${base}/stats?range=1h`, { waitUntil: 'load' });
          assert.equal(res?.status(), 200);
          for (const metric of STATS_METRIC_NAMES) {
            const card = page.locator(`[data-testid="stats-${metric}"]`);
            assert.equal(await card.getAttribute('data-points'), '60', `${metric}: 60 one-minute points`);
            // The layout that fits this width is the one shown, with a drawn line per series.
            const svg = card.locator(`svg.stats-chart.${width > 560 ? 'wide' : 'narrow'}`);
            assert.ok(await svg.isVisible(), `${metric}: chart visible at ${width} px`);
            const lines = await svg.locator('path.line').evaluateAll((ps) => ps.map((p) => p.getAttribute('d') ?? ''));
            assert.equal(
              lines.length,
              Number(await card.getAttribute('data-series')),
              `${metric}: one line per series`,
            );
            assert.ok(
              lines.length > 0 && lines.every((d) => /^M[\d.]+,[\d.]+/.test(d)),
              `${metric}: lines drawn (${lines.length})`,
            );
          }
          const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
          assert.equal(scroll, inner, `/stats is ${scroll} px wide in a ${inner} px window`);
          const file = join(tmpdir(), `zerox1-stats-${colorScheme}-${width}.png`);
          await page.screenshot({ path: file, fullPage: true });
          shots.push(file);
          if (colorScheme === 'dark' && width === 1_440) {
            // Every CSV link downloads its series: the header names its series, one row per minute.
            for (const metric of STATS_METRIC_NAMES) {
              const [download] = await Promise.all([
                page.waitForEvent('download'),
                page.click(`[data-testid="csv-${metric}"]`),
              ]);
              assert.equal(download.suggestedFilename(), `zerox1-stats-${metric}-1h.csv`);
              const rows = parse(await readFile((await download.path())!, 'utf8'), { columns: true }) as Record<
                string,
                string
              >[];
              const json = await series(metric);
              assert.equal(rows.length, 60, `${metric}: 60 rows`);
              const cols = json.series.map(statsColumn);
              assert.deepEqual(
                Object.keys(rows[0]),
                ['interval_start_utc', 'interval_seconds', ...cols],
                `${metric}: CSV columns`,
              );
              assert.ok(
                rows.every(
                  (r, i) =>
                    i === 0 || Date.parse(r.interval_start_utc) - Date.parse(rows[i - 1].interval_start_utc) === 60_000,
                ),
                `${metric}: consecutive minutes`,
              );
              if (metric === 'negotiations')
                assert.ok(
                  rows.some((r) => Number(r.agreed) > 0),
                  'the CSV holds the agreed deals',
                );
            }
          }
          assert.deepEqual(errors, []);
        } finally {
          await page.close();
        }
      }
    }
    // The overview's strip links here.
    const page = await browser!.newPage({ viewport: { width: 1_440, height: 900 } });
    try {
      await page.goto(`${base}/`, { waitUntil: 'load' });
      const strip = (await page.textContent('[data-testid="stats-strip"]')) ?? '';
      assert.match(strip, /envelopes\/s/);
      assert.match(strip, /agreement rate, last hour/);
      assert.equal(await page.getAttribute('[data-testid="stats-strip"] a', 'href'), '/stats');
    } finally {
      await page.close();
    }
    console.log(`stats screenshots: ${shots.join(' ')}`);
  });

  test(
    'every page at 390 and 1,440 px in the light and the dark theme: ' +
      'no sideways scroll, no raw field names; the toggle is kept',
    async () => {
      const agent = (await getJson<{ agents: { id: string }[] }>('/api/agents')).body.agents[0].id;
      const conv = (
        await getJson<{ conversations: { id: string; messages: number }[] }>('/api/conversations?limit=50')
      ).body.conversations.sort((a, b) => b.messages - a.messages)[0].id;
      const paths = [
        '/',
        '/agents',
        `/agents/${base58(agent)}`,
        '/envelopes',
        '/conversations',
        `/conversations/${conv}`,
        '/batches',
        '/challenges',
        '/disputes',
        '/glossary',
        '/stats',
        '/datasets',
        '/docs/api',
        '/owner',
        '/receipts/verify',
      ];
      // Words a reader should never see: the wire's field names and bare codes.
      const RAW = /statusName|reasonName|agentHex|\boutcome \d|\bstatus \d|prevStatus|isDispute/;
      const shots = process.env.SHOTS_DIR ?? tmpdir();
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const width of [390, 1_440]) {
          const page = await browser!.newPage({ viewport: { width, height: 900 }, colorScheme });
          page.setDefaultTimeout(120_000);
          try {
            for (const path of paths) {
              await page.goto(base + path, { waitUntil: 'load' });
              // Client components lay out after load; the overview's live events (ids in them) arrive over seconds.
              await page.waitForTimeout(path === '/' ? 4_000 : 400);
              const [scroll, inner] = await page.evaluate(() => [
                document.documentElement.scrollWidth,
                window.innerWidth,
              ]);
              assert.equal(scroll, inner, `${path} is ${scroll} px wide in a ${inner} px window (${colorScheme})`);
              const text = await page.locator('body').innerText();
              assert.doesNotMatch(text, RAW, `${path} shows a raw field name`);
              // Tables wider than their card would hide columns behind an inner scrollbar at desktop width.
              if (width === 1_440 && (path === '/conversations' || path === '/agents')) {
                const hidden = await page.$$eval(
                  '.table-wrap',
                  (els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length,
                );
                assert.equal(hidden, 0, `${path} hides columns behind an inner scrollbar at 1,440 px`);
              }
              if (
                width === 1_440 &&
                (path === '/' || path.startsWith('/agents/') || path.startsWith('/conversations/'))
              ) {
                const name = path === '/' ? 'overview' : path.startsWith('/agents/') ? 'agent' : 'conversation';
                await page.screenshot({ path: join(shots, `zerox1-${name}-${colorScheme}.png`), fullPage: true });
              }
            }
            const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
            assert.equal(
              bg === 'rgb(245, 247, 250)',
              colorScheme === 'light',
              `the ${colorScheme} preference gives background ${bg}`,
            );
          } finally {
            await page.close();
          }
        }
      }
      // The toggle overrides the preference and is kept by this browser across a reload.
      const page = await browser!.newPage({ viewport: { width: 1_000, height: 800 }, colorScheme: 'dark' });
      page.setDefaultTimeout(120_000);
      try {
        await page.goto(`${base}/glossary`);
        await page.getByTestId('theme-toggle').click(); // system → light
        assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light');
        await page.reload();
        assert.equal(
          await page.evaluate(() => document.documentElement.dataset.theme),
          'light',
          'the choice survives a reload',
        );
        assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), 'rgb(245, 247, 250)');
      } finally {
        await page.close();
      }
    },
  );

  test("the replay picker reads its fields in the page's clock (the viewer's zone or UTC) and replays", async () => {
    const context = await browser!.newContext({
      viewport: { width: 1_440, height: 1_000 },
      timezoneId: 'Europe/Berlin',
    });
    const page = await context.newPage();
    page.setDefaultTimeout(120_000);
    // What the field says minus the instant it names, read as if the field were UTC: the zone's offset.
    const offsetOfFill = async () => {
      const t = Date.now() - 10 * 60_000;
      await page.getByRole('button', { name: 'fill in the last 10 min' }).click();
      return Date.parse(`${await page.getByTestId('replay-from').inputValue()}Z`) - t;
    };
    const near = (ms: number, want: number) => Math.abs(ms - want) < 60_000;
    try {
      await page.goto(`${base}/`);
      await page.locator('[data-testid=zone-toggle][data-choice=local]').waitFor({ timeout: 60_000 });
      const berlin = await offsetOfFill();
      assert.ok(near(berlin, 3_600_000) || near(berlin, 7_200_000), `Berlin is 1 or 2 h ahead of UTC: ${berlin} ms`);
      await page.getByTestId('zone-toggle').click();
      await page.reload();
      await page.locator('[data-testid=zone-toggle][data-choice=utc]').waitFor({ timeout: 60_000 });
      const utc = await offsetOfFill();
      assert.ok(near(utc, 0), `after the switch the fields are UTC: ${utc} ms`);
      await page.getByTestId('replay-start').click();
      await page.locator('[data-testid=replay-bar][data-mode=replay]').waitFor({ timeout: 60_000 });
      assert.match((await page.getByTestId('replay-clock').textContent()) ?? '', /UTC/);
    } finally {
      await context.close();
    }
  });
});
