import { test } from 'node:test';
import assert from 'node:assert/strict';
import { explorerAccount, explorerTx } from './explorer';

test('explorer links carry the cluster of the RPC URL', () => {
  assert.equal(explorerTx('5sig', 'https://api.mainnet-beta.solana.com'), 'https://explorer.solana.com/tx/5sig');
  assert.equal(explorerTx('5sig', 'https://api.devnet.solana.com'), 'https://explorer.solana.com/tx/5sig?cluster=devnet');
  assert.equal(explorerAccount('Abc', 'http://127.0.0.1:8899'), 'https://explorer.solana.com/address/Abc?cluster=custom&customUrl=http%3A%2F%2F127.0.0.1%3A8899');
});
