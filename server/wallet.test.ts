// The browser wallet's chain config comes from the server's configuration only, and the faucet
// refuses to act on a real cluster (the route answers 409 with this message).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Store } from '../lib/store';
import type { ChainRuntime } from './chain';
import { clusterOf, walletServices } from './wallet';

const cluster = (rpcUrl: string) => ({ embedded: false, rpcUrl, deployment: null }) as unknown as ChainRuntime;

test('cluster names from SOLANA_RPC_URL', () => {
  assert.equal(clusterOf('https://api.devnet.solana.com'), 'devnet');
  assert.equal(clusterOf('https://api.mainnet-beta.solana.com'), 'mainnet-beta');
  assert.equal(clusterOf('https://api.testnet.solana.com'), 'testnet');
  assert.equal(clusterOf('http://127.0.0.1:8899'), 'localnet');
  assert.equal(clusterOf('https://rpc.example.org/key'), 'custom');
});

test('on a cluster the browser uses SOLANA_RPC_URL, registration links to SATI, the faucet refuses', async () => {
  const w = walletServices({
    chain: cluster('https://api.devnet.solana.com'),
    store: {} as Store,
    satiRegisterUrl: 'https://sati.example/register',
  });
  assert.deepEqual(w.clientConfig(), {
    cluster: 'devnet',
    rpc: 'https://api.devnet.solana.com',
    faucet: false,
    registerUrl: 'https://sati.example/register',
  });
  assert.equal(w.embeddedRpcUrl, null);
  await assert.rejects(
    w.faucet('11111111111111111111111111111111'),
    (e: Error) => e.name === 'FaucetRefused' && /embedded chain only; this server acts on devnet/.test(e.message),
  );
});

test('on the embedded chain the browser goes through the same-origin proxy', () => {
  const chain = {
    embedded: true,
    rpcUrl: 'http://127.0.0.1:8899',
    deployment: { admin: {}, config: {} },
  } as unknown as ChainRuntime;
  const w = walletServices({ chain, store: {} as Store });
  assert.deepEqual(w.clientConfig(), { cluster: 'embedded', rpc: '/api/chain/rpc', faucet: true, registerUrl: null });
  assert.equal(w.embeddedRpcUrl, 'http://127.0.0.1:8899');
});
