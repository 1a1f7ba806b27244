/**
 * The portable BehaviorBatch reader (programs/include/zx_batch.h over zx_cbor.h), run on the host
 * against the repo's vectors and differentially against lib/protocol's decodeBatch; and the
 * harness's keccak reference the other host tests rely on.
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { type BehaviorBatch, decodeBatch, encodeBatch } from '../../../lib/protocol/batch';
import { encodeCanonical } from '../../../lib/protocol/cbor';
import { keccak256 } from '../../../lib/protocol/crypto';
import { fromHex } from '../../../lib/protocol/hex';
import { hex, lohi, mutations, useHost, vec } from './harness';

const batchVec = vec('batch.json');
const host = useHost();

describe('keccak reference (host only)', () => {
  test('matches lib/protocol keccak256 across the rate boundary', () => {
    const inputs = [0, 1, 135, 136, 137, 272, 1000].map((n) =>
      Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 0xff),
    );
    const out = host(inputs.map((b) => `keccak ${hex(b)}`));
    assert.deepEqual(
      out,
      inputs.map((b) => Buffer.from(keccak256(b)).toString('hex')),
    );
  });
});

describe('BehaviorBatch reader (docs/protocol.md §6)', () => {
  const f = batchVec.fields;
  test('vector batch: fields, counts, root', () => {
    const [line] = host([`batch ${batchVec.cbor}`]);
    assert.equal(
      line,
      `ok ${f.epoch_number} ${f.message_count} 2 1 1 2 0 0 ${f.agent_id} ${f.log_merkle_root} ${f.overflow_data_hash}`,
    );
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
    const [line] = host([
      `batch ${hex(bytes)} 1 ${hex(last.conversationId)} ${hex(last.counterparty)} ${lohi(last.bidValue)}`,
    ]);
    const p = line.split(' ');
    assert.deepEqual(p.slice(0, 9), ['ok', '7', '4000', '1000', '1000', '1000', '1000', '0', '1']);
    assert.deepEqual(rawBatch(big), bytes);
    // 1,001 entries (encodeBatch refuses to make them): the C reader refuses too
    const tooMany = rawBatch({ ...big, verifierIds: [...big.verifierIds, big.verifierIds[0]] });
    assert.deepEqual(host([`batch ${hex(tooMany)}`]), ['err']);
  });

  test('accepts exactly what lib/protocol decodeBatch accepts (mutations and random bytes)', () => {
    const base = fromHex(batchVec.cbor);
    const cases = mutations(base, 1500, 42);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        cases.push(b);
      }),
      { numRuns: 300, seed: 7 },
    );
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

/** A batch with n entries in every array (epoch 7, 4,000 messages). */
function bigBatch(n: number): BehaviorBatch {
  const id = (tag: number, i: number, len: number) =>
    Uint8Array.from({ length: len }, (_, k) => (tag * 31 + i * 7 + k) & 0xff);
  return {
    agentId: id(1, 0, 32),
    epochNumber: 7n,
    slotStart: 1000n,
    slotEnd: 2000n,
    messageCount: 4000n,
    msgTypeCounts: Array.from({ length: 16 }, (_, i) => BigInt(i * 10)),
    uniqueCounterparties: 10n,
    tasksCompleted: 3n,
    notarizations: 2n,
    disputes: 1n,
    bidValues: Array.from({ length: n }, (_, i) => ({
      conversationId: id(2, i, 16),
      counterparty: id(3, i, 32),
      bidValue: (BigInt(i) - 500n) * (1n << 70n),
      slot: 1000n + BigInt(i),
    })),
    taskSelections: Array.from({ length: n }, (_, i) => ({
      conversationId: id(4, i, 16),
      counterparty: id(5, i, 32),
      slot: 1000n + BigInt(i),
    })),
    verifierIds: Array.from({ length: n }, (_, i) => ({
      conversationId: id(6, i, 16),
      verifierId: id(7, i, 32),
      slot: 1000n + BigInt(i),
    })),
    feedbackEvents: Array.from({ length: n }, (_, i) => ({
      conversationId: id(8, i, 16),
      fromAgent: id(9, i, 32),
      score: (i % 201) - 100,
      outcome: i % 3,
      role: i % 2,
      slot: 1000n + BigInt(i),
      satiAttestationHash: id(10, i, 32),
    })),
    overflow: false,
    overflowDataHash: new Uint8Array(32),
    logMerkleRoot: id(11, 0, 32),
  };
}

/** Canonical CBOR of a batch without lib/protocol's caps, to build over-long arrays. */
function rawBatch(x: BehaviorBatch): Uint8Array {
  return encodeCanonical([
    x.agentId,
    x.epochNumber,
    x.slotStart,
    x.slotEnd,
    x.messageCount,
    x.msgTypeCounts,
    x.uniqueCounterparties,
    x.tasksCompleted,
    x.notarizations,
    x.disputes,
    x.bidValues.map((b) => [b.conversationId, b.counterparty, b.bidValue, b.slot]),
    x.taskSelections.map((b) => [b.conversationId, b.counterparty, b.slot]),
    x.verifierIds.map((b) => [b.conversationId, b.verifierId, b.slot]),
    x.feedbackEvents.map((b) => [
      b.conversationId,
      b.fromAgent,
      b.score,
      b.outcome,
      b.role,
      b.slot,
      b.satiAttestationHash,
    ]),
    x.overflow,
    x.overflowDataHash,
    x.logMerkleRoot,
  ]);
}
