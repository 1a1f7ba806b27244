/**
 * BehaviorBatch (docs/protocol.md §6, spec §8.2–8.4): canonical CBOR, hash, signature, overflow hash.
 * Field order follows vectors/batch.json `field_notes`.
 */
import {
  asArray,
  asBool,
  asBytes,
  asInt,
  asList,
  type CborValue,
  decodeCanonical,
  encodeCanonical,
  I128_MAX,
  I128_MIN,
  U64_MAX,
} from './cbor';
import { MAX_BATCH_ENTRIES } from './constants';
import { ed25519Sign, ed25519Verify, keccak256 } from './crypto';
import { assertBytes } from './errors';

/** A bid the agent sent: [conversation_id, counterparty, bid_value, slot] (spec §8.2). */
export interface TypedBid {
  conversationId: Uint8Array;
  counterparty: Uint8Array;
  bidValue: bigint;
  slot: bigint;
}
/** An accepted task: [conversation_id, counterparty, slot]. */
export interface TaskSelection {
  conversationId: Uint8Array;
  counterparty: Uint8Array;
  slot: bigint;
}
/** A notary assignment: [conversation_id, verifier_id, slot]. */
export interface VerifierAssignment {
  conversationId: Uint8Array;
  verifierId: Uint8Array;
  slot: bigint;
}
/** Feedback received: [conversation_id, from_agent, score, outcome, role, slot, sati_attestation_hash]. */
export interface FeedbackEvent {
  conversationId: Uint8Array;
  fromAgent: Uint8Array;
  score: number;
  outcome: number;
  role: number;
  slot: bigint;
  satiAttestationHash: Uint8Array;
}

/** One agent's epoch summary (docs/protocol.md §6). */
export interface BehaviorBatch {
  agentId: Uint8Array;
  epochNumber: bigint;
  slotStart: bigint;
  slotEnd: bigint;
  messageCount: bigint;
  /** 16 counts indexed by msg_type. */
  msgTypeCounts: bigint[];
  uniqueCounterparties: bigint;
  tasksCompleted: bigint;
  notarizations: bigint;
  disputes: bigint;
  bidValues: TypedBid[];
  taskSelections: TaskSelection[];
  verifierIds: VerifierAssignment[];
  feedbackEvents: FeedbackEvent[];
  overflow: boolean;
  overflowDataHash: Uint8Array;
  logMerkleRoot: Uint8Array;
}

/** A batch with the agent's Ed25519 signature over its canonical bytes; travels as `[batch, signature]`. */
export interface SignedBatch {
  batch: BehaviorBatch;
  signature: Uint8Array;
}

/** Result of the batch decoders. Never thrown. */
export type BatchResult<T> = { ok: true; value: T } | { ok: false; reason: 'decode'; detail: string };

/** Largest batch accepted by the decoders: 4 arrays of MAX_BATCH_ENTRIES entries fit well below it. */
export const MAX_BATCH_BYTES = 1 << 20;

function u64(name: string, v: bigint): bigint {
  if (typeof v !== 'bigint') throw new TypeError(`${name} must be a bigint`);
  if (v < 0n || v > U64_MAX) throw new RangeError(`${name} out of u64 range`);
  return v;
}
function small(name: string, v: number, min: number, max: number): number {
  if (!Number.isInteger(v) || v < min || v > max) throw new RangeError(`${name} must be an integer in ${min}..${max}`);
  return v;
}
function b(name: string, v: Uint8Array, len: number): Uint8Array {
  assertBytes(name, v, len);
  return v;
}

function arraysToCbor(
  bids: TypedBid[],
  tasks: TaskSelection[],
  vers: VerifierAssignment[],
  fbs: FeedbackEvent[],
): CborValue[] {
  return [
    bids.map((x, i): CborValue => {
      if (typeof x.bidValue !== 'bigint' || x.bidValue < I128_MIN || x.bidValue > I128_MAX) {
        throw new RangeError(`bidValues[${i}].bidValue out of int128 range`);
      }
      return [
        b('conversationId', x.conversationId, 16),
        b('counterparty', x.counterparty, 32),
        x.bidValue,
        u64('slot', x.slot),
      ];
    }),
    tasks.map(
      (x): CborValue => [
        b('conversationId', x.conversationId, 16),
        b('counterparty', x.counterparty, 32),
        u64('slot', x.slot),
      ],
    ),
    vers.map(
      (x): CborValue => [
        b('conversationId', x.conversationId, 16),
        b('verifierId', x.verifierId, 32),
        u64('slot', x.slot),
      ],
    ),
    fbs.map(
      (x): CborValue => [
        b('conversationId', x.conversationId, 16),
        b('fromAgent', x.fromAgent, 32),
        small('score', x.score, -100, 100),
        small('outcome', x.outcome, 0, 2),
        small('role', x.role, 0, 1),
        u64('slot', x.slot),
        b('satiAttestationHash', x.satiAttestationHash, 32),
      ],
    ),
  ];
}

