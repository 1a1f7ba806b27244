/**
 * Runs docs/protocol.md test vectors (format of vectors/README.md) against this library. Pure:
 * takes parsed JSON, returns per-case results; tests and scripts/run-vectors.ts do the I/O.
 */

import type { BehaviorBatch } from './batch';
import {
  batchHash,
  decodeBatch,
  decodeSignedBatch,
  encodeBatch,
  encodeSignedBatch,
  overflowDataHash,
  verifySignedBatch,
} from './batch';
import { decodeEnvelope, encodeEnvelope, signingPreimage } from './envelope';
import { fromHex, toHex } from './hex';
import { leafHash, logEntryOf, merkleProof, merkleRoot, verifyMerkleProof } from './merkle';
import { applyEpochDecay, applyFeedback, emptyReputation, type ReputationState } from './reputation';
import { validateEnvelopeSync } from './validate';

/** One vector's outcome. */
export interface VectorCase {
  name: string;
  ok: boolean;
  detail?: string;
}
/** One file's outcome. */
export interface VectorFileResult {
  kind: 'envelopes' | 'merkle' | 'batch' | 'reputation' | 'unknown';
  cases: VectorCase[];
}

// biome-ignore lint/suspicious/noExplicitAny: vector files are untyped JSON, checked field by field as they are read
type Json = any;

function check(cases: VectorCase[], name: string, f: () => string | undefined): void {
  try {
    const err = f();
    cases.push(err ? { name, ok: false, detail: err } : { name, ok: true });
  } catch (e) {
    cases.push({ name, ok: false, detail: `threw: ${e instanceof Error ? e.message : String(e)}` });
  }
}

const eq = (what: string, got: string, want: string | undefined) =>
  want === undefined || got === want ? undefined : `${what}: got ${got}, want ${want}`;

function runEnvelopes(d: Json): VectorCase[] {
  const cases: VectorCase[] = [];
  const registry = {
    keysFor: (id: Uint8Array) => (d.registry?.[toHex(id)] ?? []).map((k: string) => fromHex(k)),
  };
  const nowUs = BigInt(d.now_us);
  const one = (v: Json, nonces: Map<string, bigint>) => {
    const bytes = fromHex(v.hex);
    const r = validateEnvelopeSync(bytes, { mode: 'live', registry, nonces, nowUs });
    const got = r.ok ? 'valid' : r.reason;
    if (got !== v.expect) return `expected ${v.expect}, got ${got}${!r.ok && r.detail ? ` (${r.detail})` : ''}`;
    if (v.size !== undefined && bytes.length !== Number(v.size)) return `size ${bytes.length} != ${v.size}`;
    if (!r.ok) return undefined;
    const dec = decodeEnvelope(bytes);
    if (!dec.ok) return 'valid but decodeEnvelope failed';
    return (
      eq('envelope_id', toHex(r.id), v.envelope_id) ??
      eq('preimage', toHex(signingPreimage(r.envelope)), v.preimage) ??
      eq('re-encoding', toHex(encodeEnvelope(dec.envelope)), v.hex)
    );
  };
  for (const v of d.vectors ?? []) check(cases, v.name, () => one(v, new Map()));
  const seq = new Map<string, bigint>();
  for (const v of d.replay_sequence ?? []) check(cases, `replay_sequence/${v.name}`, () => one(v, seq));
  return cases;
}

function runMerkle(d: Json): VectorCase[] {
  const cases: VectorCase[] = [];
  for (const c of d.cases ?? []) {
    check(cases, `merkle n=${c.n}`, () => {
      const envs = (c.envelopes as string[]).map((h) => {
        const r = decodeEnvelope(fromHex(h));
        if (!r.ok) throw new Error(`envelope does not decode: ${r.detail}`);
        return r.envelope;
      });
      if (envs.length !== Number(c.n)) return `n=${c.n} but ${envs.length} envelopes`;
      const entries = envs.map(logEntryOf);
      const leaves = entries.map(leafHash);
      for (let i = 0; i < envs.length; i++) {
        const err = eq(`entry ${i}`, toHex(entries[i]), c.entries[i]) ?? eq(`leaf ${i}`, toHex(leaves[i]), c.leaves[i]);
        if (err) return err;
      }
      const root = merkleRoot(leaves);
      const err = eq('root', toHex(root), c.root);
      if (err) return err;
      for (const p of c.proofs ?? []) {
        const mine = merkleProof(leaves, p.index);
        const e2 = eq(`proof ${p.index}`, mine.siblings.map(toHex).join(','), p.siblings.join(','));
        if (e2) return e2;
        const proof = { index: p.index, siblings: p.siblings.map(fromHex) };
        if (!verifyMerkleProof(leaves[p.index], proof, root)) return `proof ${p.index} does not verify`;
      }
      if ((c.proofs ?? []).length !== envs.length)
        return `expected ${envs.length} proofs, got ${(c.proofs ?? []).length}`;
      return undefined;
    });
  }
  return cases;
}

