import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PublicKey } from '@solana/web3.js';
import fc from 'fast-check';
import { decodeFields, encodeFields, layoutSize } from './codec';
import * as lease from './gen/lease';
import * as stakeLock from './gen/stake_lock';

const pubkey = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((b) => new PublicKey(b));
const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });

describe('generated codecs', () => {
  test('Lease: decode(encode(x)) = x and the size matches the C struct', () => {
    fc.assert(
      fc.property(
        pubkey,
        u64,
        u64,
        u64,
        u64,
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        (agent, p, t, c, tot, status, bump) => {
          const v = { agent, paidThroughEpoch: p, lastTickEpoch: t, createdEpoch: c, totalPaid: tot, status, bump };
          const bytes = lease.encodeLease(v);
          assert.equal(bytes.length, lease.LEASE_SIZE);
          assert.deepEqual(lease.decodeLease(bytes), v);
        },
      ),
    );
  });

  test('decoders never throw on random bytes and refuse wrong discriminators', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (b) => {
        lease.decodeLease(b);
        lease.decodeLeaseConfig(b);
        lease.decodeEvent(b);
        stakeLock.decodeStake(b);
        stakeLock.decodeEvent(b);
        stakeLock.decodeLockStakeArgs(b);
      }),
    );
    assert.equal(lease.decodeLease(new Uint8Array(lease.LEASE_SIZE)), null);
    assert.equal(stakeLock.decodeLockStakeArgs(Uint8Array.of(1, 0, 0)), null);
  });

  test('instruction data: tag then little-endian args', () => {
    assert.deepEqual([...stakeLock.encodeLockStakeArgs({ amount: 0x0102030405060708n })], [1, 8, 7, 6, 5, 4, 3, 2, 1]);
    assert.deepEqual([...lease.encodePayLeaseArgs({ epochs: 3 })], [1, 3, 0, 0, 0]);
  });

  test('caller misuse throws naming the field', () => {
    assert.throws(() => encodeFields(new Uint8Array(0), [{ name: 'epochs', type: 'u32' }], { epochs: -1 }), /epochs/);
    assert.throws(() => encodeFields(new Uint8Array(0), [{ name: 'amount', type: 'u64' }], { amount: 1 }), /amount/);
    assert.equal(
      layoutSize([
        { name: 'x', type: 'pad7' },
        { name: 'y', type: 'bytes3' },
      ]),
      10,
    );
    assert.equal(decodeFields(new Uint8Array(3), 0, [{ name: 'x', type: 'u32' }]), null);
  });
});
