/**
 * The desk's acceptance check of a signed dispute review (POST /api/disputes/{id}/opinions):
 * who signed it, that the text is the canonical review of this dispute (lib/wire/disputes.ts),
 * that it is fresh by this clock, and that the reviewer's Ed25519 signature (strict, as
 * docs/protocol.md §2) covers exactly that text. Each refusal carries its HTTP status and the
 * sentence the API answers with; the browser's own check of a stored opinion is ./dispute-opinion.ts.
 */
import { ed25519Verify } from '../protocol/crypto';
import { decodeSignatureText, SIGNATURE_TEXT_FORMS } from '../protocol/signature-text';
import { agentBytes } from '../wire/agent-id';
import {
  type DisputeOpinionRequest,
  type DisputeReview,
  disputeReviewMessage,
  parseDisputeReviewMessage,
  REVIEW_MAX_AGE_MS,
  REVIEW_MAX_FUTURE_MS,
} from '../wire/disputes';

/** A review that holds: its signer and signature, its fields, the canonical text and when it was signed (unix ms). */
export interface CheckedReview {
  reviewer: Uint8Array;
  signature: Uint8Array;
  review: DisputeReview;
  message: string;
  at: number;
}

export type ReviewCheck = ({ ok: true } & CheckedReview) | { ok: false; status: 400 | 403; error: string };

const refuse = (status: 400 | 403, error: string): ReviewCheck => ({ ok: false, status, error });

/** Checks a signed review of dispute `idHex` (from the URL) at time `now` (unix ms). */
export function checkSignedReview(idHex: string, body: DisputeOpinionRequest, now: number): ReviewCheck {
  const reviewer = agentBytes(body.reviewer);
  if (!reviewer)
    return refuse(400, 'field "reviewer": must be the wallet address that signed (base58, or 64 hex characters)');
  const signature = decodeSignatureText(body.signature);
  if (!signature)
    return refuse(400, `field "signature": must be a 64-byte Ed25519 signature as ${SIGNATURE_TEXT_FORMS}`);
  const parsed = parseDisputeReviewMessage(body.message);
  if (!parsed.ok) return refuse(400, `field "message": ${parsed.error}`);
  const review = parsed.review;
  if (review.dispute !== idHex)
    return refuse(400, `field "message": it reviews dispute ${review.dispute}, not ${idHex} (the dispute in the URL)`);
  const at = Date.parse(review.at);
  if (now - at > REVIEW_MAX_AGE_MS)
    return refuse(
      400,
      `field "message": signed at ${review.at}, more than ` +
        `${REVIEW_MAX_AGE_MS / 60_000} minutes ago; sign a fresh review`,
    );
  if (at - now > REVIEW_MAX_FUTURE_MS)
    return refuse(
      400,
      `field "message": dated ${review.at}, ahead of this server's clock (` +
        `${new Date(now).toISOString()}); check the computer's clock and sign again`,
    );
  // The text checked is the one rebuilt from its fields (parse compares them), byte for byte as signed.
  const message = disputeReviewMessage(review);
  if (!ed25519Verify(signature, new TextEncoder().encode(message), reviewer))
    return refuse(403, "the signature does not verify: it was not made by this reviewer's key over this exact message");
  return { ok: true, reviewer, signature, review, message, at };
}
