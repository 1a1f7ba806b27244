/**
 * The portable log-entry, merkle and NEG1 readers (programs/include: zx_batch.h, zx_merkle.h),
 * run on the host against the repo's vectors and differentially against lib/protocol.
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { keccak256 } from '../../../lib/protocol/crypto';
import { decodeEnvelope, signingPreimage } from '../../../lib/protocol/envelope';
import { fromHex } from '../../../lib/protocol/hex';
import { merkleProof, merkleRoot } from '../../../lib/protocol/merkle';
import { decodeNeg1, encodeNeg1, type Neg1Payload } from '../../../lib/protocol/neg1';
import { hex, M64, mutations, pad16, useHost, vec } from './harness';

const merkleVec = vec('merkle.json');
const envVec = vec('envelopes.json');
const host = useHost();

describe('log entry reader (docs/protocol.md §2, §5)', () => {
  test('merkle.json entries and envelopes.json vectors: fields and preimage as lib/protocol', () => {
    const all: string[] = [];
    for (const c of merkleVec.cases) all.push(...c.entries, ...c.envelopes);
    for (const v of envVec.vectors) all.push(v.hex);
    const out = host(all.map((h) => `entry ${h}`));
    let ok = 0;
    all.forEach((h, i) => {
      const bytes = fromHex(h);
      const d = decodeEnvelope(bytes);
      assert.equal(out[i].startsWith('ok'), d.ok, `${i}: ${out[i]}`);
      if (!d.ok) return;
      ok++;
      const e = d.envelope;
      const p = out[i].split(' ');
      assert.deepEqual(p.slice(1, 8).map(BigInt), [
        BigInt(e.version),
        BigInt(e.msgType),
        e.timestamp,
        e.blockRef,
        e.nonce,
        BigInt(e.payloadLen),
        BigInt(e.payload.length),
      ]);
      assert.deepEqual(p.slice(9), [
        hex(e.sender),
        hex(e.recipient),
        hex(e.conversationId),
        hex(e.payloadHash),
        hex(e.signature),
      ]);
      const pe = Number(p[8]);
      const pre = Uint8Array.of(0x8a, ...bytes.subarray(1, pe));
      assert.deepEqual(pre, signingPreimage(e));
    });
    assert.ok(ok > 20);
  });

  test('mutated entries: accepted exactly when lib/protocol accepts them', () => {
    const base = fromHex(merkleVec.cases[2].entries[0]);
    const cases = mutations(base, 800, 3);
    const out = host(cases.map((b) => `entry ${hex(b)}`));
    cases.forEach((b, i) => assert.equal(out[i].startsWith('ok'), decodeEnvelope(b).ok, hex(b)));
  });
});

describe('merkle inclusion (docs/protocol.md §5)', () => {
  test('every vector proof verifies; a flipped sibling, a wrong index or root does not', () => {
    const lines: string[] = [];
    const want: string[] = [];
    for (const c of merkleVec.cases) {
      c.proofs.forEach((p: { index: number; siblings: string[] }, i: number) => {
        const sib = p.siblings.join('') || '-';
        lines.push(`merkle ${c.leaves[i]} ${p.index} ${c.root} ${sib}`);
        want.push('ok');
        lines.push(`merkle ${c.leaves[i]} ${p.index ^ 1} ${c.root} ${sib}`);
        want.push(p.siblings.length ? 'bad' : 'bad'); // index 1 with depth 0 is out of range too
        lines.push(`merkle ${c.leaves[i]} ${p.index + (1 << p.siblings.length)} ${c.root} ${sib}`);
        want.push('bad');
        if (p.siblings.length) {
          const flipped = (p.siblings[0][0] === '0' ? '1' : '0') + sib.slice(1);
          lines.push(`merkle ${c.leaves[i]} ${p.index} ${c.root} ${flipped}`);
          want.push('bad');
        }
      });
    }
    assert.deepEqual(host(lines), want);
  });

  test('proofs of lib/protocol trees of 1..40 leaves', () => {
    const lines: string[] = [];
    for (let n = 1; n <= 40; n++) {
      const leaves = Array.from({ length: n }, (_, i) => keccak256(Uint8Array.of(n, i)));
      const root = merkleRoot(leaves);
      for (let i = 0; i < n; i += 3) {
        const p = merkleProof(leaves, i);
        lines.push(`merkle ${hex(leaves[i])} ${i} ${hex(root)} ${p.siblings.map(hex).join('') || '-'}`);
      }
    }
    assert.ok(host(lines).every((l) => l === 'ok'));
  });
});

const neg1 = (bidValue: bigint, over: Partial<Neg1Payload> = {}): Neg1Payload => ({
  bidValue,
  tokenMint: new Uint8Array(32),
  serviceHash: new Uint8Array(32).fill(5),
  round: 1,
  deadline: 0n,
  decayBps: 100,
  maxRounds: 5,
  verification: { tier: 1, testSuiteHash: new Uint8Array(0) },
  reason: 0,
  metadata: new Uint8Array(0),
  ...over,
});

describe('NEG1 bid_value (docs/protocol.md §8)', () => {
  test('int128 values incl. bignum tags 2/3 and the range ends', () => {
    const values = [
      0n,
      1n,
      -1n,
      23n,
      24n,
      1500000n,
      -1267650600228229401496703205376n,
      M64,
      M64 + 1n,
      -M64 - 1n,
      -M64 - 2n,
      (1n << 127n) - 1n,
      -(1n << 127n),
      1n << 100n,
    ];
    const out = host(values.map((v) => `neg1 ${hex(encodeNeg1(neg1(v)))}`));
    assert.deepEqual(
      out,
      values.map((v) => `ok ${pad16(v)}`),
    );
  });

  test('envelope vectors with NEG1 payloads', () => {
    const lines: string[] = [];
    const want: string[] = [];
    for (const v of envVec.vectors) {
      const d = decodeEnvelope(fromHex(v.hex));
      if (!d.ok) continue;
      const n = decodeNeg1(d.envelope.payload);
      lines.push(`neg1 ${hex(d.envelope.payload)}`);
      want.push(n.ok ? `ok ${pad16(n.value.bidValue)}` : 'err');
    }
    const out = host(lines);
    assert.deepEqual(out, want);
    assert.ok(want.filter((w) => w.startsWith('ok')).length >= 3);
  });

  test('mutated NEG1 payloads: accepted exactly when lib/protocol accepts them', () => {
    const bases = [
      encodeNeg1(
        neg1(-(1n << 100n), {
          metadata: new Uint8Array(64).fill(1),
          verification: { tier: 2, testSuiteHash: new Uint8Array(32).fill(9) },
        }),
      ),
      encodeNeg1(neg1(7n)),
    ];
    const cases: Uint8Array[] = [];
    for (const base of bases) cases.push(...mutations(base, 700, 11));
    const out = host(cases.map((b) => `neg1 ${hex(b)}`));
    cases.forEach((b, i) => {
      const d = decodeNeg1(b);
      // lib/protocol also refuses round > 2^53 (a JS number limit); docs/protocol.md says uint, the C reader takes any
      // u64
      if (!d.ok && d.detail.includes('2^53')) return;
      assert.equal(out[i].startsWith('ok'), d.ok, `${hex(b)} ${d.ok ? '' : d.detail}`);
      if (d.ok) assert.equal(out[i], `ok ${pad16(d.value.bidValue)}`);
    });
  });
});
