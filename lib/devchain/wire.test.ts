// Wire-transaction decoder: agrees with @solana/web3.js on real transactions; random bytes
// never throw.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Keypair, SystemProgram, Transaction } from '@solana/web3.js';
import fc from 'fast-check';
import { HOT_RECORDS, TxHistory, type TxRecord } from './history';
import { decodeWireTransaction, isStaticWritable, toBase58 } from './wire';

test('decodes a web3.js legacy transaction', () => {
  const a = Keypair.generate();
  const b = Keypair.generate();
  const t = new Transaction({
    feePayer: a.publicKey,
    blockhash: '4QjEBrJnATvydaCoPb7j4cneA5vSJNFsAYHQwRAjAjmQ',
    lastValidBlockHeight: 1,
  });
  t.add(SystemProgram.transfer({ fromPubkey: a.publicKey, toPubkey: b.publicKey, lamports: 5 }));
  t.sign(a);
  const w = decodeWireTransaction(new Uint8Array(t.serialize()));
  assert.ok(w);
  assert.equal(w.version, 'legacy');
  assert.deepEqual(w.staticKeys, [a.publicKey.toBase58(), b.publicKey.toBase58(), '11111111111111111111111111111111']);
  assert.deepEqual(w.signatures.length, 1);
  assert.equal(w.recentBlockhash, '4QjEBrJnATvydaCoPb7j4cneA5vSJNFsAYHQwRAjAjmQ');
  assert.deepEqual(
    [0, 1, 2].map((i) => isStaticWritable(w, i)),
    [true, true, false],
  );
  assert.deepEqual(w.instructions[0].accounts, [0, 1]);
  const extra = new Uint8Array([...t.serialize(), 0]);
  assert.equal(decodeWireTransaction(extra), null, 'trailing bytes are rejected');
});

test('random bytes never throw', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 1300 }), (b) => {
      const r = decodeWireTransaction(b);
      assert.ok(r === null || typeof r.signatures[0] === 'string');
    }),
    { numRuns: 2000, seed: 7 },
  );
});

test('history ring evicts oldest and pages with before/until', () => {
  const h = new TxHistory(3);
  const rec = (i: number): Omit<TxRecord, 'seq'> => ({
    signature: `s${i}`,
    slot: i,
    blockTime: 0,
    bytes: new Uint8Array(0),
    err: null,
    fee: 0,
    logs: [],
    preBalances: [],
    postBalances: [],
    preTokenBalances: [],
    postTokenBalances: [],
    innerInstructions: [],
    computeUnitsConsumed: 0,
    returnData: null,
    loadedAddresses: { writable: [], readonly: [] },
    accountKeys: ['A', i % 2 ? 'odd' : 'even'],
    memo: null,
  });
  for (let i = 1; i <= 5; i++) h.add(rec(i));
  assert.equal(h.size, 3);
  assert.equal(h.get('s2'), undefined);
  assert.deepEqual(
    h.signaturesFor('A', { limit: 10 }).map((r) => r.signature),
    ['s5', 's4', 's3'],
  );
  assert.deepEqual(
    h.signaturesFor('odd', { limit: 10 }).map((r) => r.signature),
    ['s5', 's3'],
  );
  assert.deepEqual(
    h.signaturesFor('A', { limit: 10, before: 's5', until: 's3' }).map((r) => r.signature),
    ['s4'],
  );
  assert.deepEqual(
    h.signaturesFor('A', { limit: 1, before: 's4' }).map((r) => r.signature),
    ['s3'],
  );
});

test('records that left the hot window come back whole, field for field, and stay indexed', () => {
  const n = HOT_RECORDS + 50;
  const h = new TxHistory(n);
  const rec = (i: number): TxRecord => ({
    seq: i,
    signature: `sig${i}`,
    slot: 100 + i,
    blockTime: 1_700_000_000 + i,
    bytes: new Uint8Array([i & 255, 1, 2, 3]),
    err: i % 7 === 0 ? { InstructionError: [0, { Custom: i }] } : null,
    fee: 5000,
    logs: [`Program P${i % 3} invoke [1]`, 'Program log: ok'],
    preBalances: [i, 2],
    postBalances: [i - 1, 3],
    preTokenBalances: [
      {
        accountIndex: 1,
        mint: 'M',
        owner: 'O',
        programId: 'T',
        uiTokenAmount: { amount: String(i), decimals: 6, uiAmount: i / 1e6, uiAmountString: String(i / 1e6) },
      },
    ],
    postTokenBalances: [],
    innerInstructions: [
      { index: 0, instructions: [{ programIdIndex: 2, accounts: [0, 1], data: 'abc', stackHeight: 2 }] },
    ],
    computeUnitsConsumed: 1000 + i,
    returnData: i % 5 === 0 ? { programId: 'P', data: ['AQI=', 'base64'] } : null,
    loadedAddresses: { writable: [], readonly: [] },
    accountKeys: [`payer${i % 4}`, 'shared', `acct${i}`],
    memo: i % 2 ? `memo ${i}` : null,
  });
  for (let i = 1; i <= n; i++) h.add(rec(i));
  for (const i of [1, 2, 7, 50, n - HOT_RECORDS - 1, n]) assert.deepEqual(h.get(`sig${i}`), rec(i), `record ${i}`);
  assert.deepEqual(
    [...h.records()].map((r) => r.seq),
    Array.from({ length: n }, (_, i) => i + 1),
  );
  const st = h.status('sig7');
  assert.deepEqual(
    [st?.seq, st?.slot, st?.blockTime, st?.err, st?.memo],
    [7, 107, 1_700_000_007, { InstructionError: [0, { Custom: 7 }] }, 'memo 7'],
  );
  assert.deepEqual(
    h.signaturesFor('payer1', { limit: 3, before: 'sig9' }).map((r) => r.signature),
    ['sig5', 'sig1'],
  );
  assert.equal(h.signaturesFor('shared', { limit: 1000 }).length, Math.min(1000, n));
  // A packed record pins only its own bytes (zlib's output is a view of a 16 KB chunk; kept as
  // is, 50 records of ~200 bytes would hold 800 KB).
  const packed = n - HOT_RECORDS;
  assert.ok(h.packedBytes() < packed * 1024, `${packed} packed records hold ${h.packedBytes()} bytes`);
  // Eviction of packed records still unindexes their keys.
  h.add(rec(n + 1));
  assert.equal(h.get('sig1'), undefined);
  assert.deepEqual(h.signaturesFor('acct1', { limit: 10 }), []);
});

