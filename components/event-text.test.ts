import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LiveEvent } from '../lib/wire';
import { eventText } from './event-text';

const A = 'ab'.repeat(32);
const base = { agent: '11111111111111111111111111111111', agentHex: A, signature: 'sig', slot: 7 };
const conv = '09'.repeat(16);

test('events read as sentences with exact amounts and no raw field names', () => {
  const events = [
    {
      type: 'challenge_resolved',
      at: 1,
      data: {
        ...base,
        challenge: 'C',
        challenger: 'D',
        batch: 'B',
        epoch: '12',
        stakeReturned: '0',
        stakeToTreasury: '0',
        pending: 0,
        status: 3,
        reason: 0,
        statusName: 'upheld',
      },
    },
    {
      type: 'haggle_offer',
      at: 1,
      data: {
        negotiation: 'N',
        conversationId: conv,
        signature: 's',
        slot: 1,
        amount: '810',
        decay: '10',
        escrow: '1990',
        at: '1',
        side: 2,
        round: 3,
        status: 3,
        metadata: '00'.repeat(64),
        statusName: 'countered',
      },
    },
    { type: 'stake_locked', at: 1, data: { ...base, owner: 'O', amount: '10000000' } },
    {
      type: 'reputation_update',
      at: 1,
      data: {
        envelopeId: A,
        conversationId: conv,
        sender: A,
        recipient: A,
        agent: A,
        from: A,
        score: 80,
        outcome: 2,
        role: 0,
        isDispute: false,
        reputation: {},
      },
    },
  ] as unknown as LiveEvent[];
  const texts = events.map((e) => eventText(e).text);
  assert.equal(
    texts[1],
    'The seller countered 0.00081 USDC in round 3 on chain (0.00001 USDC decayed, 0.00199 USDC left in escrow)',
  );
  assert.equal(texts[2], 'locked 10 USDC of stake');
  assert.match(texts[0], /epoch 12 upheld/);
  assert.match(texts[3], /^was rated \+80 by /);
  for (const t of texts) assert.doesNotMatch(t, /statusName|outcome \d|status \d|amount \d/, t);
});
