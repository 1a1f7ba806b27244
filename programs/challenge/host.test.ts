/**
 * The portable C readers of the challenge program, run on the host against the PROTOCOL.md
 * vectors and differentially against lib/protocol (the TypeScript decoders).
 */
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { buildHost, runHost, hex } from './host-harness';
import { decodeBatch, encodeBatch, type BehaviorBatch } from '../../lib/protocol/batch';
import { decodeEnvelope, signingPreimage } from '../../lib/protocol/envelope';
import { decodeNeg1, encodeNeg1, type Neg1Payload } from '../../lib/protocol/neg1';
import { keccak256, publicKeyFromSeed } from '../../lib/protocol/crypto';
import { merkleProof, merkleRoot } from '../../lib/protocol/merkle';
import { fromHex } from '../../lib/protocol/hex';
import { encodeCanonical } from '../../lib/protocol/cbor';

const vec = (name: string) => JSON.parse(readFileSync(new URL(`../../../shared/vectors/${name}`, import.meta.url), 'utf8'));
const batchVec = vec('batch.json');
const merkleVec = vec('merkle.json');
const envVec = vec('envelopes.json');

const M64 = (1n << 64n) - 1n;
const lohi = (v: bigint) => {
  const u = BigInt.asUintN(128, v);
  return `${(u & M64).toString(16)} ${(u >> 64n).toString(16)}`;
};
const pad16 = (v: bigint) => {
  const u = BigInt.asUintN(128, v);
  return `${(u & M64).toString(16).padStart(16, '0')} ${(u >> 64n).toString(16).padStart(16, '0')}`;
};

let bin = '';
const host = (lines: string[]) => runHost(bin, lines);

before(() => {
  const b = buildHost();
  if (!b) throw new Error('no C compiler (clang-19 or cc): apt-get install clang-19');
  bin = b;
});

describe('keccak reference (host only)', () => {
  test('matches lib/protocol keccak256 across the rate boundary', () => {
    const inputs = [0, 1, 135, 136, 137, 272, 1000].map((n) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 0xff));
    const out = host(inputs.map((b) => `keccak ${hex(b)}`));
    assert.deepEqual(out, inputs.map((b) => Buffer.from(keccak256(b)).toString('hex')));
  });
});

