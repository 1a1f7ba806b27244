// ChainSignerRegistry against the embedded chain over JSON-RPC, by SATI's rule alone: a member of
// the group RegistryConfig names resolves to its holder; a non-member supply-1 NFT, a plain
// Token-2022 NFT and an unknown id do not, each with its reason; a DelegateV1 delegate signs
// while its attestation is valid and is refused, with the reason, after expiry (a clock check),
// after revocation (the account closed) and after the NFT moves to a new owner (a real Token-2022
// transfer). SATI's accounts are written as bytes with the embedded chain's fixture write, which
// tells subscribers as a transaction would (lib/devchain/README.md "Fixture accounts").

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TOKEN_2022_PROGRAM_ID } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import {
  delegateAttestationAddress,
  encodeDelegateAttestation,
  encodeRegistryConfig,
  registryConfigAddress,
  SATI_MAINNET,
} from '../sati';
import { satiAgentMintBytes } from '../testing';
import { createAgentIdentity, identityTokenAccount, transferIdentity } from './identity';
import { ChainSignerRegistry, type ResolvedIdentity } from './registry';
import { registerSatiAgent } from './sati';
import { type ChainWorld, startChainWorld } from './testing';

let w: ChainWorld;
after(async () => {
  await w.close();
});

const b58 = (keys: readonly Uint8Array[]) => keys.map((k) => new PublicKey(k).toBase58());
const sati = { ...SATI_MAINNET, program: Keypair.generate().publicKey };
const group = Keypair.generate().publicKey;

async function until<T>(f: () => Promise<T> | T, ok: (v: T) => boolean, tries = 300): Promise<T> {
  let v = await f();
  for (let i = 0; i < tries && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 10));
    v = await f();
  }
  return v;
}

const write = (address: PublicKey, data: Uint8Array, owner: PublicKey, lamports = 10_000_000n) =>
  w.chain.writeAccount(address.toBase58(), { lamports, data, owner: owner.toBase58() });
/** A Token-2022 token account (165 bytes, initialized) holding `amount` of `mint` for `owner`. */
const tokenAccount = (mint: PublicKey, owner: PublicKey, amount: bigint) => {
  const b = new Uint8Array(165);
  b.set(mint.toBytes(), 0);
  b.set(owner.toBytes(), 32);
  new DataView(b.buffer).setBigUint64(64, amount, true);
  b[108] = 1;
  return b;
};
let members = 0n;
/** A SATI agent as register_agent leaves it: the member mint and its owner's associated account holding it. */
function satiAgent(owner: PublicKey, inGroup = group): PublicKey {
  const mint = Keypair.generate().publicKey;
  write(
    mint,
    satiAgentMintBytes({
      mint,
      group: inGroup,
      registry: registryConfigAddress(sati.program),
      owner,
      memberNumber: ++members,
    }),
    TOKEN_2022_PROGRAM_ID,
  );
  write(identityTokenAccount(mint, owner), tokenAccount(mint, owner, 1n), TOKEN_2022_PROGRAM_ID);
  return mint;
}
/** Writes (or with lamports 0 closes) the DelegateV1 attestation of `delegate` for `agent`. */
function delegation(
  agent: PublicKey,
  delegate: PublicKey,
  delegator: PublicKey,
  expiry: bigint,
  lamports = 5_000_000n,
): PublicKey {
  const at = delegateAttestationAddress(delegate, agent, sati);
  const data =
    lamports === 0n
      ? new Uint8Array(0)
      : encodeDelegateAttestation({
          agent,
          delegate,
          delegator,
          expiry,
          signer: Keypair.generate().publicKey,
          addresses: sati,
        });
  write(at, data, lamports === 0n ? new PublicKey(0) : sati.sas, lamports);
  return at;
}

before(async () => {
  w = await startChainWorld();
  write(
    registryConfigAddress(sati.program),
    encodeRegistryConfig({ groupMint: group, authority: PublicKey.default, totalAgents: 0n, bump: 255 }),
    sati.program,
  );
});

