// State persistence across restarts: balances, token
// accounts and transaction history survive close + start on the same dataDir.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair, PublicKey } from '@solana/web3.js';
import { startEmbeddedChain } from './index';
import { decodeWireTransaction } from './wire';
import { Transaction, SystemProgram } from '@solana/web3.js';

test('a restarted chain keeps accounts, slot, genesis hash and history', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zerox1-chain-'));
  try {
    const alice = Keypair.generate();
    const bob = Keypair.generate();
    const a = await startEmbeddedChain({ port: 0, slotMs: 0, dataDir: dir, wsCompanion: false, programs: [] });
    a.ledger.airdrop(alice.publicKey, 3_000_000_000n);
    a.tick();
    const t = new Transaction({ feePayer: alice.publicKey, ...a.ledger.latestBlockhash() }).add(
      SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob.publicKey, lamports: 1_000_000_000 }),
    );
    t.sign(alice);
    const out = a.ledger.execute(decodeWireTransaction(new Uint8Array(t.serialize()))!);
    assert.equal(out.err, null);
    const sig = out.record!.signature;
    a.tick();
    const slot = a.ledger.slot;
    const genesis = await rpc(a.rpcUrl, 'getGenesisHash');
    await a.close();

    const b = await startEmbeddedChain({ port: 0, slotMs: 0, dataDir: dir, wsCompanion: false, programs: [] });
    try {
      assert.equal(b.ledger.slot, slot);
      assert.equal(await rpc(b.rpcUrl, 'getGenesisHash'), genesis);
      assert.equal(((await rpc(b.rpcUrl, 'getBalance', [bob.publicKey.toBase58()])) as { value: number }).value, 1_000_000_000);
      assert.equal(((await rpc(b.rpcUrl, 'getBalance', [alice.publicKey.toBase58()])) as { value: number }).value, 2_000_000_000 - 5000);
      const got = (await rpc(b.rpcUrl, 'getTransaction', [sig, { maxSupportedTransactionVersion: 0 }])) as { meta: { postBalances: number[] } };
      assert.deepEqual(got.meta.postBalances, [2_000_000_000 - 5000, 1_000_000_000, 1]);
      const sigs = (await rpc(b.rpcUrl, 'getSignaturesForAddress', [bob.publicKey.toBase58()])) as { signature: string }[];
      assert.deepEqual(sigs.map((s) => s.signature), [sig]);
      assert.equal(new PublicKey(b.faucet).toBase58(), a.faucet.toBase58());
    } finally {
      await b.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

async function rpc(url: string, method: string, params?: unknown[]): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const j = (await res.json()) as { result?: unknown; error?: unknown };
  if (j.error) throw new Error(JSON.stringify(j.error));
  return j.result;
}
