import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Keypair } from '@solana/web3.js';
import fc from 'fast-check';
import { parseEvents } from './events';
import { PROGRAM_IDS } from './gen/ids';
import * as lease from './gen/lease';
import * as stakeLock from './gen/stake_lock';

const b64 = (b: Uint8Array) => Buffer.from(b).toString('base64');
const agent = Keypair.generate().publicKey;
const paid = lease.encodeLeasePaidEvent({
  agent,
  payer: agent,
  amount: 1_000_000n,
  epoch: 7n,
  paidThroughEpoch: 7n,
  epochs: 1,
  prevStatus: 0,
  status: 0,
});
const slashed = stakeLock.encodeStakeSlashedEvent({
  agent,
  challengerUsdc: agent,
  amount: 10n,
  reward: 5n,
  toTreasury: 5n,
  slot: 9n,
});
const L = PROGRAM_IDS.lease.toBase58();
const S = PROGRAM_IDS.stakeLock.toBase58();
const T = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';

describe('parseEvents', () => {
  test('attributes records to the executing program across CPI depth', () => {
    const logs = [
      `Program ${L} invoke [1]`,
      `Program ${T} invoke [2]`,
      'Program log: Instruction: Transfer',
      `Program data: ${b64(slashed)}`,
      `Program ${T} success`,
      `Program data: ${b64(paid)}`,
      `Program ${S} invoke [2]`,
      `Program data: ${b64(slashed)}`,
      `Program ${S} consumed 10 of 100 compute units`,
      `Program ${S} success`,
      `Program ${L} success`,
    ];
    const ev = parseEvents(logs);
    assert.equal(ev.length, 2);
    assert.equal(ev[0].program, 'lease');
    assert.equal(ev[0].event.name, 'LeasePaid');
    assert.equal(ev[0].program === 'lease' && ev[0].event.name === 'LeasePaid' && ev[0].event.data.amount, 1_000_000n);
    assert.equal(ev[1].program, 'stakeLock');
    assert.deepEqual(
      ev[1].program === 'stakeLock' &&
        ev[1].event.name === 'StakeSlashed' && [ev[1].event.data.reward, ev[1].event.data.slot],
      [5n, 9n],
    );
  });

  test('skips truncated, foreign and malformed records', () => {
    const logs = [
      `Program ${L} invoke [1]`,
      `Program data: ${b64(paid.subarray(0, 20))}`,
      'Program data: !!!',
      `Program data: ${b64(paid)} ${b64(paid)}`,
      `Program ${L} success`,
      `Program data: ${b64(paid)}`,
    ];
    assert.deepEqual(parseEvents(logs), []);
  });

  test('never throws on arbitrary lines', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string(),
            fc.constant(`Program ${L} invoke [1]`),
            fc.base64String().map((s) => `Program data: ${s}`),
          ),
        ),
        (logs) => {
          assert.ok(Array.isArray(parseEvents(logs)));
        },
      ),
    );
  });
});