/** A BehaviorBatch from the `fields` object of batch.json. */
export function batchFromVectorFields(f: Json): BehaviorBatch {
  const B = (s: string) => BigInt(s);
  return {
    agentId: fromHex(f.agent_id),
    epochNumber: B(f.epoch_number),
    slotStart: B(f.slot_start),
    slotEnd: B(f.slot_end),
    messageCount: B(f.message_count),
    msgTypeCounts: f.msg_type_counts.map(B),
    uniqueCounterparties: B(f.unique_counterparties),
    tasksCompleted: B(f.tasks_completed),
    notarizations: B(f.notarizations),
    disputes: B(f.disputes),
    bidValues: f.bid_values.map((x: string[]) => ({
      conversationId: fromHex(x[0]),
      counterparty: fromHex(x[1]),
      bidValue: B(x[2]),
      slot: B(x[3]),
    })),
    taskSelections: f.task_selections.map((x: string[]) => ({
      conversationId: fromHex(x[0]),
      counterparty: fromHex(x[1]),
      slot: B(x[2]),
    })),
    verifierIds: f.verifier_ids.map((x: string[]) => ({
      conversationId: fromHex(x[0]),
      verifierId: fromHex(x[1]),
      slot: B(x[2]),
    })),
    feedbackEvents: f.feedback_events.map((x: string[]) => ({
      conversationId: fromHex(x[0]),
      fromAgent: fromHex(x[1]),
      score: Number(x[2]),
      outcome: Number(x[3]),
      role: Number(x[4]),
      slot: B(x[5]),
      satiAttestationHash: fromHex(x[6]),
    })),
    overflow: f.overflow,
    overflowDataHash: fromHex(f.overflow_data_hash),
    logMerkleRoot: fromHex(f.log_merkle_root),
  };
}

function runBatch(d: Json): VectorCase[] {
  const cases: VectorCase[] = [];
  const batch = () => batchFromVectorFields(d.fields);
  check(cases, 'batch encode', () => eq('cbor', toHex(encodeBatch(batch())), d.cbor));
  check(cases, 'batch decode', () => {
    const r = decodeBatch(fromHex(d.cbor));
    if (!r.ok) return r.detail;
    return eq('re-encoding', toHex(encodeBatch(r.value)), d.cbor);
  });
  check(cases, 'batch_hash', () => eq('batch_hash', toHex(batchHash(batch())), d.batch_hash));
  check(cases, 'signed batch', () => {
    const r = decodeSignedBatch(fromHex(d.signed));
    if (!r.ok) return r.detail;
    if (!verifySignedBatch(r.value, fromHex(d.signer))) return 'signature does not verify under signer';
    if (toHex(r.value.batch.agentId) !== (d.agent ?? d.fields.agent_id)) return 'agent mismatch';
    return eq('re-encoding', toHex(encodeSignedBatch(r.value)), d.signed);
  });
  check(cases, 'overflow_data_hash', () =>
    eq('overflow hash', toHex(overflowDataHash(batch())), d.overflow_data_hash_if_overflowed),
  );
  return cases;
}

const REP_FIELDS: [keyof ReputationState, string][] = [
  ['reliabilityScore', 'reliability_score'],
  ['cooperationIndex', 'cooperation_index'],
  ['notaryAccuracy', 'notary_accuracy'],
  ['totalTasks', 'total_tasks'],
  ['totalNotarized', 'total_notarized'],
  ['totalDisputes', 'total_disputes'],
];

function runReputation(d: Json): VectorCase[] {
  const cases: VectorCase[] = [];
  let state = emptyReputation();
  const compare = (want: Json) => {
    for (const [k, j] of REP_FIELDS) {
      if (want[j] === undefined) continue;
      const err = eq(j, state[k].toString(), String(want[j]));
      if (err) return err;
    }
    return undefined;
  };
  (d.steps ?? []).forEach((s: Json, i: number) =>
    check(cases, `reputation step ${i + 1}`, () => {
      const f = s.feedback;
      state = applyFeedback(state, {
        score: Number(f.score),
        outcome: Number(f.outcome),
        isDispute: Number(f.is_dispute) === 1,
        role: Number(f.role),
      });
      return compare(s.after);
    }),
  );
  if (d.decayed_once) {
    check(cases, 'reputation decay', () => {
      state = applyEpochDecay(state);
      return compare(d.decayed_once);
    });
  }
  return cases;
}

/** Runs one parsed vector file; the kind is recognised from its keys. Empty files fail. */
export function runVectorFile(d: Json): VectorFileResult {
  if (!d || typeof d !== 'object')
    return { kind: 'unknown', cases: [{ name: 'file', ok: false, detail: 'not a JSON object' }] };
  let res: VectorFileResult;
  if (Array.isArray(d.vectors)) res = { kind: 'envelopes', cases: runEnvelopes(d) };
  else if (Array.isArray(d.cases)) res = { kind: 'merkle', cases: runMerkle(d) };
  else if (d.fields && d.cbor) res = { kind: 'batch', cases: runBatch(d) };
  else if (Array.isArray(d.steps)) res = { kind: 'reputation', cases: runReputation(d) };
  else return { kind: 'unknown', cases: [{ name: 'file', ok: false, detail: 'unrecognised vector format' }] };
  if (res.cases.length === 0) res.cases.push({ name: 'file', ok: false, detail: 'no vectors in file' });
  return res;
}
