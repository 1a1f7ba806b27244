// openChain without SOLANA_RPC_URL starts the embedded chain on its own thread and connects to it
// over JSON-RPC; fixture writes cross the thread, and a blocked main thread does not stop the chain.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Keypair } from '@solana/web3.js';
import { openChain } from './open-chain';

test(
  'openChain without SOLANA_RPC_URL starts the embedded ' + 'chain on a thread of its own and connects to it',
  async () => {
    const c = await openChain({ env: {}, embedded: { port: 0, slotMs: 0, wsCompanion: false } });
    try {
      assert.ok(c.embedded);
      assert.deepEqual(await c.connection.getVersion(), { 'solana-core': '2.2.0', 'feature-set': 3294202862 });
      assert.equal(c.endpoint.rpcUrl, c.embedded.rpcUrl);
      const at = Keypair.generate().publicKey;
      await c.embedded.writeAccount(at.toBase58(), {
        lamports: 1_234_567n,
        data: new Uint8Array([1, 2, 3]),
        owner: Keypair.generate().publicKey.toBase58(),
      });
      const acc = await c.connection.getAccountInfo(at);
      assert.equal(acc?.lamports, 1_234_567);
      assert.deepEqual([...(acc?.data ?? [])], [1, 2, 3]);
      // The chain answers while this thread is blocked: spawnSync holds this event loop until the
      // child exits, and the child asks the chain for its slot (on this thread, it would wait forever).
      const { spawnSync } = await import('node:child_process');
      const child = spawnSync(
        process.execPath,
        [
          '-e',
          `fetch(${JSON.stringify(c.endpoint.rpcUrl)}, { method: 'POST', headers: { ` +
            `'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"getSlot"}' ` +
            `}).then((r) => r.json()).then((j) => console.log(JSON.stringify(j)))`,
        ],
        { timeout: 15_000, encoding: 'utf8' },
      );
      assert.equal(child.error, undefined, 'the child got an answer while this thread was blocked');
      assert.equal(JSON.parse(child.stdout).result, 0);
      await c.embedded.snapshot();
      // The thread's own heap, which the main thread's process.memoryUsage() does not include.
      const m = await c.embedded.memory();
      assert.ok(m.heapUsed > 1e6 && m.heapUsed !== process.memoryUsage().heapUsed, `thread heap ${m.heapUsed}`);
    } finally {
      await c.close();
    }
  },
);
