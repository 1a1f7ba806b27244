// Which deals settle on chain: both parties decide from the conversation id alone, so the buyer's
// and the seller's processes pick the same ones without a message; a bad share is refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HaggleMirror, mirroredConversation } from './haggle-mirror';

const conv = (first: number) => Uint8Array.from({ length: 16 }, (_, i) => (i === 0 ? first : 0xee));

test('the share of mirrored conversations follows the first byte of the id', () => {
  assert.deepEqual(
    [0, 127, 128, 255].map((b) => mirroredConversation(conv(b), 0.5)),
    [true, true, false, false],
  );
  assert.deepEqual(
    [0, 255].map((b) => mirroredConversation(conv(b), 1)),
    [true, true],
  );
  assert.deepEqual(
    [0, 255].map((b) => mirroredConversation(conv(b), 0)),
    [false, false],
  );
  assert.equal(mirroredConversation(new Uint8Array(15), 1), false, 'not a conversation id');
  let n = 0;
  for (let b = 0; b < 256; b++) if (mirroredConversation(conv(b), 0.25)) n++;
  assert.equal(n, 64);
});

test('a share outside 0..1 is refused', () => {
  const p = {
    seed: new Uint8Array(32).fill(1),
    rpcUrl: 'http://127.0.0.1:9',
    usdcMint: '11111111111111111111111111111111',
    treasury: '11111111111111111111111111111111',
  };
  const hooks = { report() {}, ownerOf: () => undefined };
  assert.throws(() => new HaggleMirror({ share: 1.5 }, p, hooks), /haggle.share must be in 0..1/);
  assert.throws(() => new HaggleMirror({ share: Number.NaN }, p, hooks), /haggle.share must be in 0..1/);
});
