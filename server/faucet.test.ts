// The faucet route on a real embedded chain with the wallet services server/runtime.ts builds: a
// drop sends SOL and USDC; the per-wallet and per-client budgets answer 429 with a sentence and
// Retry-After; FAUCET=off (null limits) answers 409 and hides the button; a drained faucet
// answers 503 with a sentence, never a 500.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Keypair, PublicKey } from '@solana/web3.js';
import { CLIENT_HEADER } from '../app/_lib/client';
import { registerServices, type Services } from '../app/_lib/services';
import type { WalletServices } from '../app/_lib/wallet-services';
import { POST } from '../app/api/chain/faucet/route';
import { type ChainWorld, startChainWorld } from '../lib/chain/node/testing';
import type { Store } from '../lib/store';
import type { ChainRuntime } from './chain';
import type { FaucetLimits } from './rpc-gate';
import { walletServices } from './wallet';

async function withFaucet(
  world: ChainWorld,
  faucet: FaucetLimits | null,
  fn: (p: {
    wallet: WalletServices;
    drip: (
      address: string,
      client?: string,
    ) => Promise<{ status: number; headers: Headers; body: Record<string, unknown> }>;
  }) => Promise<void>,
) {
  const runtime = {
    embedded: true,
    rpcUrl: world.chain.rpcUrl,
    connection: world.connection,
    faucetAccount: world.chain.faucet,
    deployment: { admin: world.admin, config: world.config },
  } as unknown as ChainRuntime;
  const wallet = walletServices({ chain: runtime, store: {} as Store, faucet });
  registerServices({ observatory: {}, reads: {}, config: {}, wallet } as unknown as Services);
  const drip = async (address: string, client = '10.0.0.1') => {
    const res = await POST(
      new Request('http://observatory.test/api/chain/faucet', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [CLIENT_HEADER]: client },
        body: JSON.stringify({ address }),
      }),
    );
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
  try {
    await fn({ wallet, drip });
  } finally {
    registerServices(undefined);
    wallet.close?.();
  }
}

test('faucet: drops, budgets per wallet and per client, the off switch, a drained faucet', async () => {
  const world = await startChainWorld();
  try {
    const alice = Keypair.generate().publicKey.toBase58();
    await withFaucet(world, { perClientPerHour: 3, perWalletPerHour: 2 }, async ({ wallet, drip }) => {
      assert.equal(wallet.clientConfig().faucet, true);
      const first = await drip(alice);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.lamports, '2000000000');
      assert.equal(await world.connection.getBalance(new PublicKey(alice)), 2_000_000_000);
      assert.equal((await drip(alice)).status, 200);
      const third = await drip(alice);
      assert.equal(third.status, 429);
      assert.match(String(third.body.error), /at most 2 drops per hour to one wallet; retry after \d+ s/);
      assert.ok(Number(third.headers.get('retry-after')) > 0);
      // The same client, another wallet: its third drop of the hour is its last.
      assert.equal((await drip(Keypair.generate().publicKey.toBase58())).status, 200);
      const fourth = await drip(Keypair.generate().publicKey.toBase58());
      assert.equal(fourth.status, 429);
      assert.match(String(fourth.body.error), /at most 3 drops per hour to one client/);
      // Another client still gets one.
      assert.equal((await drip(Keypair.generate().publicKey.toBase58(), '10.0.0.2')).status, 200);
    });

    await withFaucet(world, null, async ({ wallet, drip }) => {
      assert.equal(wallet.clientConfig().faucet, false, 'no Faucet button');
      const off = await drip(alice);
      assert.equal(off.status, 409);
      assert.match(String(off.body.error), /the faucet is off on this server \(FAUCET=off/);
    });

    // Drain the faucet account: the next drop is a 503 sentence, and nothing was sent.
    world.chain.svm.setAccount({
      address: world.chain.faucet.toBase58() as never,
      lamports: 5_000_000n as never,
      data: new Uint8Array(0),
      programAddress: '11111111111111111111111111111111' as never,
      executable: false,
      space: 0n,
    } as never);
    await withFaucet(world, { perClientPerHour: 10, perWalletPerHour: 10 }, async ({ drip }) => {
      const bob = Keypair.generate().publicKey.toBase58();
      for (let i = 0; i < 3; i++) {
        const empty = await drip(bob);
        assert.equal(empty.status, 503);
        assert.match(String(empty.body.error), /^the faucet is empty: it holds 5000000 lamports/);
      }
      assert.equal(await world.connection.getBalance(new PublicKey(bob)), 0);
    });
  } finally {
    await world.close();
  }
});
