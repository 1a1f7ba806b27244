// Wire-transaction decoder: agrees with @solana/web3.js on real transactions; random bytes
// never throw.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Keypair, SystemProgram, Transaction } from '@solana/web3.js';
import { decodeWireTransaction, isStaticWritable } from './wire';
import { TxHistory, type TxRecord } from './history';

test('decodes a web3.js legacy transaction', () => {
  const a = Keypair.generate();
  const b = Keypair.generate();
  const t = new Transaction({ feePayer: a.publicKey, blockhash: '4QjEBrJnATvydaCoPb7j4cneA5vSJNFsAYHQwRAjAjmQ', lastValidBlockHeight: 1 });
  t.add(SystemProgram.transfer({ fromPubkey: a.publicKey, toPubkey: b.publicKey, lamports: 5 }));
  t.sign(a);
  const w = decodeWireTransaction(new Uint8Array(t.serialize()));
  assert.ok(w);
  assert.equal(w.version, 'legacy');
  assert.deepEqual(w.staticKeys, [a.publicKey.toBase58(), b.publicKey.toBase58(), '11111111111111111111111111111111']);
  assert.deepEqual(w.signatures.length, 1);
  assert.equal(w.recentBlockhash, '4QjEBrJnATvydaCoPb7j4cneA5vSJNFsAYHQwRAjAjmQ');
  assert.deepEqual([0, 1, 2].map((i) => isStaticWritable(w, i)), [true, true, false]);
  assert.deepEqual(w.instructions[0].accounts, [0, 1]);
  const extra = new Uint8Array([...t.serialize(), 0]);
  assert.equal(decodeWireTransaction(extra), null, 'trailing bytes are rejected');
});

test('random bytes never throw', () => {
  fc.assert(fc.property(fc.uint8Array({ maxLength: 1300 }), (b) => {
    const r = decodeWireTransaction(b);
    assert.ok(r === null || typeof r.signatures[0] === 'string');
  }), { numRuns: 2000, seed: 7 });
});

test('history ring evicts oldest and pages with before/until', () => {
  const h = new TxHistory(3);
  const rec = (i: number): Omit<TxRecord, 'seq'> => ({
    signature: `s${i}`, slot: i, blockTime: 0, bytes: new Uint8Array(0), err: null, fee: 0, logs: [], preBalances: [], postBalances: [],
    preTokenBalances: [], postTokenBalances: [], innerInstructions: [], computeUnitsConsumed: 0, returnData: null,
    loadedAddresses: { writable: [], readonly: [] }, accountKeys: ['A', i % 2 ? 'odd' : 'even'], memo: null,
  });
  for (let i = 1; i <= 5; i++) h.add(rec(i));
  assert.equal(h.size, 3);
  assert.equal(h.get('s2'), undefined);
  assert.deepEqual(h.signaturesFor('A', { limit: 10 }).map((r) => r.signature), ['s5', 's4', 's3']);
  assert.deepEqual(h.signaturesFor('odd', { limit: 10 }).map((r) => r.signature), ['s5', 's3']);
  assert.deepEqual(h.signaturesFor('A', { limit: 10, before: 's5', until: 's3' }).map((r) => r.signature), ['s4']);
  assert.deepEqual(h.signaturesFor('A', { limit: 1, before: 's4' }).map((r) => r.signature), ['s3']);
});
