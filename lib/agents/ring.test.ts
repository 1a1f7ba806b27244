// The demo's feedback ring: which agents form it, the FEEDBACK one round sends, and a real agent
// sending those rounds on its own while its idle member never trades.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { publicKeyFromSeed } from '../protocol/crypto';
import { toHex } from '../protocol/hex';
import { decodeFeedback } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import { DemoAgent } from './agent';
import { demoRing } from './demo-mesh';
import { ringFeedback } from './scenario';
import type { AgentConfig, AgentToParent } from './types';

const A = 'aa'.repeat(32),
  B = 'bb'.repeat(32),
  C = 'cc'.repeat(32);

test('one ring round rates every other member highly, in the given conversation, with no deal behind it', () => {
  const conv = new Uint8Array(16).fill(9);
  const out = ringFeedback(conv, A, [A, B, C], 97);
  assert.equal(out.length, 2);
  assert.deepEqual(
    out.map((o) => [o.msgType, o.to]),
    [
      [MsgType.FEEDBACK, { kind: 'topic', topic: 'reputation' }],
      [MsgType.FEEDBACK, { kind: 'topic', topic: 'reputation' }],
    ],
  );
  const decoded = out.map((o) => {
    const f = decodeFeedback(o.payload);
    assert.ok(f.ok);
    return [
      toHex(f.value.targetAgent),
      toHex(f.value.conversationId),
      f.value.score,
      f.value.outcome,
      f.value.role,
      f.value.isDispute,
    ];
  });
  assert.deepEqual(decoded, [
    [B, toHex(conv), 97, 2, 0, false],
    [C, toHex(conv), 97, 2, 0, false],
  ]);
  assert.ok(out.every((o) => toHex(o.conversationId) === toHex(conv)));
  assert.throws(() => ringFeedback(new Uint8Array(15), A, [A, B], 90), RangeError);
});

test('the default ring: three agents besides the watcher, the cheater and the misbehaving one, the last idle', () => {
  assert.deepEqual(demoRing(8, 7), { members: [4, 5, 6], idle: [6], everyMs: 6_000 });
  assert.deepEqual(demoRing(6, 5), { members: [2, 3, 4], idle: [4], everyMs: 6_000 });
  // The small demos the tests start have no ring.
  assert.deepEqual(demoRing(4, 3), { members: [] });
  assert.deepEqual(demoRing(3, -1), { members: [] });
});

test('an idle ring member sends its ring feedback every round and never trades', { timeout: 60_000 }, async () => {
  const seed = new Uint8Array(32).fill(7);
  const self = toHex(new Uint8Array(32).fill(0x5a));
  const cfg: AgentConfig = {
    index: 0,
    seedHex: toHex(seed),
    agentIdHex: self,
    strategy: 'linear',
    bootstrap: [],
    directory: { [self]: toHex(publicKeyFromSeed(seed)), [B]: toHex(publicKeyFromSeed(seed)) },
    misbehave: false,
    autopilot: true,
    rngSeed: 1,
    verdictPassRate: 1,
    uploadVia: 'ipc',
    uploadIntervalMs: 60_000,
    tickMs: 100,
    nonceStart: String(BigInt(Date.now()) * 1000n),
    ring: { members: [self, B, C], everyMs: 150 },
    idle: true,
  };
  const reports: AgentToParent[] = [];
  const agent = new DemoAgent(cfg, { emit: (m) => reports.push(m), upload: async () => true });
  try {
    await agent.start();
    agent.setPeers({ [B]: [] });
    await agent.registered();
    const feedback = () =>
      reports.filter(
        (m): m is Extract<AgentToParent, { t: 'sent' }> => m.t === 'sent' && m.msgType === MsgType.FEEDBACK,
      );
    const until = Date.now() + 20_000;
    while (feedback().length < 6 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const sent = feedback();
    assert.ok(sent.length >= 6, `ring feedback sent: ${sent.length}`);
    assert.ok(sent.every((m) => m.via === 'gossip' && m.to === 'reputation'));
    // Two members rated per round, each round in a conversation of its own.
    const rounds = new Map<string, number>();
    for (const m of sent) rounds.set(m.conversationIdHex, (rounds.get(m.conversationIdHex) ?? 0) + 1);
    assert.ok(
      [...rounds.values()].slice(0, -1).every((n) => n === 2),
      `feedback per round: ${[...rounds.values()].join(', ')}`,
    );
    assert.ok(rounds.size >= 3);
    assert.deepEqual(
      reports.filter((m) => m.t === 'deal'),
      [],
      'an idle member opens no deal',
    );
  } finally {
    await agent.stop();
  }
});
