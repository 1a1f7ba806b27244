import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conversationState, isDeal, stateLabel, typesSeenMask } from './conversation-state';
import { MsgType as T } from './types';

const st = (...ts: number[]) => conversationState(ts);

test('only an ACCEPT makes a deal: FEEDBACK alone is feedback without a deal', () => {
  assert.deepEqual(st(T.FEEDBACK), { stage: 'feedback_without_deal', outcome: 'no_deal' });
  assert.deepEqual(st(T.FEEDBACK, T.FEEDBACK), { stage: 'feedback_without_deal', outcome: 'no_deal' });
  assert.deepEqual(st(T.DISPUTE), { stage: 'without_deal', outcome: 'no_deal' });
  assert.deepEqual(st(T.DELIVER, T.VERDICT), { stage: 'without_deal', outcome: 'no_deal' });
  assert.equal(isDeal(st(T.FEEDBACK).outcome), false);
  assert.equal(stateLabel('feedback_without_deal', 'no_deal'), 'feedback without a deal');
});

test('the deal path: every step after an ACCEPT moves an agreed conversation on', () => {
  assert.deepEqual(st(T.DISCOVER), { stage: 'discovery', outcome: 'open' });
  assert.deepEqual(st(T.PROPOSE, T.COUNTER), { stage: 'negotiating', outcome: 'open' });
  assert.deepEqual(st(T.PROPOSE, T.REJECT), { stage: 'rejected', outcome: 'rejected' });
  assert.deepEqual(st(T.PROPOSE, T.REJECT, T.FEEDBACK), { stage: 'rejected', outcome: 'rejected' });
  assert.deepEqual(st(T.PROPOSE, T.ACCEPT), { stage: 'accepted', outcome: 'agreed' });
  assert.deepEqual(st(T.PROPOSE, T.ACCEPT, T.DELIVER), { stage: 'delivered', outcome: 'agreed' });
  assert.deepEqual(st(T.PROPOSE, T.ACCEPT, T.DELIVER, T.NOTARIZE_BID), { stage: 'notarizing', outcome: 'agreed' });
  assert.deepEqual(st(T.PROPOSE, T.ACCEPT, T.NOTARIZE_ASSIGN, T.VERDICT), { stage: 'verdict', outcome: 'agreed' });
  assert.deepEqual(st(T.PROPOSE, T.ACCEPT, T.VERDICT, T.FEEDBACK), { stage: 'completed', outcome: 'agreed' });
  assert.deepEqual(st(T.PROPOSE, T.ACCEPT, T.FEEDBACK, T.DISPUTE), { stage: 'disputed', outcome: 'disputed' });
  assert.equal(stateLabel('completed', 'agreed'), 'completed (agreed)');
  assert.equal(stateLabel('negotiating', null), 'negotiating');
});

test('ADVERTISE and BEACON belong to no conversation; arrival order never matters', () => {
  assert.equal(typesSeenMask([T.ADVERTISE, T.BEACON]), 0);
  const path = [T.DISCOVER, T.PROPOSE, T.COUNTER, T.ACCEPT, T.DELIVER, T.VERDICT, T.FEEDBACK];
  const want = conversationState(path);
  for (let i = 0; i < 50; i++) {
    const shuffled = [...path].sort(() => Math.random() - 0.5);
    assert.deepEqual(conversationState(shuffled), want);
  }
});
