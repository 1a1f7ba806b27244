// Unbacked feedback on a real store: of the FEEDBACK about an agent, the share sent by identities
// with no stake and no deal with it. A staked sender and a sender with an ACCEPTed deal are backed;
// a stake of zero, a deal with someone else, or a PROPOSE the target never accepted (though the
// sender's own FEEDBACK calls the conversation agreed) back nothing; the
// fold without the unbacked senders (lib/protocol/reputation-backing.ts) gives back the score the
// backed feedback alone makes, so twenty hostile FEEDBACK from a fresh identity show as what they are.
import assert from 'node:assert/strict';
import { buildEnvelope } from '../../protocol/envelope';
import { toHex } from '../../protocol/hex';
import { encodeFeedback } from '../../protocol/payloads';
import { applyFeedback, emptyReputation } from '../../protocol/reputation';
import { backingSummary, unbackedPercent } from '../../protocol/reputation-backing';
import { MsgType } from '../../protocol/types';
import { testOnEachStore } from '../backends-testing';
import type { IngestItem } from '../types';

const T = 1_790_000_000_000_000n;
const id = (b: number) => new Uint8Array(32).fill(b);
const conv = (n: number) => {
  const c = new Uint8Array(16);
  c[0] = 0xfb;
  c[15] = n;
  return c;
};
const [TARGET, OTHER, STAKED, DEALT, BROKE, ELSEWHERE, TALKER, FRESH] = [
  0x10, 0x11, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26,
].map(id);

let nonce = 0n;
let at = 0n;
function env(
  msgType: number,
  from: Uint8Array,
  to: Uint8Array,
  c: Uint8Array,
  payload: Uint8Array = new Uint8Array([1]),
): IngestItem {
  nonce++;
  at += 1_000_000n;
  const b = buildEnvelope(
    { msgType, sender: from, recipient: to, timestamp: T + at, nonce, conversationId: c, payload },
    new Uint8Array(32).fill(from[0]),
  );
  return { id: b.id, envelope: b.envelope, raw: b.bytes, source: 'stream', receivedAt: new Date() };
}
const feedback = (from: Uint8Array, target: Uint8Array, score: number, c: number) =>
  env(
    MsgType.FEEDBACK,
    from,
    new Uint8Array(32),
    conv(c),
    encodeFeedback({ conversationId: conv(c), targetAgent: target, score, outcome: 2, isDispute: false, role: 0 }),
  );

testOnEachStore(
  'unbacked feedback: no stake and no deal with the target',
  async (store) => {
    const items: IngestItem[] = [
      // DEALT agreed a deal with TARGET; ELSEWHERE only with OTHER; TALKER proposed to TARGET, never agreed.
      env(MsgType.PROPOSE, DEALT, TARGET, conv(1)),
      env(MsgType.ACCEPT, TARGET, DEALT, conv(1)),
      env(MsgType.PROPOSE, ELSEWHERE, OTHER, conv(2)),
      env(MsgType.ACCEPT, OTHER, ELSEWHERE, conv(2)),
      env(MsgType.PROPOSE, TALKER, TARGET, conv(3)),
      feedback(STAKED, TARGET, 90, 10),
      feedback(DEALT, TARGET, 95, 1),
      feedback(BROKE, TARGET, 80, 11),
      feedback(ELSEWHERE, TARGET, 70, 12),
      feedback(TALKER, TARGET, 60, 3),
      feedback(DEALT, OTHER, 50, 13),
    ];
    // Twenty hostile FEEDBACK from one fresh identity.
    for (let i = 0; i < 20; i++) items.push(feedback(FRESH, TARGET, -100, 20 + i));
    await store.ingestEnvelopes(items);
    await store.upsertStakes([
      { agentId: STAKED, amount: 1_000_000n, status: 'locked', slot: 1n },
      { agentId: BROKE, amount: 0n, status: 'claimed', slot: 1n },
    ]);

    const b = await store.feedbackBacking([TARGET, OTHER, id(0x99)]);
    // TARGET: 25 FEEDBACK, backed only STAKED's and DEALT's.
    assert.deepEqual(b.get(toHex(TARGET)), { feedback: 25, unbacked: 23 });
    assert.deepEqual(b.get(toHex(OTHER)), { feedback: 1, unbacked: 1 }, 'DEALT has no deal with OTHER');
    assert.equal(b.has(toHex(id(0x99))), false);
    assert.deepEqual((await store.feedbackBacking([])).size, 0);
    const senders = await store.unbackedSenders(TARGET);
    assert.deepEqual([...senders].sort(), [BROKE, ELSEWHERE, TALKER, FRESH].map(toHex).sort());

    // The fold without them is the fold of the backed feedback alone; the stored gossip fold is the whole.
    const rows = await store.feedbackFor(TARGET);
    const s = backingSummary(rows.map((f) => ({ ...f, unbacked: senders.has(toHex(f.fromAgent)) })));
    const backedOnly = rows
      .filter((f) => !senders.has(toHex(f.fromAgent)))
      .reduce((r, f) => applyFeedback(r, f), emptyReputation());
    assert.equal(s.reliabilityWithout, backedOnly.reliabilityScore);
    assert.equal(s.reliability, (await store.getReputation(TARGET, 'gossip'))!.reliabilityScore);
    assert.ok(s.reliabilityWithout > s.reliability, 'the hostile feedback pulled the score down');
    assert.equal(unbackedPercent(25, 23), 92);
    assert.equal(unbackedPercent(0, 0), 0);
    assert.equal(unbackedPercent(3, 1), 33);
    assert.equal(unbackedPercent(200, 1), 1, 'half a percent rounds up');
  },
  { dbPrefix: 'zx_fb_backing' },
);
