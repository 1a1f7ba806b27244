// The observatory's deployment on the embedded chain is created once and found again after a
// restart on the same data directory (idempotent across restarts); demo
// identities are SATI agents (register_agent on the embedded registry) owned by the wallets of the given seeds.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Connection, Keypair } from '@solana/web3.js';
import { startEmbeddedChain } from '../../devchain/index';
import { loadHaggleConfig } from '../haggle';
import { loadSatiMembership } from '../wallet-reads';
import { createDemoIdentities, ensureDeployment } from './deployment';
import { usdcAccountOf } from './economy';
import { ChainSignerRegistry } from './registry';
import { loadSatiRegistry } from './sati';

async function withChain<T>(dataDir: string, fn: (c: Connection) => Promise<T>): Promise<T> {
  const chain = await startEmbeddedChain({ port: 0, dataDir, wsCompanion: false, slotMs: 50 });
  const connection = new Connection(chain.rpcUrl, { commitment: 'confirmed', wsEndpoint: chain.wsUrl });
  try {
    return await fn(connection);
  } finally {
    const ws = (connection as unknown as { _rpcWebSocket?: { close(): void; setAutoReconnect?(v: boolean): void } })
      ._rpcWebSocket;
    ws?.setAutoReconnect?.(false);
    try {
      ws?.close();
    } catch {
      /* not open */
    }
    chain.snapshot();
    await chain.close();
  }
}

test('ensureDeployment creates once, then finds the same deployment after a restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zx-deploy-'));
  try {
    const first = await withChain(dir, async (connection) => {
      const d = await ensureDeployment({ connection, dataDir: dir, epochSeconds: 20n, create: true });
      const again = await ensureDeployment({ connection, dataDir: dir, epochSeconds: 20n, create: true });
      assert.equal(d.created, true);
      assert.equal(again.created, false);
      assert.equal(again.config.usdcMint.toBase58(), d.config.usdcMint.toBase58());
      assert.equal(d.config.epochSeconds, 20n);
      const seeds = [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)];
      const mintSeeds = [new Uint8Array(32).fill(7), new Uint8Array(32).fill(8)];
      const registry = new ChainSignerRegistry({ connection, subscribe: false });
      // Each identity resolves as soon as it is announced, before its wallet is funded.
      const early: Array<Promise<readonly Uint8Array[]>> = [];
      const ids = await createDemoIdentities(connection, {
        admin: d.admin!,
        config: d.config,
        seeds,
        mintSeeds,
        usdc: 5_000_000n,
        onIdentity: (i, agent) => {
          early[i] = Promise.resolve(registry.keysFor(agent.toBytes()));
        },
      });
      for (let i = 0; i < seeds.length; i++) {
        const owner = Keypair.fromSeed(seeds[i]).publicKey;
        assert.equal(ids[i].owner.publicKey.toBase58(), owner.toBase58());
        assert.equal(
          ids[i].agent.toBase58(),
          Keypair.fromSeed(mintSeeds[i]).publicKey.toBase58(),
          "the agent id is the mint seed's key",
        );
        assert.deepEqual(
          [...(await early[i])].map((k) => Buffer.from(k).toString('hex')),
          [Buffer.from(owner.toBytes()).toString('hex')],
        );
        assert.deepEqual(
          [...(await registry.keysFor(ids[i].agent.toBytes()))].map((k) => Buffer.from(k).toString('hex')),
          [Buffer.from(owner.toBytes()).toString('hex')],
        );
        const bal = await connection.getTokenAccountBalance(usdcAccountOf(d.config.usdcMint, owner));
        assert.equal(bal.value.amount, '5000000');
        const m = await loadSatiMembership(connection, ids[i].agent, d.config.satiProgram);
        assert.equal(m.memberNumber, ids[i].memberNumber);
        assert.equal(m.name, `demo agent ${i + 1}`);
      }
      assert.deepEqual(
        ids.map((x) => x.memberNumber).sort(),
        [1n, 2n],
        'concurrent registrations took consecutive member numbers',
      );
      await registry.close();
      return d;
    });
    await withChain(dir, async (connection) => {
      const d = await ensureDeployment({ connection, dataDir: dir, epochSeconds: 20n, create: true });
      assert.equal(d.created, false, 'the restarted chain kept the configs');
      assert.equal(d.admin!.publicKey.toBase58(), first.admin!.publicKey.toBase58(), 'same admin key from admin.json');
      assert.equal(d.config.usdcMint.toBase58(), first.config.usdcMint.toBase58());
      assert.equal(d.config.treasury.toBase58(), first.config.treasury.toBase58());
      assert.equal(
        (await loadSatiRegistry(connection, d.config.satiProgram)).totalAgents,
        2n,
        'the SATI registry persisted',
      );
      // haggle settles in the same USDC, its decay and fees go to the same treasury.
      const h = await loadHaggleConfig(connection);
      assert.equal(h.usdcMint.toBase58(), first.config.usdcMint.toBase58());
      assert.equal(h.treasury.toBase58(), first.config.treasury.toBase58());
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('on a cluster (create: false) a missing deployment is an error, not a new mint', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zx-deploy-'));
  try {
    await withChain(dir, async (connection) => {
      await assert.rejects(
        ensureDeployment({ connection, epochSeconds: 20n, create: false }),
        /stake_lock is not initialized/,
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
