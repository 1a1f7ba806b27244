// State persistence across restarts: balances, token
// accounts and transaction history survive close + start on the same dataDir.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { startEmbeddedChain } from './index';
import { decodeWireTransaction } from './wire';

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
      assert.equal(
        ((await rpc(b.rpcUrl, 'getBalance', [bob.publicKey.toBase58()])) as { value: number }).value,
        1_000_000_000,
      );
      assert.equal(
        ((await rpc(b.rpcUrl, 'getBalance', [alice.publicKey.toBase58()])) as { value: number }).value,
        2_000_000_000 - 5000,
      );
      const got = (await rpc(b.rpcUrl, 'getTransaction', [sig, { maxSupportedTransactionVersion: 0 }])) as {
        meta: { postBalances: number[] };
      };
      assert.deepEqual(got.meta.postBalances, [2_000_000_000 - 5000, 1_000_000_000, 1]);
      const sigs = (await rpc(b.rpcUrl, 'getSignaturesForAddress', [bob.publicKey.toBase58()])) as {
        signature: string;
      }[];
      assert.deepEqual(
        sigs.map((s) => s.signature),
        [sig],
      );
      assert.equal(new PublicKey(b.faucet).toBase58(), a.faucet.toBase58());
    } finally {
      await b.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

async function rpc(url: string, method: string, params?: unknown[]): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const j = (await res.json()) as { result?: unknown; error?: unknown };
  if (j.error) throw new Error(JSON.stringify(j.error));
  return j.result;
}

test(
  'with a data directory, cold history is read back from the log: ' +
    'nothing packed in memory, records whole after compaction and restart',
  async () => {
    const { TxHistory, HOT_RECORDS } = await import('./history');
    const { ChainStore, loadState } = await import('./persist');
    const { LiteSVM } = await import('litesvm');
    const dir = mkdtempSync(join(tmpdir(), 'zerox1-chain-log-'));
    try {
      const limit = HOT_RECORDS + 200;
      const rec = (i: number) => ({
        seq: i,
        signature: `sig${i}`,
        slot: i,
        blockTime: 1_700_000_000 + i,
        bytes: new Uint8Array([i & 255, 9]),
        err: i % 11 === 0 ? { InstructionError: [0, { Custom: i }] as [number, { Custom: number }] } : null,
        fee: 5000,
        logs: [`Program log: n=${i} é`],
        preBalances: [i],
        postBalances: [i - 1],
        preTokenBalances: [],
        postTokenBalances: [],
        innerInstructions: [],
        computeUnitsConsumed: i,
        returnData: null,
        loadedAddresses: { writable: [], readonly: [] },
        accountKeys: [`payer${i % 3}`, `acct${i}`],
        memo: null,
      });
      const store = new ChainStore(dir, limit, 0);
      const h = new TxHistory(limit);
      h.useLog(store);
      const n = 2 * limit + 50;
      for (let i = 1; i <= n; i++) {
        const r = h.add(rec(i));
        h.locate(r.signature, store.append(r));
      }
      assert.equal(h.packedBytes(), 0, 'cold records are not held in memory');
      for (const i of [n - limit + 1, n - HOT_RECORDS - 5, n])
        assert.deepEqual(h.get(`sig${i}`), rec(i), `record ${i}`);
      assert.equal(h.get(`sig${n - limit}`), undefined, 'evicted');
      // The log holds more than twice the limit: the snapshot compacts it and the records follow their lines.
      const svm = new LiteSVM();
      const meta = { version: 1 as const, slot: n, lastSeq: n, transactionCount: n, genesisHash: 'g', savedAt: 0 };
      store.snapshot(svm, meta, () => h.logEntries());
      for (const i of [n - limit + 1, n - HOT_RECORDS - 5])
        assert.deepEqual(h.get(`sig${i}`), rec(i), `record ${i} after compaction`);
      const r = h.add(rec(n + 1));
      h.locate(r.signature, store.append(r));
      assert.deepEqual(h.get(`sig${n + 1}`), rec(n + 1));
      store.close();
      // A restart gives each restored record its place in the rewritten log.
      const loaded = loadState(dir, limit)!;
      assert.equal(loaded.history.length, limit);
      const store2 = new ChainStore(dir, limit, loaded.history.length);
      const h2 = new TxHistory(limit);
      h2.useLog(store2);
      loaded.history.forEach((x, i) => h2.add(x, loaded.historyRefs[i]));
      assert.equal(h2.packedBytes(), 0);
      for (const i of [n - limit + 2, n - 300, n])
        assert.deepEqual(h2.get(`sig${i}`), rec(i), `record ${i} after restart`);
      // The one logged after the snapshot is for replay, and its place is known too.
      assert.deepEqual(
        loaded.replay.map((x) => x.seq),
        [n + 1],
      );
      assert.deepEqual(store2.read(loaded.replayRefs[0]), rec(n + 1));
      store2.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