describe('BehaviorBatch reader (PROTOCOL.md §6)', () => {
  const f = batchVec.fields;
  test('vector batch: fields, counts, root', () => {
    const [line] = host([`batch ${batchVec.cbor}`]);
    assert.equal(line, `ok ${f.epoch_number} ${f.message_count} 2 1 1 2 0 0 ${f.agent_id} ${f.log_merkle_root} ${f.overflow_data_hash}`);
  });

  test('finds every reported bid, task and verifier, and nothing altered', () => {
    const lines: string[] = [];
    const want: string[] = [];
    for (const [conv, cp, value] of f.bid_values) {
      lines.push(`batch ${batchVec.cbor} 1 ${conv} ${cp} ${lohi(BigInt(value))}`);
      want.push('1');
      lines.push(`batch ${batchVec.cbor} 1 ${conv} ${cp} ${lohi(BigInt(value) + 1n)}`);
      want.push('0');
      lines.push(`batch ${batchVec.cbor} 1 ${conv} ${'00'.repeat(32)} ${lohi(BigInt(value))}`);
      want.push('0');
    }
    const [tc, tcp] = f.task_selections[0];
    lines.push(`batch ${batchVec.cbor} 2 ${tc} ${tcp} 0 0`);
    want.push('2');
    lines.push(`batch ${batchVec.cbor} 2 ${'ff'.repeat(16)} ${tcp} 0 0`);
    want.push('0');
    const [vc, vid] = f.verifier_ids[0];
    lines.push(`batch ${batchVec.cbor} 4 ${vc} ${vid} 0 0`);
    want.push('4');
    lines.push(`batch ${batchVec.cbor} 4 ${vc} ${tcp} 0 0`); // a counterparty is not the verifier
    want.push('0');
    // ACCEPT needs both: bid and task of the same conversation/counterparty
    lines.push(`batch ${batchVec.cbor} 3 ${tc} ${tcp} ${lohi(BigInt(f.bid_values[0][2]))}`);
    want.push('3');
    const found = host(lines).map((l) => l.split(' ')[8]);
    assert.deepEqual(found, want);
  });

  test('1,000 entries per array: counts and the last entry found', () => {
    const big = bigBatch(1000);
    const bytes = encodeBatch(big);
    const last = big.bidValues[999];
    const [line] = host([`batch ${hex(bytes)} 1 ${hex(last.conversationId)} ${hex(last.counterparty)} ${lohi(last.bidValue)}`]);
    const p = line.split(' ');
    assert.deepEqual(p.slice(0, 9), ['ok', '7', '4000', '1000', '1000', '1000', '1000', '0', '1']);
    assert.deepEqual(rawBatch(big), bytes);
    // 1,001 entries (encodeBatch refuses to make them): the C reader refuses too
    const tooMany = rawBatch({ ...big, verifierIds: [...big.verifierIds, big.verifierIds[0]] });
    assert.deepEqual(host([`batch ${hex(tooMany)}`]), ['err']);
  });

  test('accepts exactly what lib/protocol decodeBatch accepts (mutations and random bytes)', () => {
    const base = fromHex(batchVec.cbor);
    const cases: Uint8Array[] = [];
    fc.assert(
      fc.property(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 3 }), (pos, byte, kind) => {
        const b = Array.from(base);
        if (kind === 0) b[pos] = byte;
        else if (kind === 1) b.splice(pos, 1);
        else if (kind === 2) b.splice(pos, 0, byte);
        else b.length = pos;
        cases.push(Uint8Array.from(b));
      }),
      { numRuns: 1500, seed: 42 },
    );
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (b) => { cases.push(b); }), { numRuns: 300, seed: 7 });
    const out = host(cases.map((b) => `batch ${hex(b)}`));
    let accepted = 0;
    cases.forEach((b, i) => {
      const ts = decodeBatch(b).ok;
      if (ts) accepted++;
      assert.equal(out[i].startsWith('ok'), ts, `case ${i} ${hex(b)}: C ${out[i]} vs TS ${ts}`);
    });
    assert.ok(accepted > 50, `some mutations stay valid (${accepted})`);
  });
});

describe('log entry reader (PROTOCOL.md §2, §5)', () => {
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
      assert.deepEqual(p.slice(1, 8).map(BigInt), [BigInt(e.version), BigInt(e.msgType), e.timestamp, e.blockRef, e.nonce, BigInt(e.payloadLen), BigInt(e.payload.length)]);
      assert.deepEqual(p.slice(9), [hex(e.sender), hex(e.recipient), hex(e.conversationId), hex(e.payloadHash), hex(e.signature)]);
      const pe = Number(p[8]);
      const pre = Uint8Array.of(0x8a, ...bytes.subarray(1, pe));
      assert.deepEqual(pre, signingPreimage(e));
    });
    assert.ok(ok > 20);
  });

  test('mutated entries: accepted exactly when lib/protocol accepts them', () => {
    const base = fromHex(merkleVec.cases[2].entries[0]);
    const cases: Uint8Array[] = [];
    fc.assert(
      fc.property(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 3 }), (pos, byte, kind) => {
        const b = Array.from(base);
        if (kind === 0) b[pos] = byte;
        else if (kind === 1) b.splice(pos, 1);
        else if (kind === 2) b.splice(pos, 0, byte);
        else b.length = pos;
        cases.push(Uint8Array.from(b));
      }),
      { numRuns: 800, seed: 3 },
    );
    const out = host(cases.map((b) => `entry ${hex(b)}`));
    cases.forEach((b, i) => assert.equal(out[i].startsWith('ok'), decodeEnvelope(b).ok, hex(b)));
  });
});

describe('merkle inclusion (PROTOCOL.md §5)', () => {
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
  bidValue, tokenMint: new Uint8Array(32), serviceHash: new Uint8Array(32).fill(5), round: 1, deadline: 0n,
  decayBps: 100, maxRounds: 5, verification: { tier: 1, testSuiteHash: new Uint8Array(0) }, reason: 0,
  metadata: new Uint8Array(0), ...over,
});

