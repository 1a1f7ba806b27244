// Connection factory config (SOLANA_RPC_URL / SOLANA_WS_URL or the embedded chain).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChainConfigError } from '../errors';
import { chainEndpointFromEnv } from './rpc';

test('env: unset → embedded; URLs checked and named', () => {
  assert.equal(chainEndpointFromEnv({}), null);
  assert.deepEqual(chainEndpointFromEnv({ SOLANA_RPC_URL: 'https://api.devnet.solana.com' }), {
    rpcUrl: 'https://api.devnet.solana.com',
  });
  assert.deepEqual(
    chainEndpointFromEnv({ SOLANA_RPC_URL: 'http://127.0.0.1:8899', SOLANA_WS_URL: 'ws://127.0.0.1:8900' }),
    { rpcUrl: 'http://127.0.0.1:8899', wsUrl: 'ws://127.0.0.1:8900' },
  );
  assert.throws(
    () => chainEndpointFromEnv({ SOLANA_RPC_URL: 'ftp://x' }),
    (e: Error) => e instanceof ChainConfigError && /SOLANA_RPC_URL/.test(e.message),
  );
  assert.throws(() => chainEndpointFromEnv({ SOLANA_RPC_URL: 'http://x', SOLANA_WS_URL: 'http://x' }), /SOLANA_WS_URL/);
});
