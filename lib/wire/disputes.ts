/**
 * The dispute desk's contract (docs/app.md "Dispute desk"): the 0x01 spec logs disputes and leaves
 * them to people, so the observatory lists every DISPUTE envelope with its conversation's evidence
 * and records reviewers' opinions, each signed by the reviewer's wallet over one canonical text.
 *
 * The signed text is plain lines, so a wallet shows the reviewer exactly what is signed:
 *
 *     Zerox1 Observatory dispute review
 *     dispute: <DISPUTE envelope id, 64 lowercase hex>
 *     opinion: upheld | rejected | unclear
 *     note: <one line, at most 500 characters, may be empty>
 *     at: <ISO 8601 UTC with milliseconds, Date.prototype.toISOString>
 *
 * The note is one line (no control characters): a newline in it could forge the lines after it.
 */
import { z } from 'zod';
import { hex16, hex32, nonNegInt } from './codec';
import { OnChainNegotiationViewSchema } from './haggle-views';
import { qp } from './params';
import { ConversationViewSchema } from './views';

export const DISPUTE_OPINIONS = ['upheld', 'rejected', 'unclear'] as const;
export type DisputeOpinionKind = (typeof DISPUTE_OPINIONS)[number];
export const REVIEW_HEADER = 'Zerox1 Observatory dispute review';
/** Characters (code points) a note may have. */
export const REVIEW_NOTE_MAX = 500;
/** A signed message older than this is refused: a captured signature cannot be replayed later. */
export const REVIEW_MAX_AGE_MS = 10 * 60_000;
/** A message dated this far ahead of the server's clock is refused (clock skew allowed). */
export const REVIEW_MAX_FUTURE_MS = 60_000;

export interface DisputeReview {
  /** The DISPUTE envelope id, 64 lowercase hex. */
  dispute: string;
  opinion: DisputeOpinionKind;
  note: string;
  /** ISO 8601 as Date.prototype.toISOString writes it. */
  at: string;
}

/** What is wrong with a note, in a sentence; null when it can be signed. */
export function reviewNoteProblem(note: string): string | null {
  if ([...note].length > REVIEW_NOTE_MAX)
    return `the note has ${[...note].length} characters; at most ${REVIEW_NOTE_MAX}`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's job
  if (/[\u0000-\u001f\u007f\u2028\u2029]/.test(note)) return 'the note must be one line without control characters';
  return null;
}

/** The canonical text a reviewer's wallet signs (module comment). */
export function disputeReviewMessage(r: DisputeReview): string {
  return `${REVIEW_HEADER}\ndispute: ${r.dispute}\nopinion: ${r.opinion}\nnote: ${r.note}\nat: ${r.at}`;
}

/**
 * Reads a signed text back into its fields, refusing anything that is not exactly the canonical
 * form (rebuilt and compared), with the reason in a sentence.
 */
export function parseDisputeReviewMessage(
  text: string,
): { ok: true; review: DisputeReview } | { ok: false; error: string } {
  const lines = text.split('\n');
  if (lines.length !== 5)
    return {
      ok: false,
      error: `the message must have 5 lines (header, dispute, opinion, note, at); it has ${lines.length}`,
    };
  if (lines[0] !== REVIEW_HEADER)
    return { ok: false, error: `the message must start with the line "${REVIEW_HEADER}"` };
  const field = (i: number, name: string) =>
    lines[i].startsWith(`${name}: `) ? lines[i].slice(name.length + 2) : null;
  const dispute = field(1, 'dispute');
  if (dispute === null || !/^[0-9a-f]{64}$/.test(dispute))
    return {
      ok: false,
      error: 'line 2 must be "dispute: " and the DISPUTE envelope id in 64 lowercase hex characters',
    };
  const opinion = field(2, 'opinion');
  if (opinion === null || !(DISPUTE_OPINIONS as readonly string[]).includes(opinion))
    return { ok: false, error: `line 3 must be "opinion: " and one of ${DISPUTE_OPINIONS.join(', ')}` };
  const note = field(3, 'note') ?? (lines[3] === 'note:' ? '' : null);
  if (note === null) return { ok: false, error: 'line 4 must be "note: " and the note' };
  const noteProblem = reviewNoteProblem(note);
  if (noteProblem) return { ok: false, error: noteProblem };
  const at = field(4, 'at');
  const t = at === null ? NaN : Date.parse(at);
  if (at === null || !Number.isFinite(t) || new Date(t).toISOString() !== at)
    return {
      ok: false,
      error: 'line 5 must be "at: " and a UTC time as toISOString writes it (2026-11-27T22:50:00.000Z)',
    };
  const review: DisputeReview = { dispute, opinion: opinion as DisputeOpinionKind, note, at };
  if (disputeReviewMessage(review) !== text) return { ok: false, error: 'the message is not in its canonical form' };
  return { ok: true, review };
}

/** GET /api/disputes. */
export const DisputesQuerySchema = z.object({
  status: z
    .enum(['open', 'reviewed'])
    .optional()
    .meta({
      description:
        '`open`: no counted opinion yet; `reviewed`: at least one ' +
        '(counted: by a reviewer the deployment names, DISPUTE_REVIEWERS)',
    }),
  limit: qp.int(1, 200).default(50).meta({ description: '1..200, default 50' }),
  before: z
    .string()
    .regex(/^\d{1,19}\.[0-9a-f]{64}$/, 'must be the `next` cursor of a previous page')
    .optional()
    .meta({ description: 'the `next` cursor of the previous page (same status)' }),
});
export type DisputesQuery = z.output<typeof DisputesQuerySchema>;

