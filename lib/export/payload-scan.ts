/**
 * A hand-written scanner of the decoded payload columns (docs/protocol.md §4 FEEDBACK and
 * NOTARIZE_BID, §8 NEG1/NEGC/NEGR) that reads the payload bytes in place: no copy, no CBOR value
 * tree, no bigint, no object per row. Decoding the payloads with lib/protocol's strict decoders
 * (cbor-x, then a re-encoding to prove the bytes canonical) was the largest share of the
 * envelopes CSV export's own time, and nearly every stored envelope carries one of these payloads.
 *
 * The scanner only answers when it is sure: it accepts exactly the canonical layouts the
 * protocol writes (shortest integer heads, definite lengths, no tags, no trailing bytes) with
 * every integer below 2^53, and answers UNSURE for anything else (a bignum price, a non-canonical
 * head, a wrong type), and the caller then asks lib/protocol (`decodePayloadInto`). So an accepted
 * payload is one the strict decoder accepts with the same values; payload-scan.test.ts checks this
 * against the decoders on real and mutated payloads.
 *
 * Results are positional, in PAYLOAD_FIELDS order (rows.ts): integers in `num`, byte strings as
 * `off`/`len` into the scanned buffer.
 */
import { MsgType } from '../protocol/types';

export const KIND_UNSURE = -1;
export const KIND_OPAQUE = 0;
export const KIND_NEG1 = 1;
export const KIND_NEGC = 2;
export const KIND_NEGR = 3;
export const KIND_FEEDBACK = 4;
export const KIND_NOTARIZE_BID = 5;
export const KIND_NAMES = ['opaque', 'neg1', 'negc', 'negr', 'feedback', 'notarize_bid'];

/** PAYLOAD_FIELDS indexes (rows.ts) and which of them each kind fills. */
export const P = {
  bid: 0,
  round: 1,
  mint: 2,
  service: 3,
  deadline: 4,
  decay: 5,
  maxRounds: 6,
  tier: 7,
  reason: 8,
  commitment: 9,
  negrPrice: 10,
  salt: 11,
  target: 12,
  score: 13,
  outcome: 14,
  dispute: 15,
  role: 16,
  bidType: 17,
  terms: 18,
} as const;
export const KIND_FIELDS: number[][] = [
  [],
  [P.bid, P.round, P.mint, P.service, P.deadline, P.decay, P.maxRounds, P.tier, P.reason],
  [P.commitment],
  [P.negrPrice, P.salt],
  [P.target, P.score, P.outcome, P.dispute, P.role],
  [P.bidType, P.terms],
];
/** Fields holding byte strings (the rest are integers; `dispute` is 0/1 for a boolean). */
export const BYTE_FIELDS = new Set<number>([P.mint, P.service, P.commitment, P.salt, P.target, P.terms]);

const TWO32 = 4294967296;
/** Largest high word of a 64-bit head whose value stays below 2^53. */
const HI_SAFE = 0x1fffff;

export class PayloadScan {
  readonly num = new Float64Array(19);
  readonly off = new Int32Array(19);
  readonly len = new Int32Array(19);
  private b: Uint8Array = new Uint8Array(0);
  private p = 0;
  private end = 0;

  /**
   * Scans the payload `b[start, end)` of an envelope of type `msgType`; returns a KIND_* code,
   * KIND_UNSURE when only the strict decoder can tell.
   */
  scan(msgType: number, b: Uint8Array, start: number, end: number): number {
    const n = end - start;
    if (msgType === MsgType.FEEDBACK) {
      if (n !== 52) return KIND_OPAQUE;
      const score = (b[start + 48] << 24) >> 24;
      const outcome = b[start + 49];
      const dispute = b[start + 50];
      const role = b[start + 51];
      if (score < -100 || score > 100 || outcome > 2 || dispute > 1 || role > 1) return KIND_OPAQUE;
      this.bytes(P.target, start + 16, 32);
      this.num[P.score] = score;
      this.num[P.outcome] = outcome;
      this.num[P.dispute] = dispute;
      this.num[P.role] = role;
      return KIND_FEEDBACK;
    }
    if (msgType === MsgType.NOTARIZE_BID) {
      if (n < 17 || b[start] > 1) return KIND_OPAQUE;
      this.num[P.bidType] = b[start];
      this.bytes(P.terms, start + 17, n - 17);
      return KIND_NOTARIZE_BID;
    }
    if (msgType < MsgType.PROPOSE || msgType > MsgType.REJECT) return KIND_OPAQUE;
    // The four-byte hint: 'N' 'E' 'G' then '1', 'C' or 'R'; anything else is an opaque payload.
    if (n < 4 || b[start] !== 0x4e || b[start + 1] !== 0x45 || b[start + 2] !== 0x47) return KIND_OPAQUE;
    const hint = b[start + 3];
    if (hint !== 0x31 && hint !== 0x43 && hint !== 0x52) return KIND_OPAQUE;
    this.b = b;
    this.p = start + 4;
    this.end = end;
    let ok: boolean;
    if (hint === 0x31) ok = this.neg1();
    else if (hint === 0x43) ok = this.bstr(P.commitment, 32, 32) >= 0;
    else ok = this.byte(0x82) && this.int(P.negrPrice, true, -Infinity, Infinity) && this.bstr(P.salt, 32, 32) >= 0;
    this.b = EMPTY; // no reference to the caller's buffer outlives the call
    if (!ok || this.p !== end) return KIND_UNSURE;
    return hint === 0x31 ? KIND_NEG1 : hint === 0x43 ? KIND_NEGC : KIND_NEGR;
  }

