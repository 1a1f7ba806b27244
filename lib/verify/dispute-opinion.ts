/**
 * A reviewer's opinion on a dispute, checked in the browser from what the desk serves: the signed
 * text must be the canonical review of this dispute with the shown opinion and note
 * (lib/wire/disputes.ts), and the signature Ed25519 (RFC 8032, strict as docs/protocol.md §2) by the
 * reviewer's key over that text's UTF-8 bytes. Nothing is taken from the server's word.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import bs58 from 'bs58';
import { fromCanonicalHex } from '../protocol/hex';
import { type DisputeOpinionView, parseDisputeReviewMessage } from '../wire/disputes';
import { fail, pass, skip, type VerifyStep } from './steps';

export function checkDisputeOpinion(
  disputeId: string,
  o: Pick<DisputeOpinionView, 'reviewer' | 'opinion' | 'note' | 'message' | 'signature'>,
): { ok: boolean; steps: VerifyStep[] } {
  const steps: VerifyStep[] = [];
  const parsed = parseDisputeReviewMessage(o.message);
  const fields =
    parsed.ok &&
    parsed.review.dispute === disputeId &&
    parsed.review.opinion === o.opinion &&
    parsed.review.note === o.note;
  steps.push(
    fields
      ? pass(
          'review_text',
          'Signed text',
          `reviews dispute ${disputeId.slice(0, 12)}…: ${o.opinion}, signed at ${parsed.ok ? parsed.review.at : ''}`,
        )
      : fail(
          'review_text',
          'Signed text',
          parsed.ok ? 'the signed text does not say this dispute, opinion and note' : parsed.error,
        ),
  );
  let key: Uint8Array | null = null;
  try {
    const k = bs58.decode(o.reviewer);
    key = k.length === 32 ? k : null;
  } catch {
    key = null;
  }
  const sig = fromCanonicalHex(o.signature);
  if (!key || !sig || sig.length !== 64) {
    steps.push(
      fail(
        'review_signature',
        'Reviewer signature',
        !key ? 'the reviewer is not a 32-byte base58 key' : 'the signature is not 64 bytes of hex',
      ),
    );
  } else if (!fields) {
    steps.push(skip('review_signature', 'Reviewer signature', 'the signed text does not hold'));
  } else {
    let ok = false;
    try {
      ok = ed25519.verify(sig, new TextEncoder().encode(o.message), key, { zip215: false });
    } catch {
      ok = false;
    }
    steps.push(
      ok
        ? pass('review_signature', 'Reviewer signature', `Ed25519 by ${o.reviewer}`)
        : fail('review_signature', 'Reviewer signature', `not a signature of this text by ${o.reviewer}`),
    );
  }
  return { ok: steps.every((s) => s.ok), steps };
}
