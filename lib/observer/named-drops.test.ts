// The observer names its identity drops by the signer source's reasons: an unregistered sender by
// why it is not registered, an envelope signed by a refused key (expired or revoked delegate,
// former owner) by why that key is refused; a delegation's expiry ends the cached answer at
// verify time. A source with `signersFor` stands for the chain registry (its own tests run on the
// embedded chain); validation is the observer's own, on the event loop and on a worker.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { publicKeyFromSeed } from '../protocol/crypto';
import { buildEnvelope } from '../protocol/envelope';
import { toHex } from '../protocol/hex';
import { MsgType } from '../protocol/types';
import { CachedSignerRegistry, type SignerAnswer, type SignerSource } from './registry';
import { createValidation } from './validation';

const seeds = {
  owner: new Uint8Array(32).fill(1),
  delegate: new Uint8Array(32).fill(2),
  expired: new Uint8Array(32).fill(3),
  revoked: new Uint8Array(32).fill(4),
  stranger: new Uint8Array(32).fill(5),
};
const key = (s: Uint8Array) => publicKeyFromSeed(s);
const AGENT = new Uint8Array(32).fill(0xa1);
const MEMBERLESS = new Uint8Array(32).fill(0xa2);

function answers(now: () => number): SignerSource & { asked: number } {
  const src = {
    asked: 0,
    async keysFor(): Promise<readonly Uint8Array[]> {
      throw new Error('signersFor is used when present');
    },
    async signersFor(id: Uint8Array): Promise<SignerAnswer> {
      src.asked++;
      if (toHex(id) === toHex(MEMBERLESS)) return { keys: [], reason: 'not_sati_member' };
      if (toHex(id) !== toHex(AGENT)) return { keys: [], reason: 'unregistered' };
      // The delegate's attestation expires at t = 10,000 ms.
      const live = now() < 10_000;
      return {
        keys: live ? [key(seeds.owner), key(seeds.delegate)] : [key(seeds.owner)],
        refused: [
          { key: key(seeds.expired), reason: 'delegation_expired' },
          { key: key(seeds.revoked), reason: 'delegation_revoked' },
          ...(live ? [] : [{ key: key(seeds.delegate), reason: 'delegation_expired' }]),
        ],
        validUntil: live ? 10_000 : undefined,
      };
    },
  };
  return src;
}

for (const workers of [0, 1]) {
  test(
    `identity drops carry the source's reason; expiry takes ` +
      `effect at verify time (${workers ? 'worker' : 'event loop'})`,
    async () => {
      let now = 1_000;
      const src = answers(() => now);
      const registry = new CachedSignerRegistry({ source: src, now: () => now });
      const v = createValidation({ registry, clock: () => now, verifyWorkers: workers });
      let nonce = 1n;
      const env = (sender: Uint8Array, seed: Uint8Array) =>
        buildEnvelope(
          {
            msgType: MsgType.ADVERTISE,
            sender,
            timestamp: BigInt(now) * 1000n,
            nonce: nonce++,
            conversationId: new Uint8Array(16),
            payload: Uint8Array.of(1),
          },
          seed,
        ).bytes;
      const live = async (bytes: Uint8Array) => {
        const o = await v.validateLive(bytes, { peer: 'p', via: 'gossip' } as never);
        return typeof o === 'object' && 'ok' in o ? 'accepted' : typeof o === 'object' ? o.reason : o;
      };
      const archived = async (bytes: Uint8Array) => {
        const c = await v.archive(bytes);
        const r = 'pending' in c ? await c.pending : c;
        return r.ok ? 'accepted' : r.reason;
      };
      try {
        for (const check of [live, archived]) {
          assert.equal(await check(env(AGENT, seeds.owner)), 'accepted');
          assert.equal(await check(env(AGENT, seeds.delegate)), 'accepted');
          assert.equal(await check(env(AGENT, seeds.expired)), 'delegation_expired');
          assert.equal(await check(env(AGENT, seeds.revoked)), 'delegation_revoked');
          assert.equal(await check(env(AGENT, seeds.stranger)), 'signature');
          assert.equal(await check(env(MEMBERLESS, seeds.owner)), 'not_sati_member');
          assert.equal(await check(env(new Uint8Array(32).fill(0xee), seeds.owner)), 'unregistered');
        }
        const asked = src.asked;
        // Past the delegation's expiry the cached answer is not used: the next envelope asks again.
        now = 10_001;
        assert.equal(await live(env(AGENT, seeds.delegate)), 'delegation_expired');
        assert.equal(src.asked, asked + 1);
        assert.equal(await live(env(AGENT, seeds.owner)), 'accepted');
        assert.equal(src.asked, asked + 1, 'the new answer has no expiry: cached');
      } finally {
        await v.close();
      }
    },
  );
}

test('a signature failure of a known agent asks the source again at most once per 2 s', async () => {
  let now = 0;
  const src = answers(() => now);
  const registry = new CachedSignerRegistry({ source: src, now: () => now });
  await registry.load(AGENT);
  assert.equal(registry.revalidate(AGENT), false, 'fresh answer kept');
  now = 2_500;
  assert.equal(registry.revalidate(AGENT), true);
  assert.equal(registry.peek(AGENT), undefined);
  await registry.load(AGENT);
  assert.equal(registry.revalidate(AGENT), false);
  assert.equal(src.asked, 2);
});