describe('ChainSignerRegistry: registration', () => {
  test(
    'a member of the group RegistryConfig names resolves ' + 'to its holder; anything else is refused with its reason',
    async () => {
      const owner = Keypair.generate().publicKey;
      const member = satiAgent(owner);
      const outsider = satiAgent(owner, Keypair.generate().publicKey);
      const plain = await createAgentIdentity(w.connection, { payer: await w.wallet() });
      const reg = new ChainSignerRegistry({ connection: w.connection, sati, subscribe: false });
      try {
        assert.deepEqual(b58(await reg.keysFor(member.toBytes())), [owner.toBase58()]);
        const id = await reg.resolve(member);
        assert.equal(id?.registration.memberNumber, members - 1n);
        assert.equal(id?.registration.name, 'agent');
        assert.equal(id?.account.toBase58(), identityTokenAccount(member, owner).toBase58());
        assert.deepEqual(await reg.signersFor(outsider.toBytes()), { keys: [], reason: 'not_sati_member' });
        assert.deepEqual(
          await reg.signersFor(plain.agent.toBytes()),
          { keys: [], reason: 'not_sati_member' },
          'a supply-1 Token-2022 NFT outside the group',
        );
        assert.deepEqual(await reg.signersFor(Keypair.generate().publicKey.toBytes()), {
          keys: [],
          reason: 'unregistered',
        });
        assert.deepEqual(
          await reg.signersFor(w.usdcMint.toBytes()),
          { keys: [], reason: 'unregistered' },
          'an SPL Token mint',
        );
        await assert.rejects(() => reg.keysFor(new Uint8Array(31)), TypeError);
      } finally {
        await reg.close();
      }
      const elsewhere = new ChainSignerRegistry({
        connection: w.connection,
        sati: { ...sati, program: Keypair.generate().publicKey },
        subscribe: false,
      });
      assert.deepEqual(
        await elsewhere.signersFor(member.toBytes()),
        { keys: [], reason: 'unregistered' },
        'no RegistryConfig: no registry, nobody registered',
      );
      await elsewhere.close();
    },
  );
});

describe("ChainSignerRegistry: the embedded chain's own registry at SATI's id", () => {
  test('an agent registered with register_agent resolves to its owner; a plain Token-2022 NFT does not', async () => {
    const owner = await w.wallet();
    const a = await registerSatiAgent(w.connection, owner, owner.publicKey, {
      name: 'Ada',
      uri: 'data:application/json,{}',
    });
    const plain = await createAgentIdentity(w.connection, { payer: owner });
    const reg = new ChainSignerRegistry({ connection: w.connection, subscribe: false });
    try {
      assert.deepEqual(b58(await reg.keysFor(a.agent.toBytes())), [owner.publicKey.toBase58()]);
      assert.equal((await reg.resolve(a.agent))?.registration.name, 'Ada');
      assert.deepEqual(await reg.signersFor(plain.agent.toBytes()), { keys: [], reason: 'not_sati_member' });
    } finally {
      await reg.close();
    }
  });
});

