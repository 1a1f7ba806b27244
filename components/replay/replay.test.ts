import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ReplayEvent } from '../../lib/wire/replay';
import { ReplayEventSchema } from '../../lib/wire/replay';
import { isBroadcast } from '../format';
import { applyEvent } from '../live-state';
import { pairKey } from '../pair';
import { applyReplayBatch, emptyReplayState } from './apply';
import { eventMs, type ReplayFetch, ReplayPlayer } from './player';
import { liveSearch, parseReplayLink, replaySearch } from './url';

const T0 = 1_800_000_000_000; // ms
const hex = (n: number, bytes: number) => n.toString(16).padStart(bytes * 2, '0');
const AGENTS = Array.from({ length: 6 }, (_, i) => hex(i + 1, 32));

/** n envelopes, several sharing a timestamp, 1 to 300 ms apart, in (timestamp, id) order. */
function window(n: number): ReplayEvent[] {
  const out: ReplayEvent[] = [];
  let ts = T0 * 1000;
  for (let i = 0; i < n; i++) {
    if (i % 3 !== 1) ts += 1000 * (1 + ((i * 37) % 300));
    const data = {
      id: hex(i, 32),
      msgType: 1 + (i % 5),
      type: 'x',
      sender: AGENTS[i % 6],
      recipient: i % 7 === 0 ? hex(0, 32) : AGENTS[(i * 5 + 1) % 6],
      conversationId: hex(i % 4, 16),
      nonce: String(i),
      timestamp: String(ts),
      blockRef: '0',
      payloadLen: 0,
      source: 'gossip' as const,
      topic: null,
      receivedAt: Math.floor(ts / 1000) + 20,
    };
    out.push(ReplayEventSchema.parse({ type: 'message', at: data.receivedAt, data }));
  }
  return out;
}

/**
 * A server over `all`: keyset pages after a `<ts>:<id>` cursor; records calls; answers when `release` is called (or at
 * once).
 */
function server(all: ReplayEvent[], opts: { manual?: boolean } = {}) {
  const pending: (() => void)[] = [];
  const calls: (string | null)[] = [];
  const fetchPage: ReplayFetch = (after, limit) => {
    calls.push(after);
    const start = after === null ? 0 : all.findIndex((e) => `${e.data.timestamp}:${e.data.id}` === after) + 1;
    const events = all.slice(start, start + limit);
    const last = events.at(-1);
    const page = { events, next: events.length === limit && last ? `${last.data.timestamp}:${last.data.id}` : null };
    return new Promise((resolve) => (opts.manual ? pending.push(() => resolve(page)) : resolve(page)));
  };
  return { fetchPage, calls, release: () => pending.shift()?.(), pending };
}

const flush = () => new Promise((r) => setImmediate(r));
const ids = (es: readonly ReplayEvent[]) => es.map((e) => e.data.id);