/** GET /api/disputes/{id} and POST /api/disputes/{id}/opinions. */
export const DisputeIdPathSchema = z.object({ id: qp.hex(32, 'DISPUTE envelope id') });

/**
 * Counted opinions (reviewers the deployment names, DISPUTE_REVIEWERS) by kind, and `uncounted`:
 * everyone else's, kept and shown but moving no status and no count.
 */
export const OpinionCountsSchema = z.object({
  total: nonNegInt,
  upheld: nonNegInt,
  rejected: nonNegInt,
  unclear: nonNegInt,
  uncounted: nonNegInt,
});

export const DisputeRowSchema = z.object({
  /** The DISPUTE envelope id. */
  id: hex32,
  conversationId: hex16,
  /** Who sent the DISPUTE. */
  disputer: hex32,
  /** Its recipient (the notary in the demo; the spec leaves the addressee to the disputer). */
  recipient: hex32,
  /** The envelope's timestamp (sender's clock), unix ms. */
  timestampMs: z.number(),
  receivedAtMs: z.number(),
  payloadLen: nonNegInt,
  /** reviewed: at least one counted opinion. */
  status: z.enum(['open', 'reviewed']),
  opinions: OpinionCountsSchema,
});
export type DisputeRowView = z.infer<typeof DisputeRowSchema>;

export const DisputeListSchema = z.object({
  counts: z.object({ total: nonNegInt, open: nonNegInt, reviewed: nonNegInt }),
  /** How many reviewers this deployment names (DISPUTE_REVIEWERS); with none, no opinion counts. */
  reviewersNamed: nonNegInt,
  disputes: z.array(DisputeRowSchema),
  /** Pass as `before` with the same status for the next (older) page; null at the end. */
  next: z.string().nullable(),
});
export type DisputeListView = z.infer<typeof DisputeListSchema>;

export const DisputeOpinionSchema = z.object({
  /** The reviewer's wallet address (base58 Ed25519 public key). */
  reviewer: z.string(),
  opinion: z.enum(DISPUTE_OPINIONS),
  note: z.string(),
  /** The text the wallet signed, as stored: re-verify it with the signature and the reviewer key. */
  message: z.string(),
  /** Ed25519 signature, 128 lowercase hex. */
  signature: z.string(),
  signedAt: z.string(),
  receivedAt: z.string(),
  /** The reviewer is named by this deployment (DISPUTE_REVIEWERS): the opinion moves status and counts. */
  counted: z.boolean(),
  /** Why it does not count, when it does not. */
  notCounted: z.string().optional(),
});
export type DisputeOpinionView = z.infer<typeof DisputeOpinionSchema>;

export const DisputeDetailSchema = z.object({
  dispute: DisputeRowSchema,
  /**
   * The conversation's evidence: every envelope in protocol order, price path, feedback, notary bids; null when none of
   * it is stored.
   */
  conversation: ConversationViewSchema.nullable(),
  /** The negotiating parties (from the conversation's NEG1 messages). */
  parties: z.array(hex32),
  /** The recipient of the conversation's NOTARIZE_ASSIGN. */
  notary: hex32.nullable(),
  /** The notary's VERDICT as the demo agents encode it ([passed, score]); null when there is none or it is opaque. */
  verdict: z.object({ envelopeId: hex32, passed: z.boolean(), score: z.number().int() }).nullable(),
  /**
   * The Handshake receipt: `url` to download when the conversation has what a receipt needs, else `missing` says what
   * it lacks.
   */
  receipt: z.object({ url: z.string().nullable(), missing: z.string().nullable() }),
  /** The Haggle settlement on chain, when the deal was mirrored there. */
  onChain: z.array(OnChainNegotiationViewSchema),
  opinions: z.array(DisputeOpinionSchema),
  /** How many reviewers this deployment names (DISPUTE_REVIEWERS). */
  reviewersNamed: nonNegInt,
});
export type DisputeDetailView = z.infer<typeof DisputeDetailSchema>;

/** POST /api/disputes/{id}/opinions. */
export const DisputeOpinionRequestSchema = z
  .object({
    /** The wallet address that signed: base58 (or 64 hex) Ed25519 public key. */
    reviewer: z.string().min(1).max(100),
    /** The canonical text (module comment). */
    message: z.string().min(1).max(4000),
    /**
     * Ed25519 signature of the message's UTF-8 bytes: 128 lowercase hex characters, base58 or padded base64; each is
     * accepted once.
     */
    signature: z.string().min(1).max(200),
  })
  .strict();
export type DisputeOpinionRequest = z.infer<typeof DisputeOpinionRequestSchema>;

export const DisputeOpinionResultSchema = z.object({
  /**
   * saved: first opinion of this reviewer; replaced: a newer message replaced theirs (a signed message is accepted
   * once: sending it again is a 409).
   */
  stored: z.enum(['saved', 'replaced', 'unchanged']),
  opinion: DisputeOpinionSchema,
});
export type DisputeOpinionResult = z.infer<typeof DisputeOpinionResultSchema>;
