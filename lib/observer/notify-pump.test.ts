/**
 * The NOTIFY pump between two "processes" (two pumps with their own origins and store
 * connections) on one real Postgres: events arrive in order at the other one, chunked under the
 * payload cap, never echoed back to the sender; on PGlite nothing is sent.
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openStore } from '../store';
import { createTestDatabase, skipWithoutPostgres, testPostgresUrl } from '../store/testing';
import { createNotifyPump, NOTIFY_MAX } from './notify-pump';
import type { LiveEvent } from './types';

// Payload shape does not matter to the pump: it forwards JSON text.
const ev = (i: number, pad = 0): LiveEvent =>
  ({ type: 'message', at: i, data: { i, pad: 'x'.repeat(pad) } }) as unknown as LiveEvent;

test('PGlite: nothing is sent (no other process can LISTEN)', async () => {
  const store = await openStore({ dataDir: ':memory:' });
  const got: LiveEvent[] = [];
  const a = createNotifyPump({ store, origin: 'a', onError: (e) => assert.fail(String(e)) });
  const b = createNotifyPump({ store, origin: 'b', onError: (e) => assert.fail(String(e)) });
  const off = await b.listen((events) => got.push(...events));
  a.send([ev(1)]);
  await a.idle();
  await new Promise((r) => setTimeout(r, 100));
  await off();
  await store.close();
  assert.deepEqual(got, []);
});

const url = testPostgresUrl();
describe('two pumps on one Postgres', { skip: skipWithoutPostgres() }, () => {
  test('events reach the other origin in order, chunked, and are not echoed', async () => {
    const db = await createTestDatabase(url!, 'zx_notify');
    const s1 = await openStore({ databaseUrl: db.url });
    const s2 = await openStore({ databaseUrl: db.url });
    const errors: unknown[] = [];
    const a = createNotifyPump({ store: s1, origin: 'origin-a', onError: (e) => errors.push(e) });
    const b = createNotifyPump({ store: s2, origin: 'origin-b', onError: (e) => errors.push(e) });
    const atA: LiveEvent[] = [];
    const atB: LiveEvent[] = [];
    const rawAtB: string[] = [];
    const offA = await a.listen((events) => atA.push(...events));
    const offB = await b.listen((events) => atB.push(...events));
    const offRaw = await s2.listen('zerox1_live', (p) => rawAtB.push(p));
    try {
      // 40 events of ~1 kB: several payloads, each under the cap; one event over the cap is skipped.
      const sent = Array.from({ length: 40 }, (_, i) => ev(i, 1_000));
      a.send([...sent.slice(0, 20), ev(999, NOTIFY_MAX + 10), ...sent.slice(20)]);
      await a.idle();
      for (let i = 0; i < 150 && atB.length < 40; i++) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(atB, sent);
      assert.ok(rawAtB.length >= 6, `${rawAtB.length} payloads`);
      for (const p of rawAtB) assert.ok(p.length <= NOTIFY_MAX + 200, `payload of ${p.length} bytes`);
      assert.deepEqual(atA, [], 'a process never republishes its own events');
      b.send([ev(5)]);
      await b.idle();
      for (let i = 0; i < 150 && atA.length < 1; i++) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(atA, [ev(5)]);
      assert.deepEqual(errors, []);
    } finally {
      await offRaw();
      await offA();
      await offB();
      await s1.close();
      await s2.close();
      await db.drop();
    }
  });
});
