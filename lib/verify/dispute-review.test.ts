// The desk's check of a signed review: it takes exactly the canonical text of this dispute, fresh
// by the server's clock, signed by the named reviewer; each refusal names its field and status.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import bs58 from 'bs58';
import { ed25519Sign, publicKeyFromSeed } from '../protocol/crypto';
import { toHex } from '../protocol/hex';
import { type DisputeReview, disputeReviewMessage, REVIEW_MAX_AGE_MS, REVIEW_MAX_FUTURE_MS } from '../wire/disputes';
import { checkSignedReview } from './dispute-review';

const seed = new Uint8Array(32).fill(9);
const reviewer = bs58.encode(publicKeyFromSeed(seed));
const dispute = 'ab'.repeat(32);
const now = Date.parse('2026-03-01T12:00:00.000Z');

function signed(over: Partial<DisputeReview> = {}, key = seed) {
  const review: DisputeReview = {
    dispute,
    opinion: 'upheld',
    note: 'the verdict ignored the tests',
    at: new Date(now).toISOString(),
    ...over,
  };
  const message = disputeReviewMessage(review);
  return { reviewer, message, signature: toHex(ed25519Sign(new TextEncoder().encode(message), key)) };
}

test('a fresh canonical review signed by its reviewer holds, with its fields and signing time', () => {
  const c = checkSignedReview(dispute, signed(), now);
  assert.ok(c.ok);
  assert.equal(c.review.opinion, 'upheld');
  assert.equal(c.at, now);
  assert.equal(toHex(c.reviewer), toHex(publicKeyFromSeed(seed)));
});

test('each refusal: its status and the field it names', () => {
  const refused = (body: ReturnType<typeof signed>, at = now) => {
    const c = checkSignedReview(dispute, body, at);
    assert.ok(!c.ok, 'refused');
    return `${c.status} ${c.error}`;
  };
  assert.match(refused({ ...signed(), reviewer: 'not a key' }), /^400 field "reviewer"/);
  assert.match(refused({ ...signed(), signature: 'zz' }), /^400 field "signature"/);
  assert.match(refused({ ...signed(), message: 'hello' }), /^400 field "message"/);
  assert.match(refused(signed({ dispute: 'cd'.repeat(32) })), /^400 field "message": it reviews dispute cdcd/);
  assert.match(refused(signed(), now + REVIEW_MAX_AGE_MS + 1), /^400 field "message": signed at .* ago/);
  assert.match(
    refused(signed(), now - REVIEW_MAX_FUTURE_MS - 1),
    /^400 field "message": dated .* ahead of this server's clock/,
  );
  // Within both windows it holds.
  assert.ok(checkSignedReview(dispute, signed(), now + REVIEW_MAX_AGE_MS).ok);
  assert.ok(checkSignedReview(dispute, signed(), now - REVIEW_MAX_FUTURE_MS).ok);
  // Another key's signature, or the text changed after signing.
  assert.match(refused(signed({}, new Uint8Array(32).fill(8))), /^403 the signature does not verify/);
  const b = signed();
  const other = signed({ note: 'changed' });
  assert.match(refused({ ...b, message: other.message }), /^403 the signature does not verify/);
});
