// The preview's arithmetic (preview.ts summarize): the fee payer's SOL change from the simulated
// first transaction plus the later transactions' fees and createAccount rent, rent returned by
// closed accounts, the USDC change of the payer's token account, and accounts created/closed.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Keypair } from '@solana/web3.js';
import { type Snapshot, summarize, tokenAmount } from './preview';

const token = (amount: bigint, lamports = 2_039_280n): Snapshot => {
  const data = new Uint8Array(165);
  new DataView(data.buffer).setBigUint64(64, amount, true);
  return { lamports, data };
};
const sys = (lamports: bigint): Snapshot => ({ lamports, data: new Uint8Array(0) });

test('a challenge: 10 USDC out, the record created in the first transaction, the buffer staged after it', () => {
  const payer = 'P',
    usdc = 'U',
    record = 'R',
    buffer = Keypair.generate().publicKey;
  const pre = new Map<string, Snapshot>([
    [payer, sys(2_000_000_000n)],
    [usdc, token(100_000_000n)],
    [record, null],
    [buffer.toBase58(), null],
  ]);
  const post = new Map<string, Snapshot>([
    [payer, sys(2_000_000_000n - 5000n - 2_338_560n)],
    [usdc, token(90_000_000n)],
    [record, sys(2_338_560n)],
    [buffer.toBase58(), null],
  ]);
  const p = summarize({
    payer,
    usdc,
    pre,
    post,
    fees: [5000n, 10_000n, 5000n],
    laterCreates: [{ address: buffer.toBase58(), lamports: 63_614_400n }],
    hints: { notes: [{ address: buffer, label: 'evidence buffer', rentBack: 'at resolve' }], stakes: ['x'] },
  });
  assert.equal(p.solChange, -(5000n + 2_338_560n + 10_000n + 5000n + 63_614_400n));
  assert.equal(p.fees, 20_000n);
  assert.equal(p.usdcChange, -10_000_000n);
  assert.equal(p.rentPaid, 2_338_560n + 63_614_400n);
  assert.equal(p.rentReclaimable, 63_614_400n);
  assert.deepEqual(
    p.accounts.map((a) => [a.kind, a.label]),
    [
      ['created', 'new account'],
      ['created', 'evidence buffer'],
    ],
  );
});

test('a resolve closing the buffer: rent back, USDC unknown when the outcome cannot be simulated', () => {
  const buffer = Keypair.generate().publicKey.toBase58();
  const pre = new Map<string, Snapshot>([
    ['P', sys(1_000_000n)],
    [buffer, sys(63_614_400n)],
  ]);
  const post = new Map<string, Snapshot>([
    ['P', sys(1_000_000n - 5000n + 63_614_400n)],
    [buffer, null],
  ]);
  const p = summarize({ payer: 'P', usdc: null, pre, post, fees: [5000n], laterCreates: [], hints: {} });
  assert.equal(p.solChange, 63_609_400n);
  assert.equal(p.rentBack, 63_614_400n);
  assert.equal(p.usdcChange, 0n);
  assert.equal(
    summarize({
      payer: 'P',
      usdc: null,
      pre,
      post,
      fees: [5000n],
      laterCreates: [],
      hints: { usdcUnknown: 'decided on chain' },
    }).usdcChange,
    null,
  );
  assert.equal(tokenAmount(null), 0n);
});
