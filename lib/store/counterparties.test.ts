// An agent's counterparties on a real store (PGlite): the other side of its negotiation
// envelopes, a deal once the conversation reached ACCEPT; a notary bidding on the conversation
// is not a counterparty.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildEnvelope } from '../protocol/envelope';
import { encodeNotarizeBid } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import { openStore } from './index';

test('counterparties with conversations and deals', async () => {
  const store = await openStore({ dataDir: ':memory:' });
  try {
    const A = new Uint8Array(32).fill(1), B = new Uint8Array(32).fill(2), C = new Uint8Array(32).fill(3), N = new Uint8Array(32).fill(4);
    const c1 = new Uint8Array(16).fill(1), c2 = new Uint8Array(16).fill(2);
    let n = 0n;
    const env = (msgType: number, from: Uint8Array, to: Uint8Array, conv: Uint8Array, payload: Uint8Array = new Uint8Array([1])) => {
      n++;
      const b = buildEnvelope({ msgType, sender: from, recipient: to, timestamp: 1_790_000_000_000_000n + n, nonce: n, conversationId: conv, payload }, new Uint8Array(32).fill(from[0]));
      return { id: b.id, envelope: b.envelope, raw: b.bytes, source: 'stream' as const, receivedAt: new Date() };
    };
    await store.ingestEnvelopes([
      env(MsgType.PROPOSE, A, B, c1), env(MsgType.COUNTER, B, A, c1), env(MsgType.ACCEPT, A, B, c1),
      env(MsgType.NOTARIZE_BID, N, new Uint8Array(32), c1, encodeNotarizeBid({ bidType: 1, conversationId: c1, terms: new Uint8Array(0) })),
      env(MsgType.PROPOSE, C, A, c2), env(MsgType.REJECT, A, C, c2),
    ]);
    const rows = await store.counterpartiesOf(A);
    assert.deepEqual(rows.map((r) => [r.agent[0], r.conversations, r.deals]), [[2, 1, 1], [3, 1, 0]]);
    assert.deepEqual((await store.counterpartiesOf(N)), []);
  } finally {
    await store.close();
  }
});
