// JSON-RPC framing and robustness of the embedded chain (-32601 / -32700 / -32602,
// batches, hostile bodies never crash the server), over real HTTP and WebSocket.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { WebSocket } from 'ws';
import { type EmbeddedChain, startEmbeddedChain } from './index';

let chain: EmbeddedChain;

async function post(body: string): Promise<{ status: number; json: unknown }> {
  const res = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

before(async () => {
  chain = await startEmbeddedChain({ port: 0, slotMs: 0, wsCompanion: false });
});
after(async () => {
  await chain.close();
});

describe('JSON-RPC framing', () => {
  test('parse error, invalid request, unknown method, invalid params', async () => {
    assert.deepEqual((await post('{"jsonrpc":"2.0",')).json, {
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error' },
      id: null,
    });
    assert.deepEqual((await post('{"id":1,"method":"getSlot"}')).json, {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request' },
      id: 1,
    });
    assert.deepEqual((await post('{"jsonrpc":"2.0","id":2,"method":"nope"}')).json, {
      jsonrpc: '2.0',
      error: { code: -32601, message: 'Method not found' },
      id: 2,
    });
    const bad = (await post('{"jsonrpc":"2.0","id":3,"method":"getBalance","params":["not-an-address"]}')).json as {
      error: { code: number };
    };
    assert.equal(bad.error.code, -32602);
    const bad2 = (await post('{"jsonrpc":"2.0","id":4,"method":"getBalance","params":{"a":1}}')).json as {
      error: { code: number };
    };
    assert.equal(bad2.error.code, -32602);
    assert.deepEqual((await post('[]')).json, {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid request' },
      id: null,
    });
  });

  test('batch: answers in order, notifications get no answer', async () => {
    const r = await post(
      JSON.stringify([
        { jsonrpc: '2.0', id: 'a', method: 'getSlot' },
        { jsonrpc: '2.0', method: 'getSlot' },
        { jsonrpc: '2.0', id: 'b', method: 'missing' },
        { jsonrpc: '2.0', id: 'c', method: 'getHealth' },
      ]),
    );
    assert.deepEqual(r.json, [
      { jsonrpc: '2.0', result: 0, id: 'a' },
      { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 'b' },
      { jsonrpc: '2.0', result: 'ok', id: 'c' },
    ]);
    assert.equal((await post('{"jsonrpc":"2.0","method":"getSlot"}')).status, 204);
  });

  test('context shape and slot ticks', async () => {
    chain.tick();
    const r = (await post('{"jsonrpc":"2.0","id":1,"method":"getLatestBlockhash"}')).json as {
      result: { context: { slot: number; apiVersion: string }; value: { lastValidBlockHeight: number } };
    };
    assert.deepEqual(r.result.context, { apiVersion: '2.2.0', slot: 1 });
    assert.equal(r.result.value.lastValidBlockHeight, 151);
  });

  test('hostile bodies and params never crash the server nor yield internal errors', async () => {
    const methods = [
      'getAccountInfo',
      'getMultipleAccounts',
      'getBalance',
      'getProgramAccounts',
      'getTokenAccountBalance',
      'getTokenAccountsByOwner',
      'getSignaturesForAddress',
      'getTransaction',
      'sendTransaction',
      'simulateTransaction',
      'getSignatureStatuses',
      'requestAirdrop',
      'getFeeForMessage',
      'isBlockhashValid',
      'getMinimumBalanceForRentExemption',
      'getEpochInfo',
      'getVersion',
    ];
    const fixed = [
      '',
      'null',
      '1',
      '"x"',
      '{}',
      '[1,2',
      '\u0000\u0001',
      '{"jsonrpc":"2.0","id":{},"method":"getSlot"}',
      '[[],[]]',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: ['AAAA', { encoding: 'base64' }] }),
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: ['1'.repeat(5000)] }),
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'getProgramAccounts',
        params: ['11111111111111111111111111111111', { filters: [{ memcmp: { offset: -1, bytes: 'x' } }] }],
      }),
    ];
    const bodies = fc.sample(
      fc.oneof(
        fc.string(),
        fc
          .record({
            jsonrpc: fc.constant('2.0'),
            id: fc.integer(),
            method: fc.constantFrom(...methods),
            params: fc.array(fc.jsonValue(), { maxLength: 3 }),
          })
          .map((x) => JSON.stringify(x)),
        fc
          .record({
            jsonrpc: fc.constant('2.0'),
            id: fc.integer(),
            method: fc.constantFrom(...methods),
            params: fc.jsonValue(),
          })
          .map((x) => JSON.stringify(x)),
      ),
      { numRuns: 300, seed: 42 },
    );
    for (const body of [...fixed, ...bodies]) {
      const r = await post(body);
      assert.ok(r.status === 200 || r.status === 204, `status ${r.status} for ${body.slice(0, 80)}`);
      const answers = Array.isArray(r.json) ? r.json : [r.json];
      for (const a of answers) {
        if (a === null) continue;
        const err = (a as { error?: { code: number } }).error;
        assert.notEqual(err?.code, -32603, `internal error for ${body.slice(0, 120)}`);
      }
    }
    assert.equal((await post('{"jsonrpc":"2.0","id":9,"method":"getHealth"}')).json !== null, true);
  });

  test('oversized body is refused with 413', async () => {
    const res = await fetch(chain.rpcUrl, { method: 'POST', body: 'x'.repeat(5 * 1024 * 1024) }).catch(() => null);
    assert.ok(res === null || res.status === 413);
    assert.deepEqual((await post('{"jsonrpc":"2.0","id":1,"method":"getHealth"}')).json, {
      jsonrpc: '2.0',
      result: 'ok',
      id: 1,
    });
  });

  test('WebSocket: parse error, unknown method, invalid subscription id, slotSubscribe', async () => {
    const ws = new WebSocket(chain.wsUrl);
    await new Promise((r, j) => (ws.once('open', r), ws.once('error', j)));
    const replies: unknown[] = [];
    ws.on('message', (d) => replies.push(JSON.parse(String(d))));
    const wait = async (n: number) => {
      for (let i = 0; i < 100 && replies.length < n; i++) await new Promise((r) => setTimeout(r, 10));
    };
    ws.send('{oops');
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot' }));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'accountUnsubscribe', params: [12345] }));
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'slotSubscribe' }));
    await wait(4);
    assert.deepEqual(replies[0], { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null });
    assert.deepEqual(replies[1], { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 1 });
    assert.deepEqual(replies[2], {
      jsonrpc: '2.0',
      error: { code: -32602, message: 'Invalid subscription id.' },
      id: 2,
    });
    const subId = (replies[3] as { result: number }).result;
    assert.equal(typeof subId, 'number');
    const slot = chain.ledger.slot;
    chain.tick();
    await wait(5);
    assert.deepEqual(replies[4], {
      jsonrpc: '2.0',
      method: 'slotNotification',
      params: { result: { parent: slot, root: slot + 1, slot: slot + 1 }, subscription: subId },
    });
    ws.send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'slotUnsubscribe', params: [subId] }));
    await wait(6);
    assert.deepEqual(replies[5], { jsonrpc: '2.0', result: true, id: 4 });
    ws.close();
  });
});