describe('replay player', () => {
  test(
    'at 100× it hands out every envelope in order, each ' + 'once its time is reached, within the buffer cap',
    async () => {
      const all = window(400);
      const span = eventMs(all.at(-1)!) - T0;
      const srv = server(all);
      let now = 0;
      const p = new ReplayPlayer({
        fromMs: T0,
        toMs: T0 + span + 1,
        fetchPage: srv.fetchPage,
        pageSize: 25,
        maxPages: 3,
        speed: 100,
        now,
      });
      const got: ReplayEvent[] = [];
      for (let frame = 0; frame < 10_000 && !p.ended; frame++) {
        await flush();
        now += 16;
        const out = p.tick(now);
        for (const e of out) assert.ok(eventMs(e) <= p.position, 'not handed out before its time');
        got.push(...out);
        assert.ok(p.buffered <= p.cap, `buffered ${p.buffered} > cap ${p.cap}`);
      }
      assert.deepEqual(ids(got), ids(all));
      assert.ok(p.peakBuffered <= 75);
      assert.equal(p.status, 'ended');
      // 100×: the window's span in envelope time took about span/100 of wall time (plus the stalls before pages came).
      assert.ok(now <= span / 100 + 16 * 40 + p.stalledMs, `${now} ms of wall time for ${span} ms at 100×`);
      // Keyset paging: each request continues after the last envelope of the one before.
      assert.equal(srv.calls[0], null);
      assert.equal(new Set(srv.calls).size, srv.calls.length);
    },
  );

  test(
    'the clock holds while the next page is on its way ' + '(nothing skipped), and never holds more than maxPages',
    async () => {
      const all = window(60);
      const srv = server(all, { manual: true });
      let now = 0;
      const p = new ReplayPlayer({
        fromMs: T0,
        toMs: eventMs(all.at(-1)!),
        fetchPage: srv.fetchPage,
        pageSize: 10,
        maxPages: 2,
        speed: 100,
        now,
      });
      assert.equal(srv.pending.length, 1, 'one page in flight at start');
      assert.deepEqual(p.tick((now += 1000)), []);
      assert.equal(p.position, T0, 'the clock did not move without data');
      assert.equal(p.status, 'buffering');
      srv.release();
      await flush();
      assert.equal(srv.pending.length, 1, 'the second page asked for');
      srv.release();
      await flush();
      assert.equal(srv.pending.length, 0, 'no third page while two are held');
      assert.equal(p.buffered, 20);
      const got = p.tick((now += 100_000));
      assert.ok(got.length >= 1);
      assert.deepEqual(ids(got), ids(all.slice(0, got.length)));
    },
  );

  test('pause stops the clock; step hands out exactly one envelope; one second moves the clock 1,000 ms', async () => {
    const all = window(50);
    const srv = server(all);
    let now = 0;
    const p = new ReplayPlayer({
      fromMs: T0,
      toMs: eventMs(all.at(-1)!),
      fetchPage: srv.fetchPage,
      pageSize: 10,
      speed: 10,
      now,
    });
    await flush();
    const first = p.tick((now += 2_000));
    assert.ok(first.length > 0);
    p.pause();
    const at = p.position;
    assert.deepEqual(p.tick((now += 60_000)), [], 'paused: nothing');
    assert.equal(p.position, at);
    assert.equal(p.status, 'paused');
    p.stepEnvelope();
    await flush(); // the step may wait for the next page
    const one = p.tick((now += 16));
    assert.deepEqual(ids(one), [all[first.length].data.id]);
    assert.deepEqual(p.tick((now += 16)), [], 'still paused after the step');
    p.stepEnvelope();
    p.stepEnvelope();
    await flush();
    assert.deepEqual(
      ids(p.tick((now += 16))),
      ids(all.slice(first.length + 1, first.length + 3)),
      'two steps, two envelopes',
    );
    const before = p.position;
    p.stepSecond();
    await flush();
    const sec = p.tick((now += 16));
    assert.equal(p.position, before + 1000);
    for (const e of sec) assert.ok(eventMs(e) <= before + 1000);
    const handed = first.length + 3 + sec.length;
    assert.deepEqual(ids(sec), ids(all.slice(first.length + 3, handed)));
    if (handed < all.length)
      assert.ok(eventMs(all[handed]) > before + 1000, 'every envelope of that second, none after');
    p.play(now);
    const rest: ReplayEvent[] = [];
    for (let i = 0; i < 1000 && !p.ended; i++) {
      await flush();
      rest.push(...p.tick((now += 1000)));
    }
    assert.deepEqual(
      ids([...first, ...one, ...all.slice(first.length + 1, first.length + 3), ...sec, ...rest]),
      ids(all),
    );
  });

  test('a start position hands out everything before it at once, then plays on from there', async () => {
    const all = window(120);
    const srv = server(all);
    const atMs = eventMs(all[80]);
    let now = 0;
    const p = new ReplayPlayer({
      fromMs: T0,
      toMs: eventMs(all.at(-1)!),
      atMs,
      fetchPage: srv.fetchPage,
      pageSize: 16,
      maxPages: 2,
      now,
    });
    p.pause();
    const got: ReplayEvent[] = [];
    for (let i = 0; i < 50; i++) {
      await flush();
      got.push(...p.tick((now += 16)));
      assert.ok(p.buffered <= p.cap);
    }
    assert.deepEqual(ids(got), ids(all.filter((e) => eventMs(e) <= atMs)));
    assert.equal(p.position, atMs);
  });

  test('a failed fetch stops with its error', async () => {
    const p = new ReplayPlayer({
      fromMs: T0,
      toMs: T0 + 10,
      fetchPage: () => Promise.reject(new Error('503 database unreachable')),
      now: 0,
    });
    await flush();
    p.tick(16);
    assert.equal(p.status, 'error');
    assert.equal(p.error, '503 database unreachable');
  });
});

