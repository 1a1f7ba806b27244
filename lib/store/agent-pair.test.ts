// The graph's busiest agent pairs, read through the weight class instead of an index on the
// message count: the same edges, in the same order, as sorting every pair by messages, after
// shuffled batches and after the migration's backfill of the class.
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { buildEnvelope } from '../protocol/envelope';
import { MsgType } from '../protocol/types';
import { toHex } from '../protocol/hex';
import type { Store } from './index';
import { MIGRATIONS_DIR } from './migrate';
import { testOnEachStore } from './test-helpers';
import type { IngestItem } from './types';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}
const agent = (i: number) => new Uint8Array(32).fill(i);

async function bySort(store: Store, n: number): Promise<string[]> {
  const rows = await store.query<{ agent_a: Uint8Array; agent_b: Uint8Array; messages: number }>(
    'SELECT agent_a, agent_b, messages FROM agent_pair ORDER BY messages DESC, agent_a, agent_b LIMIT $1', [n]);
  return rows.map((r) => `${toHex(r.agent_a).slice(0, 2)}-${toHex(r.agent_b).slice(0, 2)}:${r.messages}`);
}
async function byGraph(store: Store, limit: number): Promise<string[]> {
  const g = await store.conversationGraph({ limit });
  return g.edges.map((e) => `${toHex(e.a).slice(0, 2)}-${toHex(e.b).slice(0, 2)}:${e.messages}`);
}

testOnEachStore('busiest pairs through the weight class equal the pairs sorted by messages', async (store) => {
  const r = rng(3);
  const items: IngestItem[] = [];
  let n = 0n;
  for (let a = 1; a <= 9; a++) {
    for (let b = a + 1; b <= 9; b++) {
      const count = 1 + Math.floor(r() ** 2 * 90);
      const conv = new Uint8Array(16).fill(a * 16 + b);
      for (let i = 0; i < count; i++) {
        n++;
        const [from, to] = i % 2 ? [agent(b), agent(a)] : [agent(a), agent(b)];
        const e = buildEnvelope({ msgType: MsgType.COUNTER, sender: from, recipient: to, timestamp: 1_790_000_000_000_000n + n, nonce: n, conversationId: conv, payload: new Uint8Array([1]) }, new Uint8Array(32).fill(from[0]));
        items.push({ id: e.id, envelope: e.envelope, raw: e.bytes, source: 'stream', receivedAt: new Date() });
      }
    }
  }
  for (let i = items.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [items[i], items[j]] = [items[j], items[i]]; }
  for (let i = 0; i < items.length;) { const k = 1 + Math.floor(r() * 300); await store.ingestEnvelopes(items.slice(i, i + k)); i += k; }

  const weights = await store.query<{ messages: number; weight: number }>('SELECT messages, weight FROM agent_pair');
  assert.equal(weights.length, 36);
  for (const w of weights) assert.equal(w.weight, Math.floor(4 * Math.log2(w.messages)), `weight of ${w.messages} messages`);
  // limit × 4 edges: 4, 12, 20 and all 36 (the threshold falls inside a class, on its edge, or nowhere).
  for (const limit of [1, 3, 5, 9, 20]) assert.deepEqual(await byGraph(store, limit), await bySort(store, limit * 4), `limit ${limit}`);

  const name = (await readdir(MIGRATIONS_DIR)).find((d) => d.endsWith('_agent_pair_weight'));
  assert.ok(name, 'the agent_pair weight migration');
  const backfill = (await readFile(`${MIGRATIONS_DIR}/${name}/migration.sql`, 'utf8')).split(';').map((s) => s.replace(/--.*$/gm, '').trim()).find((s) => s.startsWith('UPDATE'))!;
  await store.query('UPDATE agent_pair SET weight = 0');
  await store.query(backfill);
  for (const limit of [1, 3, 5]) assert.deepEqual(await byGraph(store, limit), await bySort(store, limit * 4), `limit ${limit} after the backfill`);
}, { dbPrefix: 'agent_pair' });
