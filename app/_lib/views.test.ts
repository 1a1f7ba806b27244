/** The view builders' output matches lib/wire's view schemas exactly (nothing stripped). */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { z } from 'zod';
import { buildEnvelope } from '../../lib/protocol/envelope';
import { encodeNeg1 } from '../../lib/protocol/neg1';
import { emptyReputation } from '../../lib/protocol/reputation';
import { MsgType } from '../../lib/protocol/types';
import type { StoredEnvelope } from '../../lib/store';
import { AgentViewSchema, ConversationViewSchema, EnvelopeViewSchema, GraphViewSchema } from '../../lib/wire';
import { agentView, conversationView, envelopeView, graphView } from './views';

const A = new Uint8Array(32).fill(0xaa);
const B = new Uint8Array(32).fill(0xbb);
const conv = new Uint8Array(16).fill(9);
const t0 = new Date(1_700_000_000_000);

function stored(msgType: number, payload: Uint8Array, seq: bigint): StoredEnvelope {
  const b = buildEnvelope(
    { msgType, sender: A, recipient: B, timestamp: 1_700_000_000_000_123n, nonce: seq, conversationId: conv, payload },
    new Uint8Array(32).fill(3),
  );
  return { id: b.id, seq, envelope: b.envelope, raw: b.bytes, source: 'stream', topic: null, receivedAt: t0, epoch: 0 };
}

const same = <S extends z.ZodType>(schema: S, v: unknown) => assert.deepEqual(schema.parse(v), v);

test('envelope, agent, graph and conversation views validate', () => {
  const neg1 = encodeNeg1({
    bidValue: -(2n ** 100n),
    tokenMint: new Uint8Array(32),
    serviceHash: new Uint8Array(32).fill(1),
    round: 2,
    deadline: 0n,
    decayBps: 0,
    maxRounds: 5,
    verification: { tier: 0, testSuiteHash: new Uint8Array(0) },
    reason: 0,
    metadata: new Uint8Array(0),
  });
  const p = stored(MsgType.PROPOSE, neg1, 1n);
  const e = envelopeView(p);
  same(EnvelopeViewSchema, e);
  assert.equal(e.type, 'PROPOSE');
  assert.equal(e.timestampMs, 1_700_000_000_000);
  const agent = { id: A, firstSeen: t0, lastSeen: t0, label: null, online: true, sent: 2 };
  same(AgentViewSchema, agentView(agent, { ...emptyReputation(), reliabilityScore: -5n }));
  same(GraphViewSchema, graphView({ nodes: [agent], edges: [{ a: A, b: B, messages: 3 }] }));
  const c = conversationView({
    id: conv,
    participants: [A, B],
    firstSeen: t0,
    lastSeen: t0,
    state: 'negotiating',
    messageCount: 2,
    lastType: MsgType.BEACON,
    outcome: null,
    envelopes: [p, stored(MsgType.BEACON, new Uint8Array(0), 2n)],
    feedback: [
      {
        envelopeId: p.id,
        conversationId: conv,
        fromAgent: A,
        targetAgent: B,
        score: -100,
        outcome: 0,
        isDispute: true,
        role: 0,
        timestamp: 0n,
      },
    ],
    notaryBids: [
      {
        envelopeId: p.id,
        conversationId: conv,
        bidder: A,
        recipient: B,
        bidType: 1,
        terms: new Uint8Array(0),
        timestamp: 0n,
      },
    ],
  });
  same(ConversationViewSchema, c);
  assert.deepEqual(
    c.pricePath.map((s) => [s.kind, s.round, s.bidValue]),
    [['neg1', 2, (-(2n ** 100n)).toString()]],
  );
});
