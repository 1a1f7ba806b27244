// The drop hook's sender: read from the bytes of a real envelope (any version and msg_type
// width), and null for bytes that are not an envelope's head.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildEnvelope } from '../protocol/envelope';
import { MsgType } from '../protocol/types';
import { claimedSender } from './observatory';

test('the claimed sender of refused bytes, or null', () => {
  const sender = new Uint8Array(32).fill(0x5a);
  for (const msgType of [MsgType.PROPOSE, MsgType.FEEDBACK, MsgType.DISPUTE]) {
    const b = buildEnvelope(
      {
        msgType,
        sender,
        recipient: new Uint8Array(32),
        conversationId: new Uint8Array(16),
        nonce: 1n,
        timestamp: 1_790_000_000_000_000n,
        payload: new Uint8Array([1]),
      },
      sender,
    );
    const bad = new Uint8Array(b.bytes);
    bad[bad.length - 1] ^= 1; // a broken signature still names its sender
    assert.equal(claimedSender(bad), '5a'.repeat(32));
  }
  assert.equal(claimedSender(new Uint8Array([0x8c, 0x01, 0x02, 0x58, 0x20])), null, 'too short');
  assert.equal(claimedSender(new Uint8Array([0x83, 0x01])), null, 'not a 12-item array');
  assert.equal(claimedSender(new Uint8Array(0)), null);
});
