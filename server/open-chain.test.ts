// openChain without SOLANA_RPC_URL starts the embedded chain and connects to it over JSON-RPC.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openChain } from './open-chain';

test('openChain without SOLANA_RPC_URL starts the embedded chain and connects to it', async () => {
  const c = await openChain({ env: {}, embedded: { port: 0, slotMs: 0, wsCompanion: false } });
  try {
    assert.ok(c.embedded);
    assert.deepEqual(await c.connection.getVersion(), { 'solana-core': '2.2.0', 'feature-set': 3294202862 });
    assert.equal(c.endpoint.rpcUrl, c.embedded.rpcUrl);
  } finally {
    await c.close();
  }
});