function batchToCbor(x: BehaviorBatch): CborValue {
  if (!Array.isArray(x.msgTypeCounts) || x.msgTypeCounts.length !== 16)
    throw new RangeError('msgTypeCounts must have 16 entries');
  for (const [name, arr] of [
    ['bidValues', x.bidValues],
    ['taskSelections', x.taskSelections],
    ['verifierIds', x.verifierIds],
    ['feedbackEvents', x.feedbackEvents],
  ] as const) {
    if (!Array.isArray(arr)) throw new TypeError(`${name} must be an array`);
    if (arr.length > MAX_BATCH_ENTRIES) throw new RangeError(`${name} has more than ${MAX_BATCH_ENTRIES} entries`);
  }
  if (typeof x.overflow !== 'boolean') throw new TypeError('overflow must be a boolean');
  return [
    b('agentId', x.agentId, 32),
    u64('epochNumber', x.epochNumber),
    u64('slotStart', x.slotStart),
    u64('slotEnd', x.slotEnd),
    u64('messageCount', x.messageCount),
    x.msgTypeCounts.map((c, i) => u64(`msgTypeCounts[${i}]`, c)),
    u64('uniqueCounterparties', x.uniqueCounterparties),
    u64('tasksCompleted', x.tasksCompleted),
    u64('notarizations', x.notarizations),
    u64('disputes', x.disputes),
    ...arraysToCbor(x.bidValues, x.taskSelections, x.verifierIds, x.feedbackEvents),
    x.overflow,
    b('overflowDataHash', x.overflowDataHash, 32),
    b('logMerkleRoot', x.logMerkleRoot, 32),
  ];
}

function capped(v: CborValue, field: string): CborValue[] {
  const a = asList(v, field);
  if (a.length > MAX_BATCH_ENTRIES) throw new RangeError(`${field}: more than ${MAX_BATCH_ENTRIES} entries`);
  return a;
}

function batchFromCbor(v: CborValue): BehaviorBatch {
  const a = asArray(v, 17, 'batch');
  const u = (i: number, f: string) => asInt(a[i], f, 0n, U64_MAX);
  return {
    agentId: asBytes(a[0], 'agent_id', 32),
    epochNumber: u(1, 'epoch_number'),
    slotStart: u(2, 'slot_start'),
    slotEnd: u(3, 'slot_end'),
    messageCount: u(4, 'message_count'),
    msgTypeCounts: asArray(a[5], 16, 'msg_type_counts').map((c) => asInt(c, 'msg_type_counts', 0n, U64_MAX)),
    uniqueCounterparties: u(6, 'unique_counterparties'),
    tasksCompleted: u(7, 'tasks_completed'),
    notarizations: u(8, 'notarizations'),
    disputes: u(9, 'disputes'),
    bidValues: capped(a[10], 'bid_values').map((e) => {
      const t = asArray(e, 4, 'TypedBid');
      return {
        conversationId: asBytes(t[0], 'conversation_id', 16),
        counterparty: asBytes(t[1], 'counterparty', 32),
        bidValue: asInt(t[2], 'bid_value', I128_MIN, I128_MAX),
        slot: asInt(t[3], 'slot', 0n, U64_MAX),
      };
    }),
    taskSelections: capped(a[11], 'task_selections').map((e) => {
      const t = asArray(e, 3, 'TaskSelection');
      return {
        conversationId: asBytes(t[0], 'conversation_id', 16),
        counterparty: asBytes(t[1], 'counterparty', 32),
        slot: asInt(t[2], 'slot', 0n, U64_MAX),
      };
    }),
    verifierIds: capped(a[12], 'verifier_ids').map((e) => {
      const t = asArray(e, 3, 'VerifierAssignment');
      return {
        conversationId: asBytes(t[0], 'conversation_id', 16),
        verifierId: asBytes(t[1], 'verifier_id', 32),
        slot: asInt(t[2], 'slot', 0n, U64_MAX),
      };
    }),
    feedbackEvents: capped(a[13], 'feedback_events').map((e) => {
      const t = asArray(e, 7, 'FeedbackEvent');
      return {
        conversationId: asBytes(t[0], 'conversation_id', 16),
        fromAgent: asBytes(t[1], 'from_agent', 32),
        score: Number(asInt(t[2], 'score', -100n, 100n)),
        outcome: Number(asInt(t[3], 'outcome', 0n, 2n)),
        role: Number(asInt(t[4], 'role', 0n, 1n)),
        slot: asInt(t[5], 'slot', 0n, U64_MAX),
        satiAttestationHash: asBytes(t[6], 'sati_attestation_hash', 32),
      };
    }),
    overflow: asBool(a[14], 'overflow'),
    overflowDataHash: asBytes(a[15], 'overflow_data_hash', 32),
    logMerkleRoot: asBytes(a[16], 'log_merkle_root', 32),
  };
}

