import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { ed25519Verify, publicKeyFromSeed, sha256 } from './crypto';
import { buildEnvelope, decodeEnvelope, signingPreimage } from './envelope';
import { toHex } from './hex';
import { encodeFeedback } from './payloads';
import { MsgType, type ValidationResult } from './types';
import { finishValidation, prepareValidation, validateEnvelopeSync } from './validate';

fc.configureGlobal({ seed: 0x5911, numRuns: 150 });

const enc = new TextEncoder();
const seeds = [0, 1, 2].map((i) => sha256(enc.encode(`split/seed/${i}`)));
const ids = [0, 1, 2, 3].map((i) => sha256(enc.encode(`split/id/${i}`)));
// Agent 0 has two keys (owner and delegate), 1 and 2 one each, 3 none (unregistered).
const keys = new Map<string, Uint8Array[]>([
  [toHex(ids[0]), [publicKeyFromSeed(seeds[2]), publicKeyFromSeed(seeds[0])]],
  [toHex(ids[1]), [publicKeyFromSeed(seeds[1])]],
  [toHex(ids[2]), [publicKeyFromSeed(seeds[2])]],
]);
const registry = { keysFor: (id: Uint8Array) => keys.get(toHex(id)) ?? [] };
const NOW_US = 1_800_000_000_000_000n;

type Op = { sender: number; signer: number; nonce: number; skewS: number; type: number; mutate: number; at: number };
const opArb: fc.Arbitrary<Op> = fc.record({
  sender: fc.integer({ min: 0, max: 3 }),
  signer: fc.integer({ min: 0, max: 2 }),
  nonce: fc.integer({ min: 1, max: 12 }),
  skewS: fc.constantFrom(0, 0, 0, 5, -29, 31, -45),
  type: fc.constantFrom(MsgType.BEACON, MsgType.PROPOSE, MsgType.FEEDBACK),
  mutate: fc.integer({ min: 0, max: 6 }),
  at: fc.nat(),
});

function bytesOf(op: Op): Uint8Array {
  const payload =
    op.type === MsgType.FEEDBACK
      ? encodeFeedback({
          conversationId: new Uint8Array(16).fill(3),
          targetAgent: ids[1],
          score: 40,
          outcome: 2,
          isDispute: false,
          role: 0,
        })
      : new Uint8Array(40).fill(op.nonce);
  const b = buildEnvelope(
    {
      msgType: op.type,
      sender: ids[op.sender],
      timestamp: NOW_US + BigInt(op.skewS) * 1_000_000n,
      nonce: BigInt(op.nonce),
      conversationId: new Uint8Array(16).fill(op.sender),
      payload,
    },
    seeds[op.signer],
  ).bytes.slice();
  // 0, 1: as signed; 2: a signature byte; 3: a payload byte; 4: the version; 5: truncated; 6: any byte
  if (op.mutate === 2) b[b.length - 1 - (op.at % 64)] ^= 1;
  else if (op.mutate === 3) b[b.length - 70] ^= 0x20;
  else if (op.mutate === 4) b[1] = 2;
  else if (op.mutate === 5) return b.subarray(0, op.at % b.length);
  else if (op.mutate === 6) b[op.at % b.length] ^= 1 << (op.at % 8);
  return b;
}

/** The split path as a worker-backed caller runs it: prepare, verify elsewhere, finish. */
function split(bytes: Uint8Array, nonces: Map<string, bigint>, mode: 'live' | 'archive'): ValidationResult {
  const p = prepareValidation(bytes, registry);
  if ('ok' in p) return p;
  let verified = false;
  for (const k of p.keys) verified ||= ed25519Verify(p.signature, p.preimage, k);
  return finishValidation(p, verified, mode === 'live' ? { mode, nonces, nowUs: NOW_US } : { mode });
}

const view = (r: ValidationResult) => (r.ok ? `ok ${toHex(r.id)}` : `${r.reason}${r.detail ? `: ${r.detail}` : ''}`);

describe('validation split around the signature (prepareValidation + finishValidation)', () => {
  test('a sequence of envelopes gets the same results and nonce state as validateEnvelopeSync', () => {
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 25 }), (ops) => {
        const a = new Map<string, bigint>();
        const b = new Map<string, bigint>();
        for (const op of ops) {
          const bytes = bytesOf(op);
          const want = validateEnvelopeSync(bytes.slice(), { mode: 'live', registry, nonces: a, nowUs: NOW_US });
          assert.equal(view(split(bytes.slice(), b, 'live')), view(want));
          assert.equal(
            view(split(bytes.slice(), b, 'archive')),
            view(validateEnvelopeSync(bytes.slice(), { mode: 'archive', registry })),
          );
        }
        assert.deepEqual([...b].sort(), [...a].sort());
      }),
    );
  });

  test('every reason the sequence can produce occurs (the property above is not vacuous)', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.array(opArb, { minLength: 1, maxLength: 25 }), (ops) => {
        const n = new Map<string, bigint>();
        for (const op of ops) {
          const r = split(bytesOf(op), n, 'live');
          seen.add(r.ok ? 'ok' : r.reason);
        }
      }),
    );
    for (const r of ['ok', 'decode', 'version', 'unregistered', 'signature', 'replay', 'timestamp', 'payload_hash'])
      assert.ok(seen.has(r), `never saw ${r}: ${[...seen]}`);
  });

  test('the prepared preimage is the §2 signing preimage; the envelope bytes are left as they were', () => {
    const bytes = bytesOf({ sender: 1, signer: 1, nonce: 3, skewS: 0, type: MsgType.BEACON, mutate: 0, at: 0 });
    const before = toHex(bytes);
    const p = prepareValidation(bytes, registry);
    assert.ok(!('ok' in p));
    const d = decodeEnvelope(bytes);
    assert.ok(d.ok);
    assert.equal(toHex(p.preimage), toHex(signingPreimage(d.envelope)));
    assert.equal(toHex(bytes), before);
    assert.equal(p.keys.length, 1);
  });

  test('finishValidation checks its parameters', () => {
    const p = prepareValidation(
      bytesOf({ sender: 1, signer: 1, nonce: 3, skewS: 0, type: MsgType.BEACON, mutate: 0, at: 0 }),
      registry,
    );
    assert.ok(!('ok' in p));
    assert.throws(() => finishValidation(p, true, { mode: 'live', nowUs: NOW_US }), /nonces/);
    assert.throws(() => finishValidation(p, true, { mode: 'nope' as 'live' }), /mode/);
    assert.throws(() => prepareValidation(new Uint8Array(1), {} as never), /registry/);
  });
});
