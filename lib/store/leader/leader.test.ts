/**
 * Leadership (leader.ts) on a real Postgres: one leader per role, a standby that takes over when
 * the leader stops, is terminated, or goes silent behind a frozen connection, and never two
 * leaders' work at once. The process-level hand-over (SIGKILL) is server/leadership.test.ts.
 */
import assert from 'node:assert/strict';
import { createServer, Socket } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { createTestDatabase, skipWithoutPostgres, testPostgresUrl } from '../testing';
import { LEADER_LOCK_CLASS, LEADER_ROLES, type Leadership, lead, leadRole } from './leader';

/** Work that records when it ran and fails the test if two leaders' work overlaps. */
function tracker() {
  let running = 0;
  let overlap = 0;
  const events: { who: string; what: 'start' | 'stop'; at: number }[] = [];
  return {
    events,
    get overlap() {
      return overlap;
    },
    start(who: string) {
      return () => {
        running++;
        if (running > 1) overlap++;
        events.push({ who, what: 'start', at: Date.now() });
        return {
          async stop() {
            running--;
            events.push({ who, what: 'stop', at: Date.now() });
          },
        };
      };
    },
  };
}

async function until(cond: () => boolean, ms: number): Promise<number> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`not within ${ms} ms`);
    await sleep(25);
  }
  return Date.now() - t0;
}

test('without a URL (PGlite) the process leads at once', async () => {
  const w = tracker();
  const l = await leadRole({ role: 'releases', start: w.start('only') });
  assert.equal(l.leading, true);
  assert.equal(l.status().terms, 1);
  await l.stop();
  assert.deepEqual(
    w.events.map((e) => e.what),
    ['start', 'stop'],
  );
});

test('one leader per role; the standby takes over when the leader stops or its session is terminated', {
  skip: skipWithoutPostgres(),
}, async (t) => {
  const db = await createTestDatabase(testPostgresUrl()!, 'zx_leader');
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  const all: Leadership[] = [];
  try {
    const w = tracker();
    const a = lead({ role: 'alerts', url: db.url, start: w.start('a') });
    all.push(a);
    await a.whenLeading();
    const b = lead({ role: 'alerts', url: db.url, start: w.start('b') });
    all.push(b);
    // Another role is another lock: it leads beside `a`.
    const other = lead({ role: 'indexer', url: db.url, start: () => ({ stop: async () => {} }) });
    all.push(other);
    await other.whenLeading();
    await sleep(2_500);
    assert.equal(b.leading, false, 'the standby waits while the leader holds the lock');
    const [held] = (
      await admin.query(
        `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' ` +
          `AND classid = $1 AND objid = $2 AND objsubid = 2 AND granted`,
        [LEADER_LOCK_CLASS, LEADER_ROLES.alerts],
      )
    ).rows;
    assert.equal(held.n, 1);

    await a.stop();
    const afterStop = await until(() => b.leading, 5_000);
    t.diagnostic(`hand-over after the leader stopped: ${afterStop} ms`);

    // An operator (or a failover) ends the leader's session: its work stops, the other leads.
    const a2 = lead({ role: 'alerts', url: db.url, start: w.start('a2') });
    all.push(a2);
    await sleep(1_500);
    assert.equal(a2.leading, false);
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`, [
      'zerox1 leader alerts',
    ]);
    // Both sessions were ended: the leader notices and stops, then one of the two leads again, and only one.
    const t0 = Date.now();
    await until(() => !b.leading, 5_000);
    await until(() => a2.leading || b.leading, 5_000);
    const afterKill = Date.now() - t0;
    t.diagnostic(`a leader again ${afterKill} ms after its session was terminated`);
    await sleep(1_500);
    assert.equal(Number(a2.leading) + Number(b.leading), 1);
    assert.equal(w.overlap, 0, 'two leaders never ran at once');
  } finally {
    for (const l of all) await l.stop();
    await admin.end();
    await db.drop();
  }
});

test('leadRole on Postgres returns with the work running when the lock is free, and as a standby when it is not', {
  skip: skipWithoutPostgres(),
}, async () => {
  const db = await createTestDatabase(testPostgresUrl()!, 'zx_leader');
  const w = tracker();
  const a = await leadRole({ role: 'indexer', url: db.url, start: w.start('a') });
  const b = await leadRole({ role: 'indexer', url: db.url, start: w.start('b') });
  try {
    assert.equal(a.leading, true, 'alone on the database: leading on return');
    assert.equal(b.leading, false, 'the second waits');
    assert.deepEqual(
      w.events.map((e) => `${e.who} ${e.what}`),
      ['a start'],
    );
  } finally {
    await a.stop();
    await b.stop();
    await db.drop();
  }
});

/** A TCP relay to Postgres that can go silent in both directions (a half-open connection). */
async function relay(target: URL) {
  const sockets: Socket[] = [];
  let frozen = false;
  const server = createServer((s) => {
    const up = new Socket();
    up.connect(Number(target.port || 5432), target.hostname);
    sockets.push(s, up);
    s.on('data', (d) => void (frozen || up.write(d)));
    up.on('data', (d) => void (frozen || s.write(d)));
    s.on('error', () => up.destroy());
    up.on('error', () => s.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    freeze() {
      frozen = true;
    },
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

test('a leader whose connection goes silent stops its work before Postgres lets the standby in', {
  skip: skipWithoutPostgres(),
}, async (t) => {
  const db = await createTestDatabase(testPostgresUrl()!, 'zx_leader');
  const url = new URL(db.url);
  const r = await relay(url);
  const viaRelay = new URL(db.url);
  viaRelay.hostname = '127.0.0.1';
  viaRelay.port = String(r.port);
  const w = tracker();
  const a = lead({ role: 'releases', url: viaRelay.toString(), start: w.start('a') });
  let b: Leadership | undefined;
  try {
    await a.whenLeading();
    b = lead({ role: 'releases', url: db.url, start: w.start('b') });
    await sleep(1_500);
    assert.equal(b.leading, false);
    const frozenAt = Date.now();
    r.freeze();
    await until(() => b!.leading, 10_000);
    const aStop = w.events.find((e) => e.who === 'a' && e.what === 'stop');
    const bStart = w.events.find((e) => e.who === 'b' && e.what === 'start');
    assert.ok(aStop && bStart);
    t.diagnostic(
      `silent leader stopped its work after ${aStop.at - frozenAt}` +
        ` ms; the standby led after ${bStart.at - frozenAt} ms`,
    );
    assert.ok(aStop.at <= bStart.at, 'the silent leader stopped before the standby started');
    assert.ok(bStart.at - frozenAt < 10_000, 'hand-over within 10 s');
    assert.equal(w.overlap, 0);
  } finally {
    await a.stop();
    await b?.stop();
    r.close();
    await db.drop();
  }
});
