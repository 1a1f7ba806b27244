import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MsgType } from '../protocol/types';
import { TOPIC_BROADCAST, TOPIC_NOTARY, TOPIC_REPUTATION } from './constants';
import { isMeshTopic, topicFor } from './topics';

describe('topicFor (docs/protocol.md §9)', () => {
  test('maps every message type', () => {
    const want: Record<string, string | null> = {
      ADVERTISE: TOPIC_BROADCAST,
      DISCOVER: TOPIC_BROADCAST,
      BEACON: TOPIC_BROADCAST,
      NOTARIZE_BID: TOPIC_NOTARY,
      FEEDBACK: TOPIC_REPUTATION,
      PROPOSE: null,
      COUNTER: null,
      ACCEPT: null,
      REJECT: null,
      DELIVER: null,
      NOTARIZE_ASSIGN: null,
      VERDICT: null,
      DISPUTE: null,
    };
    for (const [name, code] of Object.entries(MsgType)) assert.equal(topicFor(code), want[name], name);
    assert.equal(topicFor(0), null);
    assert.equal(topicFor(0x0e), null);
  });

  test('isMeshTopic', () => {
    assert.equal(isMeshTopic('/0x01/v1/notary'), true);
    assert.equal(isMeshTopic('/0x01/v1/other'), false);
    assert.equal(isMeshTopic(7), false);
  });
});
