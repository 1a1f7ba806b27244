// base58 of agent ids agrees with web3.js PublicKey (what wallets show for a mint).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PublicKey } from '../lib/chain';
import { base58 } from './format';

test('base58 of 32-byte ids matches PublicKey.toBase58, leading zero bytes included', () => {
  for (const hex of ['00'.repeat(32), '0001' + 'ff'.repeat(30), 'aa'.repeat(32), '1f'.repeat(32)]) {
    assert.equal(base58(hex), new PublicKey(Buffer.from(hex, 'hex')).toBase58(), hex);
  }
  assert.equal(base58('not hex'), 'not hex');
});
