/**
 * Ed25519 instruction introspection (programs/include/zx_ed25519.h) and the contradiction rule of
 * resolve_challenge (../zx_judge.h), run on the host: hostile sysvar bytes, and every outcome of
 * programs/README.md "Challenge outcomes" from a lib/protocol log and batch.
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type BehaviorBatch, encodeBatch } from '../../../lib/protocol/batch';
import { publicKeyFromSeed } from '../../../lib/protocol/crypto';
import { fromHex } from '../../../lib/protocol/hex';
import { hex, useHost } from './harness';

const host = useHost();

/** Instructions sysvar bytes for instructions given as [programId, data] (no accounts). */
function instructionsSysvar(ixs: [Uint8Array, Uint8Array][], current: number): Uint8Array {
  const parts: number[] = [];
  const header = 2 + 2 * ixs.length;
  const bodies = ixs.map(([pid, data]) => [0, 0, ...pid, data.length & 0xff, data.length >> 8, ...data]);
  const u16 = (v: number) => [v & 0xff, v >> 8];
  parts.push(...u16(ixs.length));
  let off = header;
  for (const b of bodies) {
    parts.push(...u16(off));
    off += b.length;
  }
  for (const b of bodies) parts.push(...b);
  parts.push(...u16(current));
  return Uint8Array.from(parts);
}

/** Ed25519 program data holding one signature (all offsets inside the instruction itself). */
function ed25519Data(pk: Uint8Array, sig: Uint8Array, msg: Uint8Array, ixIndex = 0xffff): Uint8Array {
  const start = 2 + 14;
  const d = new Uint8Array(start + 32 + 64 + msg.length);
  const dv = new DataView(d.buffer);
  d[0] = 1;
  const pko = start,
    so = start + 32,
    mo = start + 96;
  [so, ixIndex, pko, ixIndex, mo, msg.length, ixIndex].forEach((v, i) => dv.setUint16(2 + i * 2, v, true));
  d.set(pk, pko);
  d.set(sig, so);
  d.set(msg, mo);
  return d;
}

describe('Ed25519 instruction introspection', () => {
  const ED = fromHex('037d46d67c93fbbe12f9428f838d40ff05707449' + '27f48a64fcca704480000000');
  const OTHER = new Uint8Array(32).fill(3);
  const pk = new Uint8Array(32).fill(0xaa);
  const sig = new Uint8Array(64).fill(0xbb);
  const msg = Uint8Array.from({ length: 150 }, (_, i) => i);
  test('finds the matching signature; refuses any other key, signature, message or foreign offsets', () => {
    const good = instructionsSysvar(
      [
        [OTHER, Uint8Array.of(1, 2)],
        [ED, ed25519Data(pk, sig, msg)],
        [OTHER, new Uint8Array(9)],
      ],
      2,
    );
    const self1 = instructionsSysvar(
      [
        [OTHER, Uint8Array.of(1, 2)],
        [ED, ed25519Data(pk, sig, msg, 1)],
      ],
      1,
    );
    const foreign = instructionsSysvar(
      [
        [OTHER, Uint8Array.of(1, 2)],
        [ED, ed25519Data(pk, sig, msg, 0)],
      ],
      1,
    );
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
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (b) => {
        lines.push(`ed ${hex(b)} ${hex(pk)} - - ${hex(msg)}`);
      }),
      { numRuns: 300, seed: 5 },
    );
    assert.ok(host(lines).every((l) => l === 'bad'));
  });
});

describe('contradiction rule (zx_judge.h, programs/README.md "Challenge outcomes")', () => {
  test('every outcome from a lib/protocol log and batch', async () => {
    const { agentLog, batchOf, BATCH_EPOCH } = await import('../scenario');
    const { PublicKey } = await import('@solana/web3.js');
    const seed = new Uint8Array(32).fill(9);
    const agent = new PublicKey(publicKeyFromSeed(new Uint8Array(32).fill(8)));
    const log = agentLog(agent, seed);
    const honest = batchOf(agent, log);
    const root = hex(honest.logMerkleRoot);
    const line = (
      i: number,
      b: BehaviorBatch | Uint8Array,
      opts: { agent?: string; root?: string; epoch?: bigint; payload?: Uint8Array } = {},
    ) =>
      `judge ${hex(log.entries[i])} ${hex(opts.payload ?? log.envelopes[i].payload)} ${hex(
        b instanceof Uint8Array ? b : encodeBatch(b),
      )} ${opts.agent ?? hex(agent.toBytes())} ${opts.root ?? root} ${opts.epoch ?? BATCH_EPOCH}`;
    const at = log.at;
    const noBid = (k: number) => ({ ...honest, bidValues: honest.bidValues.filter((_, j) => j !== k) });
    const bidIndex = (i: number) => honest.bidValues.findIndex((x) => x.slot === log.envelopes[i].blockRef);
    const malformed = encodeBatch(honest).slice();
    malformed[malformed.length - 33] = 0x59; // the root's length byte: 89 bytes, past the end
    const full = (b: BehaviorBatch) => ({
      ...b,
      overflow: true,
      bidValues: Array.from({ length: 1000 }, (_, k) => ({ ...b.bidValues[0], slot: BigInt(k) })),
    });
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
    assert.deepEqual(
      host(cases.map((c) => c[0])),
      cases.map((c) => c[1]),
    );
  });
});
