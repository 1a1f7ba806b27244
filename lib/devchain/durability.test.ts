// A confirmed transaction survives the chain process being killed (SIGKILL) right after
// confirmation: the chain runs as its own process (main.ts) with snapshots an hour apart, so
// only the transaction log (persist.ts) can bring the transactions back; a restart on the same
// directory replays them (Ledger.replay) and serves the accounts and the history.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  SystemProgram,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import { createAgentIdentityInstructions, findIdentityHolder, IDENTITY_MINT_SIZE } from '../chain';

function startChain(dir: string): Promise<{ proc: ChildProcess; rpcUrl: string }> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './scripts/setup-node.mjs', 'lib/devchain/main.ts'],
    {
      env: {
        ...process.env,
        CHAIN_PORT: '0',
        CHAIN_DATA_DIR: dir,
        CHAIN_SLOT_MS: '100',
        CHAIN_SNAPSHOT_MS: '3600000',
        CHAIN_QUIET: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  proc.stderr!.on('data', (b: Buffer) => {
    err += b.toString();
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const line = out.split('\n')[0];
      if (out.includes('\n')) resolve({ proc, rpcUrl: (JSON.parse(line) as { rpcUrl: string }).rpcUrl });
    });
    proc.once('exit', (code) => reject(new Error(`chain exited with ${code}: ${err}`)));
  });
}

/** Sends and waits until getSignatureStatuses says confirmed (the moment a wallet shows "confirmed"). */
async function sendConfirmed(c: Connection, ixs: TransactionInstruction[], signers: Keypair[]): Promise<string> {
  const tx = new Transaction({ feePayer: signers[0].publicKey, ...(await c.getLatestBlockhash('confirmed')) }).add(
    ...ixs,
  );
  tx.sign(...signers);
  const sig = await c.sendRawTransaction(tx.serialize());
  for (;;) {
    const s = (await c.getSignatureStatuses([sig])).value[0];
    if (s?.confirmationStatus === 'confirmed' || s?.confirmationStatus === 'finalized') {
      assert.equal(s.err, null);
      return sig;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('transactions confirmed just before SIGKILL are there after a restart', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zerox1-durable-'));
  let a: ChildProcess | undefined;
  let b: ChildProcess | undefined;
  try {
    const first = await startChain(dir);
    a = first.proc;
    const c1 = new Connection(first.rpcUrl, 'confirmed');
    const alice = Keypair.generate();
    const bob = Keypair.generate();
    const mint = Keypair.generate();
    const drop = await c1.requestAirdrop(alice.publicKey, 2 * LAMPORTS_PER_SOL);
    const lamports = await c1.getMinimumBalanceForRentExemption(IDENTITY_MINT_SIZE);
    const transfer = await sendConfirmed(
      c1,
      [SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob.publicKey, lamports: 123_456_789 })],
      [alice],
    );
    const identity = await sendConfirmed(
      c1,
      createAgentIdentityInstructions({ payer: alice.publicKey, mint: mint.publicKey, lamports }),
      [alice, mint],
    );
    const exited = new Promise((r) => a!.once('exit', r));
    a.kill('SIGKILL');
    await exited;

    // The snapshot on disk predates these transactions: only the log holds them.
    const meta = JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { lastSeq: number };
    assert.equal(meta.lastSeq, 0, 'no snapshot was written after start');

    const second = await startChain(dir);
    b = second.proc;
    const c2 = new Connection(second.rpcUrl, 'confirmed');
    assert.equal(await c2.getBalance(bob.publicKey), 123_456_789);
    const holder = await findIdentityHolder(c2, mint.publicKey);
    assert.ok(holder?.owner.equals(alice.publicKey), 'the identity NFT is held by alice after the restart');
    for (const sig of [drop, transfer, identity]) {
      const t = await c2.getTransaction(sig, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
      assert.ok(t, `getTransaction(${sig}) after the restart`);
      assert.equal(t.meta?.err, null);
    }
    const st = (await c2.getSignatureStatuses([identity])).value[0];
    assert.equal(st?.err, null);
  } finally {
    for (const p of [a, b]) if (p && p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