  private neg1(): boolean {
    // [bid, mint, service_hash, round, deadline, decay_bps, max_rounds, [tier, test_suite_hash], reason, metadata]
    if (
      !this.byte(0x8a) ||
      !this.int(P.bid, true, -Infinity, Infinity) ||
      this.bstr(P.mint, 32, 32) < 0 ||
      this.bstr(P.service, 32, 32) < 0 ||
      !this.int(P.round, false, 0, Infinity) ||
      !this.int(P.deadline, false, 0, Infinity) ||
      !this.int(P.decay, false, 0, 1000) ||
      !this.int(P.maxRounds, false, 1, 20) ||
      !this.byte(0x82) ||
      !this.int(P.tier, false, 0, 2)
    )
      return false;
    const tsh = this.bstr(-1, 0, 32);
    if (tsh !== 0 && tsh !== 32) return false; // test_suite_hash: empty or 32 bytes
    return this.int(P.reason, false, 0, 6) && this.bstr(-1, 0, 64) >= 0;
  }

  private bytes(field: number, off: number, len: number): void {
    this.off[field] = off;
    this.len[field] = len;
  }

  private byte(v: number): boolean {
    if (this.p >= this.end || this.b[this.p] !== v) return false;
    this.p++;
    return true;
  }

  /** A canonical head of `major` (0..2); its argument, or -1 when not canonical, truncated or ≥ 2^53. */
  private head(major: number): number {
    const b = this.b;
    const p = this.p;
    if (p >= this.end || b[p] >> 5 !== major) return -1;
    const ai = b[p] & 31;
    if (ai < 24) {
      this.p = p + 1;
      return ai;
    }
    let v: number;
    if (ai === 24) {
      if (p + 2 > this.end) return -1;
      v = b[p + 1];
      if (v < 24) return -1;
      this.p = p + 2;
    } else if (ai === 25) {
      if (p + 3 > this.end) return -1;
      v = (b[p + 1] << 8) | b[p + 2];
      if (v < 0x100) return -1;
      this.p = p + 3;
    } else if (ai === 26) {
      if (p + 5 > this.end) return -1;
      v = ((b[p + 1] << 24) | (b[p + 2] << 16) | (b[p + 3] << 8) | b[p + 4]) >>> 0;
      if (v < 0x10000) return -1;
      this.p = p + 5;
    } else if (ai === 27) {
      if (p + 9 > this.end) return -1;
      const hi = ((b[p + 1] << 24) | (b[p + 2] << 16) | (b[p + 3] << 8) | b[p + 4]) >>> 0;
      const lo = ((b[p + 5] << 24) | (b[p + 6] << 16) | (b[p + 7] << 8) | b[p + 8]) >>> 0;
      if (hi === 0 || hi > HI_SAFE) return -1; // below 2^32 is not canonical; at 2^53 and up the decoder decides
      v = hi * TWO32 + lo;
      if (v > Number.MAX_SAFE_INTEGER - 1) return -1;
      this.p = p + 9;
    } else return -1;
    return v;
  }

  /** An integer (major 0, or major 1 when `signed`) in [min, max] into num[field]. */
  private int(field: number, signed: boolean, min: number, max: number): boolean {
    const b = this.b;
    if (this.p >= this.end) return false;
    const major = b[this.p] >> 5;
    if (major !== 0 && !(signed && major === 1)) return false;
    const a = this.head(major);
    if (a < 0) return false;
    const v = major === 0 ? a : -1 - a;
    if (v < min || v > max) return false;
    this.num[field] = v;
    return true;
  }

  /** A byte string of min..max bytes (field -1: checked and skipped); its length, or -1. */
  private bstr(field: number, min: number, max: number): number {
    const h = this.p;
    const n = this.head(2);
    if (n < min || n > max || this.p + n > this.end) {
      this.p = h;
      return -1;
    }
    if (field >= 0) this.bytes(field, this.p, n);
    this.p += n;
    return n;
  }
}

const EMPTY = new Uint8Array(0);