describe('ChainSignerRegistry: who may sign', () => {
  test('a delegate signs while its attestation is valid; expiry is a clock check at every answer', async () => {
    let now = Date.UTC(2030, 0, 1);
    const owner = Keypair.generate().publicKey;
    const agent = satiAgent(owner);
    const hot = Keypair.generate().publicKey,
      forever = Keypair.generate().publicKey,
      stale = Keypair.generate().publicKey;
    const expiry = BigInt(now / 1000 + 60);
    delegation(agent, hot, owner, expiry);
    delegation(agent, forever, owner, 0n);
    delegation(agent, stale, owner, BigInt(now / 1000 - 1));
    const reg = new ChainSignerRegistry({
      connection: w.connection,
      sati,
      subscribe: false,
      now: () => now,
      ttlMs: 1e9,
    });
    try {
      const a = await reg.signersFor(agent.toBytes());
      assert.deepEqual(b58(a.keys).sort(), [owner, hot, forever].map((k) => k.toBase58()).sort());
      assert.deepEqual(
        a.refused?.map((r) => [new PublicKey(r.key).toBase58(), r.reason]),
        [[stale.toBase58(), 'delegation_expired']],
      );
      assert.equal(a.validUntil, Number(expiry) * 1000, 'the answer holds until the first expiry');
      now = Number(expiry) * 1000;
      const b = await reg.signersFor(agent.toBytes());
      assert.equal(reg.lookups, 1, 'no new RPC: the clock alone expired it');
      assert.deepEqual(b58(b.keys).sort(), [owner, forever].map((k) => k.toBase58()).sort());
      assert.deepEqual(
        b.refused?.map((r) => r.reason),
        ['delegation_expired', 'delegation_expired'],
      );
      assert.equal(b.validUntil, undefined);
      const view = await reg.resolve(agent);
      assert.deepEqual(
        view?.delegates.map((d) => d.toBase58()),
        [forever.toBase58()],
      );
    } finally {
      await reg.close();
    }
  });

  test('a delegation whose notification never came is found by revalidate, at most every 2 s', async () => {
    let now = Date.now();
    const owner = Keypair.generate().publicKey;
    const agent = satiAgent(owner);
    const reg = new ChainSignerRegistry({ connection: w.connection, sati, subscribe: false, now: () => now });
    try {
      assert.deepEqual(b58(await reg.keysFor(agent.toBytes())), [owner.toBase58()]);
      const hot = Keypair.generate().publicKey;
      delegation(agent, hot, owner, 0n);
      assert.equal(reg.revalidate(agent.toBytes()), false, 'read less than 2 s ago');
      assert.deepEqual(b58(await reg.keysFor(agent.toBytes())), [owner.toBase58()], 'not followed: unknown yet');
      now += 2_000;
      assert.equal(reg.revalidate(agent.toBytes()), true);
      assert.deepEqual(b58(await reg.keysFor(agent.toBytes())).sort(), [owner, hot].map((k) => k.toBase58()).sort());
      assert.equal(reg.lookups, 2);
    } finally {
      await reg.close();
    }
  });

  test('a revocation and a delegation made before the subscriptions are confirmed still take effect', async () => {
    // The chain changes in the same tick as the first read returns, before a subscribe request has
    // even left the socket: no notification will come, so only the re-read once they are confirmed
    // sees it. The clock stands still, so the TTL cannot.
    const now = Date.now();
    const owner = Keypair.generate().publicKey;
    const agent = satiAgent(owner);
    const hot = Keypair.generate().publicKey,
      added = Keypair.generate().publicKey;
    delegation(agent, hot, owner, 0n);
    const changes: (ResolvedIdentity | null)[] = [];
    const reg = new ChainSignerRegistry({
      connection: w.connection,
      sati,
      now: () => now,
      onChange: (_a, i) => changes.push(i),
    });
    const keys = async () => b58((await reg.signersFor(agent.toBytes())).keys).sort();
    try {
      assert.deepEqual(await keys(), [owner, hot].map((k) => k.toBase58()).sort());
      delegation(agent, hot, owner, 0n, 0n);
      delegation(agent, added, owner, 0n);
      assert.deepEqual(
        await until(keys, (k) => !k.includes(hot.toBase58()) && k.includes(added.toBase58())),
        [owner, added].map((k) => k.toBase58()).sort(),
      );
      const answer = await reg.signersFor(agent.toBytes());
      assert.deepEqual(
        (answer.refused ?? []).map((r) => [new PublicKey(r.key).toBase58(), r.reason]),
        [[hot.toBase58(), 'delegation_revoked']],
      );
      assert.equal(reg.lookups, 1, 'one resolution; the re-read is not a cache miss');
      assert.ok(changes.length >= 1, 'the change was announced');
    } finally {
      await reg.close();
    }
  });

  test('revocation, a new delegation and a transfer take effect when the chain says so', async () => {
    const first = await w.wallet();
    const second = Keypair.generate().publicKey;
    const agent = satiAgent(first.publicKey);
    const hot = Keypair.generate().publicKey,
      later = Keypair.generate().publicKey,
      kept = Keypair.generate().publicKey;
    const hotAt = delegation(agent, hot, first.publicKey, 0n);
    delegation(agent, kept, first.publicKey, 0n);
    const changes: (ResolvedIdentity | null)[] = [];
    const reg = new ChainSignerRegistry({ connection: w.connection, sati, onChange: (_a, i) => changes.push(i) });
    const keys = async () => b58((await reg.signersFor(agent.toBytes())).keys).sort();
    const refused = async () =>
      Object.fromEntries(
        ((await reg.signersFor(agent.toBytes())).refused ?? []).map((r) => [new PublicKey(r.key).toBase58(), r.reason]),
      );
    try {
      assert.deepEqual(await keys(), [first.publicKey, hot, kept].map((k) => k.toBase58()).sort());

      // SAS revokes by closing the attestation account.
      delegation(agent, hot, first.publicKey, 0n, 0n);
      assert.deepEqual(
        await until(keys, (k) => k.length === 2),
        [first.publicKey, kept].map((k) => k.toBase58()).sort(),
      );
      assert.deepEqual(await refused(), { [hot.toBase58()]: 'delegation_revoked' });
      assert.ok(
        changes.length >= 1 &&
          changes.at(-1)?.delegations.some((d) => d.address.equals(hotAt) && d.status === 'delegation_revoked'),
      );

      // A delegation granted after the agent was cached arrives through programSubscribe.
      delegation(agent, later, first.publicKey, 0n);
      assert.ok((await until(keys, (k) => k.includes(later.toBase58()))).includes(later.toBase58()));
      assert.equal(reg.lookups, 1, 'followed, not re-read');

      // The NFT moves: the old owner and every delegation it made lose the right at once.
      await transferIdentity(w.connection, { agent, from: first, to: second });
      assert.deepEqual(await until(keys, (k) => k[0] === second.toBase58()), [second.toBase58()]);
      assert.equal(changes.includes(null), true, 'the holder change was announced');
      assert.deepEqual(await refused(), {
        [first.publicKey.toBase58()]: 'not_owner_or_delegate',
        [kept.toBase58()]: 'not_owner_or_delegate',
        [later.toBase58()]: 'not_owner_or_delegate',
      });
      // The new owner's own delegation is valid.
      const fresh = Keypair.generate().publicKey;
      delegation(agent, fresh, second, 0n);
      assert.deepEqual(await until(keys, (k) => k.length === 2), [second, fresh].map((k) => k.toBase58()).sort());
    } finally {
      await reg.close();
    }
  });
});
