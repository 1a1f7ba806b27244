// The bus's event conditions on plain event data: dispute and slashed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LiveEventOf } from '../../wire/events';
import { dispute, slashed } from './events';
import { brief, hex, watchOf } from './testing';

const name = (a: string) => `agent-${a.slice(0, 2)}`;
const CONV = 'cc'.repeat(16);
const d = {
  sender: hex(0xa1),
  recipient: hex(0xc3),
  disputant: hex(0xc3),
  conversationId: CONV,
  envelopeId: 'ee'.repeat(32),
} as unknown as LiveEventOf<'dispute_raised'>['data'];

test('dispute: for a watched sender or recipient, or in a watched conversation; only with the rule on', () => {
  const watch = watchOf(
    { id: 'agents', rules: { dispute: {} }, agents: [[0xa1]] },
    { id: 'conv', rules: { dispute: {} }, convs: [CONV] },
    { id: 'off', rules: { offline: {} }, agents: [[0xa1]], convs: [CONV] },
    // The conversation and its sender: one alert, the sender's.
    { id: 'both', rules: { dispute: {} }, agents: [[0xa1]], convs: [CONV] },
  );
  const out = dispute(d, watch, name);
  assert.deepEqual(brief(out), [
    `agents:a1:dispute:${CONV}=true`,
    `conv:c3:dispute:${CONV}=true`,
    `both:a1:dispute:${CONV}=true`,
  ]);
  assert.match(String(out[0].why), /agent-c3 raised a DISPUTE in conversation .* where agent-a1 is the sender$/);
  assert.match(String(out[1].why), /in watched conversation/);
});

test('slashed: for every list watching the agent with the rule on', () => {
  const s = {
    agentHex: hex(0xa1),
    signature: 'Sig1',
    amount: '100',
    reward: '50',
    toTreasury: '50',
    slot: 9,
  } as unknown as LiveEventOf<'stake_slashed'>['data'];
  const watch = watchOf(
    { id: 'w', rules: { slashed: {} }, agents: [[0xa1]] },
    { id: 'all', allAgents: true, rules: { slashed: {} } },
    { id: 'off', rules: { dispute: {} }, agents: [[0xa1]] },
    { id: 'other', rules: { slashed: {} }, agents: [[0xb2]] },
  );
  assert.deepEqual(brief(slashed(s, watch, name)), ['w:a1:slashed:Sig1=true', 'all:a1:slashed:Sig1=true']);
});