describe('NEG1 bid_value (PROTOCOL.md §8)', () => {
  test('int128 values incl. bignum tags 2/3 and the range ends', () => {
    const values = [0n, 1n, -1n, 23n, 24n, 1500000n, -1267650600228229401496703205376n, M64, M64 + 1n, -M64 - 1n, -M64 - 2n,
      (1n << 127n) - 1n, -(1n << 127n), 1n << 100n];
    const out = host(values.map((v) => `neg1 ${hex(encodeNeg1(neg1(v)))}`));
    assert.deepEqual(out, values.map((v) => `ok ${pad16(v)}`));
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
    const bases = [encodeNeg1(neg1(-(1n << 100n), { metadata: new Uint8Array(64).fill(1), verification: { tier: 2, testSuiteHash: new Uint8Array(32).fill(9) } })), encodeNeg1(neg1(7n))];
    const cases: Uint8Array[] = [];
    for (const base of bases) {
      fc.assert(
        fc.property(fc.nat(base.length - 1), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 3 }), (pos, byte, kind) => {
          const b = Array.from(base);
          if (kind === 0) b[pos] = byte;
          else if (kind === 1) b.splice(pos, 1);
          else if (kind === 2) b.splice(pos, 0, byte);
          else b.length = pos;
          cases.push(Uint8Array.from(b));
        }),
        { numRuns: 700, seed: 11 },
      );
    }
    const out = host(cases.map((b) => `neg1 ${hex(b)}`));
    cases.forEach((b, i) => {
      const d = decodeNeg1(b);
      // lib/protocol also refuses round > 2^53 (a JS number limit); PROTOCOL.md says uint, the C reader takes any u64
      if (!d.ok && d.detail.includes('2^53')) return;
      assert.equal(out[i].startsWith('ok'), d.ok, `${hex(b)} ${d.ok ? '' : d.detail}`);
      if (d.ok) assert.equal(out[i], `ok ${pad16(d.value.bidValue)}`);
    });
  });
});

/** Instructions sysvar bytes for instructions given as [programId, data] (no accounts). */
export function instructionsSysvar(ixs: [Uint8Array, Uint8Array][], current: number): Uint8Array {
  const parts: number[] = [];
  const header = 2 + 2 * ixs.length;
  const bodies = ixs.map(([pid, data]) => [0, 0, ...pid, data.length & 0xff, data.length >> 8, ...data]);
  const u16 = (v: number) => [v & 0xff, v >> 8];
  parts.push(...u16(ixs.length));
  let off = header;
  for (const b of bodies) { parts.push(...u16(off)); off += b.length; }
  for (const b of bodies) parts.push(...b);
  parts.push(...u16(current));
  return Uint8Array.from(parts);
}

/** Ed25519 program data holding one signature (all offsets inside the instruction itself). */
export function ed25519Data(pk: Uint8Array, sig: Uint8Array, msg: Uint8Array, ixIndex = 0xffff): Uint8Array {
  const start = 2 + 14;
  const d = new Uint8Array(start + 32 + 64 + msg.length);
  const dv = new DataView(d.buffer);
  d[0] = 1;
  const pko = start, so = start + 32, mo = start + 96;
  [so, ixIndex, pko, ixIndex, mo, msg.length, ixIndex].forEach((v, i) => dv.setUint16(2 + i * 2, v, true));
  d.set(pk, pko); d.set(sig, so); d.set(msg, mo);
  return d;
}