test('base58 text the chain keeps is flat: a kept signature costs bytes, not a rope of one node per character', () => {
  // A full collection before each reading, so the figure is what the kept strings hold.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const n = 20_000;
  const kept: string[] = new Array(n);
  gc();
  const before = process.memoryUsage().heapUsed;
  for (let i = 0; i < n; i++) {
    const b = new Uint8Array(64);
    b[0] = i & 255;
    b[1] = i >> 8;
    b[2] = 7;
    kept[i] = toBase58(b);
  }
  gc();
  const per = (process.memoryUsage().heapUsed - before) / n;
  assert.equal(kept.length, n);
  // A rope of 86-88 one-character nodes is ~2.4 KB; a flat string ~110 bytes.
  assert.ok(per < 600, `${per.toFixed(0)} bytes of heap per kept signature`);
});

test(
  'a cold history record read back from the log costs about ' +
    '0.2 KB of memory: columns, not an object with key lists',
  () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const keys = Array.from({ length: 60 }, (_, i) => toBase58(new Uint8Array(32).fill(i + 1)));
    const rec = (i: number): Omit<TxRecord, 'seq'> => {
      const sig = new Uint8Array(64);
      sig[0] = i & 255;
      sig[1] = (i >> 8) & 255;
      sig[2] = i >> 16;
      sig[3] = 9;
      return {
        signature: toBase58(sig),
        slot: i,
        blockTime: 1_700_000_000 + i,
        bytes: new Uint8Array(200),
        err: null,
        fee: 5000,
        logs: ['Program log: ok'],
        preBalances: [1, 2],
        postBalances: [1, 2],
        preTokenBalances: [],
        postTokenBalances: [],
        innerInstructions: [],
        computeUnitsConsumed: 1,
        returnData: null,
        loadedAddresses: { writable: [], readonly: [] },
        accountKeys: [keys[i % 60], keys[(i * 7) % 60], keys[0], keys[1], keys[2], keys[(i * 13) % 60]],
        memo: null,
      };
    };
    const n = 40_000;
    const h = new TxHistory(n);
    h.useLog({ read: () => null });
    // The hot window fills first, so what is measured is records turning cold.
    for (let i = 0; i < 2 * HOT_RECORDS; i++) h.add(rec(i), { offset: i, length: 1 });
    gc();
    const m0 = process.memoryUsage();
    for (let i = 2 * HOT_RECORDS; i < n; i++) h.add(rec(i), { offset: i, length: 1 });
    gc();
    const m1 = process.memoryUsage();
    const k = n - 2 * HOT_RECORDS;
    const per = (m1.heapUsed - m0.heapUsed + m1.arrayBuffers - m0.arrayBuffers) / k;
    assert.equal(h.size, n);
    assert.ok(h.status(rec(n - 1).signature));
    // One object per record with its own list of key lists cost 490-530 bytes here (Node 20 and
    // 24); the columns ~200, up to ~320 when this file's earlier tests left the heap less compact.
    assert.ok(per < 380, `${per.toFixed(0)} bytes per cold record`);
  },
);

test(
  'address lists forget evicted records: a sweep drops the ' +
    'lists left empty and reading stops at the oldest record',
  () => {
    const cap = 64;
    const h = new TxHistory(cap);
    const rec = (i: number, keys: string[]): Omit<TxRecord, 'seq'> => ({
      signature: `s${i}`,
      slot: i,
      blockTime: 0,
      bytes: new Uint8Array(0),
      err: null,
      fee: 0,
      logs: [],
      preBalances: [],
      postBalances: [],
      preTokenBalances: [],
      postTokenBalances: [],
      innerInstructions: [],
      computeUnitsConsumed: 0,
      returnData: null,
      loadedAddresses: { writable: [], readonly: [] },
      accountKeys: keys,
      memo: null,
    });
    for (let i = 0; i < 10; i++) h.add(rec(i, ['gone', 'P']));
    for (let i = 10; i < 10 + 3 * cap; i++) h.add(rec(i, [`k${i}`, 'P', 'P']));
    assert.deepEqual(h.signaturesFor('gone', { limit: 10 }), []);
    assert.deepEqual(h.signaturesFor(`k${10 + 2 * cap - 1}`, { limit: 10 }), [], 'evicted');
    const p = h.signaturesFor('P', { limit: 1000 });
    assert.equal(p.length, cap, 'a key listed twice is indexed once; evicted records are not returned');
    assert.deepEqual([p[0].signature, p[cap - 1].signature], [`s${9 + 3 * cap}`, `s${10 + 2 * cap}`]);
    // The map of address lists holds only addresses of records still in the ring, plus at most a sweep's worth.
    const lists = (h as unknown as { byAddress: Map<string, unknown> }).byAddress;
    assert.ok(lists.size <= 2 * cap + 1, `${lists.size} address lists for ${cap} records`);
    assert.ok(!lists.has('gone'));
  },
);
