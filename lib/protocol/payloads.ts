/**
 * Protocol-defined payloads with fixed binary layouts (docs/protocol.md §4): FEEDBACK (0x0B) and
 * NOTARIZE_BID (0x08). Decoders never throw; encoders throw on caller misuse.
 */
import { assertBytes } from './errors';

/** Result of a payload decoder: the value or why the bytes do not parse. */
export type PayloadResult<T> = { ok: true; value: T } | { ok: false; detail: string };

/** FEEDBACK payload (docs/protocol.md §4), exactly 52 bytes. */
export interface FeedbackPayload {
  conversationId: Uint8Array;
  targetAgent: Uint8Array;
  /** -100..100 */
  score: number;
  /** 0 negative, 1 neutral, 2 positive */
  outcome: number;
  isDispute: boolean;
  /** 0 participant, 1 notary */
  role: number;
}

export const FEEDBACK_LEN = 52;

/** A FEEDBACK outcome's name by its code (docs/protocol.md §4). */
export const FEEDBACK_OUTCOMES: readonly string[] = ['negative', 'neutral', 'positive'];

function checkIntRange(name: string, v: number, min: number, max: number): void {
  if (!Number.isInteger(v)) throw new TypeError(`${name} must be an integer`);
  if (v < min || v > max) throw new RangeError(`${name} must be in ${min}..${max}, got ${v}`);
}

/** Encodes a FEEDBACK payload (docs/protocol.md §4). */
export function encodeFeedback(p: FeedbackPayload): Uint8Array {
  assertBytes('conversationId', p.conversationId, 16);
  assertBytes('targetAgent', p.targetAgent, 32);
  checkIntRange('score', p.score, -100, 100);
  checkIntRange('outcome', p.outcome, 0, 2);
  checkIntRange('role', p.role, 0, 1);
  if (typeof p.isDispute !== 'boolean') throw new TypeError('isDispute must be a boolean');
  const out = new Uint8Array(FEEDBACK_LEN);
  out.set(p.conversationId, 0);
  out.set(p.targetAgent, 16);
  out[48] = p.score & 0xff;
  out[49] = p.outcome;
  out[50] = p.isDispute ? 1 : 0;
  out[51] = p.role;
  return out;
}

/** Decodes a FEEDBACK payload (docs/protocol.md §4). Never throws. */
export function decodeFeedback(bytes: Uint8Array): PayloadResult<FeedbackPayload> {
  if (!(bytes instanceof Uint8Array) || bytes.length !== FEEDBACK_LEN) {
    return { ok: false, detail: `FEEDBACK must be ${FEEDBACK_LEN} bytes` };
  }
  const score = (bytes[48] << 24) >> 24;
  if (score < -100 || score > 100) return { ok: false, detail: `score ${score} out of -100..100` };
  if (bytes[49] > 2) return { ok: false, detail: `outcome ${bytes[49]} invalid` };
  if (bytes[50] > 1) return { ok: false, detail: `is_dispute ${bytes[50]} invalid` };
  if (bytes[51] > 1) return { ok: false, detail: `role ${bytes[51]} invalid` };
  return {
    ok: true,
    value: {
      conversationId: bytes.slice(0, 16),
      targetAgent: bytes.slice(16, 48),
      score,
      outcome: bytes[49],
      isDispute: bytes[50] === 1,
      role: bytes[51],
    },
  };
}

/** NOTARIZE_BID payload (docs/protocol.md §4). */
export interface NotarizeBidPayload {
  /** 0 participant request, 1 notary offer */
  bidType: number;
  conversationId: Uint8Array;
  /** Agent-defined, opaque. */
  terms: Uint8Array;
}

export const NOTARIZE_BID_MIN_LEN = 17;

/** Encodes a NOTARIZE_BID payload (docs/protocol.md §4). */
export function encodeNotarizeBid(p: NotarizeBidPayload): Uint8Array {
  checkIntRange('bidType', p.bidType, 0, 1);
  assertBytes('conversationId', p.conversationId, 16);
  assertBytes('terms', p.terms);
  const out = new Uint8Array(NOTARIZE_BID_MIN_LEN + p.terms.length);
  out[0] = p.bidType;
  out.set(p.conversationId, 1);
  out.set(p.terms, 17);
  return out;
}

/** Decodes a NOTARIZE_BID payload (docs/protocol.md §4). Never throws. */
export function decodeNotarizeBid(bytes: Uint8Array): PayloadResult<NotarizeBidPayload> {
  if (!(bytes instanceof Uint8Array) || bytes.length < NOTARIZE_BID_MIN_LEN) {
    return { ok: false, detail: `NOTARIZE_BID must be at least ${NOTARIZE_BID_MIN_LEN} bytes` };
  }
  if (bytes[0] > 1) return { ok: false, detail: `bid_type ${bytes[0]} invalid` };
  return {
    ok: true,
    value: { bidType: bytes[0], conversationId: bytes.slice(1, 17), terms: bytes.slice(17) },
  };
}