function guard<T>(bytes: Uint8Array, f: (v: CborValue) => T): BatchResult<T> {
  if (!(bytes instanceof Uint8Array)) return { ok: false, reason: 'decode', detail: 'not a Uint8Array' };
  if (bytes.length > MAX_BATCH_BYTES)
    return { ok: false, reason: 'decode', detail: `size ${bytes.length} > ${MAX_BATCH_BYTES}` };
  try {
    return { ok: true, value: f(decodeCanonical(bytes)) };
  } catch (e) {
    return { ok: false, reason: 'decode', detail: e instanceof Error ? e.message : String(e) };
  }
}

/** Canonical CBOR of a batch (docs/protocol.md §6). Throws TypeError/RangeError naming a bad field. */
export function encodeBatch(batch: BehaviorBatch): Uint8Array {
  return encodeCanonical(batchToCbor(batch));
}

/** Strict decode of a batch (docs/protocol.md §1, §6). Never throws. */
export function decodeBatch(bytes: Uint8Array): BatchResult<BehaviorBatch> {
  return guard(bytes, batchFromCbor);
}

/** batch_hash = keccak256(canonical CBOR of the batch) (docs/protocol.md §6). */
export function batchHash(batch: BehaviorBatch): Uint8Array {
  return keccak256(encodeBatch(batch));
}

/** Signs the batch bytes with the agent's 32-byte Ed25519 seed (docs/protocol.md §6). */
export function signBatch(batch: BehaviorBatch, seed: Uint8Array): SignedBatch {
  return { batch, signature: ed25519Sign(encodeBatch(batch), seed) };
}

/** Canonical CBOR of `[batch, signature]` (docs/protocol.md §6). */
export function encodeSignedBatch(signed: SignedBatch): Uint8Array {
  return encodeCanonical([batchToCbor(signed.batch), b('signature', signed.signature, 64)]);
}

/** Strict decode of `[batch, signature]`. Never throws. */
export function decodeSignedBatch(bytes: Uint8Array): BatchResult<SignedBatch> {
  return guard(bytes, (v) => {
    const a = asArray(v, 2, 'signed batch');
    return { batch: batchFromCbor(a[0]), signature: asBytes(a[1], 'signature', 64) };
  });
}

/** True when the signature verifies over the batch's canonical bytes under `publicKey`. Never throws. */
export function verifySignedBatch(signed: SignedBatch, publicKey: Uint8Array): boolean {
  try {
    return ed25519Verify(signed.signature, encodeBatch(signed.batch), publicKey);
  } catch {
    return false;
  }
}

/**
 * overflow_data_hash over full (untruncated) arrays (docs/protocol.md §6):
 * keccak256(canonical CBOR of [bid_values, task_selections, verifier_ids, feedback_events]).
 */
export function overflowDataHashOf(
  bids: TypedBid[],
  tasks: TaskSelection[],
  vers: VerifierAssignment[],
  fbs: FeedbackEvent[],
): Uint8Array {
  return keccak256(encodeCanonical(arraysToCbor(bids, tasks, vers, fbs)));
}

/** The overflow hash the batch's own arrays give (docs/protocol.md §6); see {@link overflowDataHashOf}. */
export function overflowDataHash(batch: BehaviorBatch): Uint8Array {
  return overflowDataHashOf(batch.bidValues, batch.taskSelections, batch.verifierIds, batch.feedbackEvents);
}