describe('replayed batches into the overview state', () => {
  test('a batch gives the same state as applyEvent one event at a time', () => {
    const all = window(300);
    const start = emptyReplayState({ mesh: null, database: null });
    let oneByOne = start;
    for (const e of all) oneByOne = applyEvent(oneByOne, e);
    let batched = start;
    let last: ReplayEvent[] = [];
    for (let i = 0; i < all.length; i += 37) batched = applyReplayBatch(batched, (last = all.slice(i, i + 37)));
    // Pulses differ by design: a batch carries only the pairs it pulsed, set to its sequence.
    assert.deepEqual({ ...batched, pulses: {} }, { ...oneByOne, pulses: {} });
    const lastPairs = new Set(
      last
        .filter((e) => e.data.recipient !== e.data.sender && !isBroadcast(e.data.recipient))
        .map((e) => pairKey(e.data.sender, e.data.recipient)),
    );
    assert.ok(lastPairs.size > 0);
    assert.deepEqual(batched.pulses, Object.fromEntries([...lastPairs].map((k) => [k, 300])));
    assert.equal(batched.liveCount, 300);
    assert.equal(
      Object.values(batched.stats.byType).reduce((a, b) => a + b, 0),
      300,
    );
    assert.equal(applyReplayBatch(batched, []), batched);
  });

  test('an older state applied again (a seek back) gives the same state as applyEvent', () => {
    // Branches from one state share its index maps; here both append agent Z and the X–Z link,
    // at different places, so the first branch's next batch finds a map the second rewrote.
    const base = window(60);
    const [X, Y, Z, W] = AGENTS;
    let n = 1000;
    const ev = (sender: string, recipient: string) => ({
      ...base[n % 60],
      data: { ...base[n % 60].data, id: hex(n++, 32), sender, recipient },
    });
    const start = emptyReplayState({ mesh: null, database: null });
    const first = [ev(X, Y)],
      branchA = [ev(X, Z)],
      branchB = [ev(X, W), ev(X, Z)],
      after = [ev(X, Z), ev(Z, Y)];
    const mid = applyReplayBatch(start, first);
    const a = applyReplayBatch(mid, branchA);
    const b = applyReplayBatch(mid, branchB);
    const a2 = applyReplayBatch(a, after);
    const b2 = applyReplayBatch(b, after);
    const oneByOne = (evs: ReplayEvent[]) => evs.reduce(applyEvent, start);
    assert.deepEqual({ ...a2, pulses: {} }, { ...oneByOne([...first, ...branchA, ...after]), pulses: {} });
    assert.deepEqual({ ...b2, pulses: {} }, { ...oneByOne([...first, ...branchB, ...after]), pulses: {} });
    assert.equal(a2.graph.links.length, 3);
  });
});

describe('replay links', () => {
  test('round trip, with the UTC form in the link', () => {
    const l = {
      fromMs: Date.UTC(2026, 10, 27, 5, 30),
      toMs: Date.UTC(2026, 10, 27, 5, 40),
      atMs: Date.UTC(2026, 10, 27, 5, 33, 12, 500),
      speed: 10 as const,
    };
    const q = replaySearch(l, 'type=PROPOSE');
    assert.equal(
      q,
      'type=PROPOSE&replay=2026-11-27T05:30:00Z..2026-11-27T05:40:00Z&at=2026-11-27T05:33:12.500Z&speed=10',
    );
    const p = new URLSearchParams(q);
    assert.deepEqual(parseReplayLink({ replay: p.get('replay')!, at: p.get('at')!, speed: p.get('speed')! }), l);
    assert.equal(liveSearch(q), 'type=PROPOSE');
    assert.deepEqual(parseReplayLink({ replay: `${l.fromMs}..${l.toMs}` }), {
      fromMs: l.fromMs,
      toMs: l.toMs,
      atMs: l.fromMs,
      speed: 1,
    });
  });

  test('bad links say what is wrong', () => {
    assert.equal(parseReplayLink({}), null);
    assert.match((parseReplayLink({ replay: 'yesterday' }) as { error: string }).error, /FROM\.\.TO/);
    assert.match(
      (parseReplayLink({ replay: '2026-11-27T05:40:00..2026-11-27T05:50:00' }) as { error: string }).error,
      /UTC/,
      "no zone: refused, not read in the viewer's zone",
    );
    assert.match((parseReplayLink({ replay: '2000..1000' }) as { error: string }).error, /after/);
    assert.match((parseReplayLink({ replay: '1000..2000', at: 'x' }) as { error: string }).error, /^at/);
    assert.equal((parseReplayLink({ replay: '1000..2000', speed: '7' }) as { speed: number }).speed, 1);
  });
});
