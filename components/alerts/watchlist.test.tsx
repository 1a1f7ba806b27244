// The browser's watchlist without a browser: a minimal window (localStorage and events) and the
// observatory's answers as fetch responses. The first watch creates one list however many buttons
// are pressed at once; the stored copy follows what the server accepted; a refusal changes nothing.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import bs58 from 'bs58';

const store = new Map<string, string>();
const listeners = new Map<string, Set<(e: unknown) => void>>();
Object.assign(globalThis, {
  window: {
    localStorage: {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    },
    addEventListener: (t: string, f: (e: unknown) => void) => {
      if (!listeners.has(t)) listeners.set(t, new Set());
      listeners.get(t)!.add(f);
    },
    removeEventListener: (t: string, f: (e: unknown) => void) => void listeners.get(t)?.delete(f),
  },
});

const calls: { method: string; url: string; token: string | null; body: unknown }[] = [];
let refuse: { status: number; error: string } | null = null;
globalThis.fetch = (async (url: string, init: RequestInit = {}) => {
  const h = (init.headers ?? {}) as Record<string, string>;
  calls.push({
    method: init.method ?? 'GET',
    url,
    token: h['x-watchlist-token'] ?? null,
    body: init.body ? JSON.parse(String(init.body)) : null,
  });
  await new Promise((r) => setTimeout(r, 5));
  if (refuse) return new Response(JSON.stringify({ error: refuse.error }), { status: refuse.status });
  if (url === '/api/watchlists')
    return new Response(JSON.stringify({ id: 'L'.repeat(22), token: 'tok' }), { status: 201 });
  return new Response(JSON.stringify({ added: true }), { status: 200 });
}) as typeof fetch;

const { setWatched } = await import('./useWatchlist');
const { getLocal, itemKey, STORAGE_KEY } = await import('./store');

const A = '22'.repeat(32),
  B = '33'.repeat(32);
const A58 = bs58.encode(Buffer.from(A, 'hex')),
  B58 = bs58.encode(Buffer.from(B, 'hex'));

test('two first presses at once make one watchlist; both items are stored and sent with its token', async () => {
  const [ra, rb] = await Promise.all([
    setWatched({ kind: 'agent', target: A58 }, true),
    setWatched({ kind: 'agent', target: B58 }, true),
  ]);
  assert.ok(ra.ok && rb.ok);
  assert.equal(calls.filter((c) => c.url === '/api/watchlists').length, 1);
  const puts = calls.filter((c) => c.method === 'PUT');
  assert.equal(puts.length, 2);
  for (const p of puts) assert.equal(p.token, 'tok');
  const w = getLocal()!;
  assert.equal(w.id, 'L'.repeat(22));
  assert.deepEqual(new Set(w.items), new Set([itemKey('agent', A), itemKey('agent', B)]));
  assert.ok(store.get(STORAGE_KEY)!.includes('"token":"tok"'));
});

test("a refusal changes nothing here and comes back as the server's sentence", async () => {
  refuse = {
    status: 409,
    error: 'this watchlist already watches 200 agents, the most one list may (ALERT_MAX_AGENTS); remove one first',
  };
  const r = await setWatched({ kind: 'conversation', target: 'ab'.repeat(16) }, true);
  assert.deepEqual(r, { ok: false, status: 409, error: refuse.error });
  assert.equal(getLocal()!.items.length, 2);
  refuse = null;
});

test(
  'stop watching: DELETE with kind and target in the ' + 'query; an item the server no longer has is dropped too',
  async () => {
    assert.ok((await setWatched({ kind: 'agent', target: A58 }, false)).ok);
    const del = calls.filter((c) => c.method === 'DELETE');
    assert.equal(del.at(-1)!.url, `/api/watchlists/${'L'.repeat(22)}/items?kind=agent&target=${A58}`);
    assert.deepEqual(getLocal()!.items, [itemKey('agent', B)]);
    refuse = { status: 404, error: 'not watched' };
    assert.ok((await setWatched({ kind: 'agent', target: B58 }, false)).ok);
    refuse = null;
    assert.deepEqual(getLocal()!.items, []);
  },
);