describe('Ed25519 instruction introspection', () => {
  const ED = fromHex('037d46d67c93fbbe12f9428f838d40ff05707449' + '27f48a64fcca704480000000');
  const OTHER = new Uint8Array(32).fill(3);
  const pk = new Uint8Array(32).fill(0xaa);
  const sig = new Uint8Array(64).fill(0xbb);
  const msg = Uint8Array.from({ length: 150 }, (_, i) => i);
  test('finds the matching signature; refuses any other key, signature, message or foreign offsets', () => {
    const good = instructionsSysvar([[OTHER, Uint8Array.of(1, 2)], [ED, ed25519Data(pk, sig, msg)], [OTHER, new Uint8Array(9)]], 2);
    const self1 = instructionsSysvar([[OTHER, Uint8Array.of(1, 2)], [ED, ed25519Data(pk, sig, msg, 1)]], 1);
    const foreign = instructionsSysvar([[OTHER, Uint8Array.of(1, 2)], [ED, ed25519Data(pk, sig, msg, 0)]], 1);
    const notEd = instructionsSysvar([[OTHER, ed25519Data(pk, sig, msg)]], 1);
    const m = hex(msg);
    const lines = [
      `ed ${hex(good)} ${hex(pk)} ${hex(sig)} ${m.slice(0, 2)} ${m.slice(2)}`,
      `ed ${hex(good)} ${hex(pk)} - - ${m}`,
      `ed ${hex(self1)} ${hex(pk)} ${hex(sig)} - ${m}`,
      `ed ${hex(good)} ${'ab'.repeat(32)} ${hex(sig)} - ${m}`,
      `ed ${hex(good)} ${hex(pk)} ${'bc'.repeat(64)} - ${m}`,
      `ed ${hex(good)} ${hex(pk)} ${hex(sig)} - ${m.slice(0, -2)}`,
      `ed ${hex(good)} ${hex(pk)} ${hex(sig)} 01 ${m.slice(2)}`,
      `ed ${hex(foreign)} ${hex(pk)} ${hex(sig)} - ${m}`,
      `ed ${hex(notEd)} ${hex(pk)} ${hex(sig)} - ${m}`,
    ];
    assert.deepEqual(host(lines), ['ok', 'ok', 'ok', 'bad', 'bad', 'bad', 'bad', 'bad', 'bad']);
  });

  test('truncated and random sysvar bytes never read out of bounds', () => {
    const good = instructionsSysvar([[ED, ed25519Data(pk, sig, msg)]], 1);
    const lines: string[] = [];
    for (let n = 0; n < good.length; n += 7) lines.push(`ed ${hex(good.subarray(0, n))} ${hex(pk)} - - ${hex(msg)}`);
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), (b) => { lines.push(`ed ${hex(b)} ${hex(pk)} - - ${hex(msg)}`); }), { numRuns: 300, seed: 5 });
    assert.ok(host(lines).every((l) => l === 'bad'));
  });
});

/** A batch with n entries in every array (epoch 7, 4,000 messages). */
export function bigBatch(n: number): BehaviorBatch {
  const id = (tag: number, i: number, len: number) => Uint8Array.from({ length: len }, (_, k) => (tag * 31 + i * 7 + k) & 0xff);
  return {
    agentId: id(1, 0, 32), epochNumber: 7n, slotStart: 1000n, slotEnd: 2000n, messageCount: 4000n,
    msgTypeCounts: Array.from({ length: 16 }, (_, i) => BigInt(i * 10)), uniqueCounterparties: 10n,
    tasksCompleted: 3n, notarizations: 2n, disputes: 1n,
    bidValues: Array.from({ length: n }, (_, i) => ({ conversationId: id(2, i, 16), counterparty: id(3, i, 32), bidValue: (BigInt(i) - 500n) * (1n << 70n), slot: 1000n + BigInt(i) })),
    taskSelections: Array.from({ length: n }, (_, i) => ({ conversationId: id(4, i, 16), counterparty: id(5, i, 32), slot: 1000n + BigInt(i) })),
    verifierIds: Array.from({ length: n }, (_, i) => ({ conversationId: id(6, i, 16), verifierId: id(7, i, 32), slot: 1000n + BigInt(i) })),
    feedbackEvents: Array.from({ length: n }, (_, i) => ({ conversationId: id(8, i, 16), fromAgent: id(9, i, 32), score: (i % 201) - 100, outcome: i % 3, role: i % 2, slot: 1000n + BigInt(i), satiAttestationHash: id(10, i, 32) })),
    overflow: false, overflowDataHash: new Uint8Array(32), logMerkleRoot: id(11, 0, 32),
  };
}

