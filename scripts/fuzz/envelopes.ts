/**
 * The envelope phase of `npm run fuzz`: genuine signed envelopes built with lib/protocol, then
 * mutants of them (and pure random bytes) through the observer's own validation
 * (lib/observer/validation.ts: the live validator the mesh calls, and archive mode for uploads),
 * on the event loop so a million inputs take minutes. Invariants per input: nothing throws, a
 * refusal names a reason from REASON_CODES, and an accepted input is byte-identical to a genuine
 * envelope with the same id (a change to signed bytes never validates).
 */

import { CachedSignerRegistry } from '../../lib/observer/registry';
import { createValidation } from '../../lib/observer/validation';
import { publicKeyFromSeed, sha256 } from '../../lib/protocol/crypto';
import { buildEnvelope, envelopeId } from '../../lib/protocol/envelope';
import { toHex } from '../../lib/protocol/hex';
import { encodeFeedback, encodeNotarizeBid } from '../../lib/protocol/payloads';
import { MsgType, REASON_CODES } from '../../lib/protocol/types';
import { mutateBytes, mutateCbor, type Rng, randomInput } from './mutate';

export interface PhaseResult {
  passed: number;
  failed: number;
  /** First failures, for the report: what broke and the input in hex. */
  failures: string[];
  /** Inputs per kind, accepted counts, refusal reasons seen. */
  stats: Record<string, number>;
}

const REASONS = new Set<string>(REASON_CODES);

/** Genuine envelopes of several types and senders, timestamped at `nowMs`. */
export function genuineEnvelopes(nowMs: number, count = 64): { bytes: Uint8Array[]; keys: Map<string, Uint8Array[]> } {
  const keys = new Map<string, Uint8Array[]>();
  const bytes: Uint8Array[] = [];
  const conv = new Uint8Array(16).fill(7);
  for (let i = 0; i < count; i++) {
    const seed = sha256(new TextEncoder().encode(`fuzz/seed/${i % 8}`));
    const sender = sha256(new TextEncoder().encode(`fuzz/agent/${i % 8}`));
    keys.set(toHex(sender), [publicKeyFromSeed(seed)]);
    const kind = i % 4;
    const msgType = [MsgType.BEACON, MsgType.FEEDBACK, MsgType.NOTARIZE_BID, MsgType.PROPOSE][kind];
    const payload =
      kind === 1
        ? encodeFeedback({
            conversationId: conv,
            targetAgent: new Uint8Array(32).fill(2),
            score: (i % 201) - 100,
            outcome: i % 3,
            isDispute: i % 5 === 0,
            role: i % 2,
          })
        : kind === 2
          ? encodeNotarizeBid({ bidType: i % 2, conversationId: conv, terms: new Uint8Array(i % 40).fill(i) })
          : new Uint8Array((i * 7) % 300).fill(0x30 + (i % 10));
    const recipient = kind === 3 ? sha256(new TextEncoder().encode(`fuzz/agent/${(i + 1) % 8}`)) : undefined;
    bytes.push(
      buildEnvelope(
        {
          msgType,
          sender,
          recipient,
          timestamp: BigInt(nowMs) * 1000n - BigInt(i),
          nonce: BigInt(1000 + i),
          conversationId: conv,
          payload,
        },
        seed,
      ).bytes,
    );
  }
  return { bytes, keys };
}

/** Runs `n` inputs from `rng`; everything in-process, signatures on the event loop. */
export async function fuzzEnvelopes(rng: Rng, n: number, onProgress?: (done: number) => void): Promise<PhaseResult> {
  const nowMs = Date.now();
  const { bytes: originals, keys } = genuineEnvelopes(nowMs);
  const byId = new Map<string, Uint8Array>();
  for (const b of originals) byId.set(toHex(envelopeId(b)), b);
  const registry = new CachedSignerRegistry({
    source: { keysFor: async (id) => keys.get(toHex(id)) ?? [] },
    now: () => nowMs,
  });
  const validation = createValidation({ registry, clock: () => nowMs, verifyWorkers: 0 });
  const res: PhaseResult = { passed: 0, failed: 0, failures: [], stats: {} };
  const bump = (k: string) => {
    res.stats[k] = (res.stats[k] ?? 0) + 1;
  };
  const fail = (what: string, input: Uint8Array) => {
    if (res.failures.length < 20)
      res.failures.push(`${what}; input ${Buffer.from(input).toString('hex').slice(0, 400)}`);
  };
  const meta = { peer: 'fuzz', topic: '/0x01/v1/broadcast', via: 'gossip' as const };

  /** Checks one result; returns false (and records why) when an invariant broke. */
  const judge = (mode: string, input: Uint8Array, r: unknown): boolean => {
    if (r && typeof r === 'object' && 'ok' in r && (r as { ok: boolean }).ok === true) {
      const id = toHex((r as unknown as { id: Uint8Array }).id);
      const genuine = byId.get(id);
      if (
        !genuine ||
        Buffer.compare(Buffer.from(genuine), Buffer.from(input)) !== 0 ||
        toHex(envelopeId(input)) !== id
      ) {
        fail(
          `${mode}: WRONG ACCEPT (id ${id} ${genuine ? 'differs from the genuine bytes' : 'is no genuine envelope'})`,
          input,
        );
        return false;
      }
      bump(`${mode}_accepted`);
      return true;
    }
    const reason = r && typeof r === 'object' ? (r as { reason?: unknown }).reason : undefined;
    if (typeof reason !== 'string' || !REASONS.has(reason)) {
      fail(`${mode}: refusal without a named reason (${JSON.stringify(r)?.slice(0, 200)})`, input);
      return false;
    }
    bump(`reason_${reason}`);
    return true;
  };

  for (let i = 0; i < n; i++) {
    const base = originals[rng.int(originals.length)];
    const other = originals[rng.int(originals.length)];
    let input: Uint8Array;
    let kind: string;
    const roll = rng.int(100);
    if (roll < 2) {
      input = base;
      kind = 'genuine';
    } // the accept path stays exercised
    else if (roll < 12) {
      input = randomInput(rng);
      kind = 'random';
    } else if (roll < 50) {
      const m = mutateCbor(rng, base, other);
      input = m.out;
      kind = `cbor_${m.name}`;
    } else {
      // One to three stacked byte mutations.
      let m = mutateBytes(rng, base, other);
      for (let k = rng.int(3); k > 0; k--) m = mutateBytes(rng, m.out, other);
      input = m.out;
      kind = `bytes_${m.name}`;
    }
    bump(`input_${kind}`);
    let ok = true;
    try {
      // The live validator keeps per-sender nonces, so genuine repeats come back as `replay`.
      ok = judge('live', input, await validation.validateLive(input, meta)) && ok;
      const a = await validation.archive(input);
      ok = judge('archive', input, 'pending' in a ? await a.pending : a) && ok;
    } catch (e) {
      ok = false;
      fail(`exception ${String((e as Error)?.stack ?? e).slice(0, 300)}`, input);
    }
    if (ok) res.passed++;
    else res.failed++;
    if (onProgress && (i + 1) % 100_000 === 0) onProgress(i + 1);
  }
  await validation.close();
  return res;
}