/** Canonical CBOR of a batch without lib/protocol's caps, to build over-long arrays. */
function rawBatch(x: BehaviorBatch): Uint8Array {
  return encodeCanonical([
    x.agentId, x.epochNumber, x.slotStart, x.slotEnd, x.messageCount, x.msgTypeCounts, x.uniqueCounterparties,
    x.tasksCompleted, x.notarizations, x.disputes,
    x.bidValues.map((b) => [b.conversationId, b.counterparty, b.bidValue, b.slot]),
    x.taskSelections.map((b) => [b.conversationId, b.counterparty, b.slot]),
    x.verifierIds.map((b) => [b.conversationId, b.verifierId, b.slot]),
    x.feedbackEvents.map((b) => [b.conversationId, b.fromAgent, b.score, b.outcome, b.role, b.slot, b.satiAttestationHash]),
    x.overflow, x.overflowDataHash, x.logMerkleRoot,
  ]);
}

describe('contradiction rule (zx_judge.h, programs/README.md "Challenge outcomes")', () => {
  test('every outcome from a lib/protocol log and batch', async () => {
    const { agentLog, batchOf, BATCH_EPOCH } = await import('./scenario');
    const { PublicKey } = await import('@solana/web3.js');
    const seed = new Uint8Array(32).fill(9);
    const agent = new PublicKey(publicKeyFromSeed(new Uint8Array(32).fill(8)));
    const log = agentLog(agent, seed);
    const honest = batchOf(agent, log);
    const root = hex(honest.logMerkleRoot);
    const line = (i: number, b: BehaviorBatch | Uint8Array, opts: { agent?: string; root?: string; epoch?: bigint; payload?: Uint8Array } = {}) =>
      `judge ${hex(log.entries[i])} ${hex(opts.payload ?? log.envelopes[i].payload)} ${hex(b instanceof Uint8Array ? b : encodeBatch(b))} ${opts.agent ?? hex(agent.toBytes())} ${opts.root ?? root} ${opts.epoch ?? BATCH_EPOCH}`;
    const at = log.at;
    const noBid = (k: number) => ({ ...honest, bidValues: honest.bidValues.filter((_, j) => j !== k) });
    const bidIndex = (i: number) => honest.bidValues.findIndex((x) => x.slot === log.envelopes[i].blockRef);
    const malformed = encodeBatch(honest).slice();
    malformed[malformed.length - 33] = 0x59; // the root's length byte: 89 bytes, past the end
    const full = (b: BehaviorBatch) => ({ ...b, overflow: true, bidValues: Array.from({ length: 1000 }, (_, k) => ({ ...b.bidValues[0], slot: BigInt(k) })) });
    const cases: [string, string][] = [
      [line(at.propose, honest), '2 12'],
      [line(at.counter, honest), '2 12'],
      [line(at.accept, honest), '2 12'],
      [line(at.assign, honest), '2 12'],
      [line(at.propose, noBid(bidIndex(at.propose))), '1 1'],
      [line(at.counter, noBid(bidIndex(at.counter))), '1 1'],
      [line(at.accept, { ...honest, taskSelections: [] }), '1 2'],
      [line(at.accept, { ...noBid(bidIndex(at.accept)), taskSelections: [] }), '1 1'],
      [line(at.assign, { ...honest, verifierIds: [] }), '1 3'],
      [line(at.propose, malformed), '1 4'],
      [line(at.propose, honest, { root: '11'.repeat(32) }), '1 5'],
      [line(at.propose, honest, { epoch: BATCH_EPOCH + 1n }), '1 5'],
      [line(at.received, honest), '2 10'],
      [line(at.plain, honest), '2 11'],
      [line(at.propose, honest, { payload: new Uint8Array(0) }), '2 11'], // payload withheld: not checkable
      [line(at.feedback, honest), '2 10'],
      [line(at.propose, full(noBid(bidIndex(at.propose)))), '3 20'],
      [line(at.propose, { ...noBid(bidIndex(at.propose)), overflow: true }), '1 1'], // overflow below the cap
      [line(at.accept, { ...full(honest), taskSelections: [] }), '1 2'], // bid array full, task array not
    ];
    assert.deepEqual(host(cases.map((c) => c[0])), cases.map((c) => c[1]));
  });
});
