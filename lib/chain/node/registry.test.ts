// ChainSignerRegistry against the embedded chain over JSON-RPC: Token-2022
// identities resolve to their owner, the cache follows an NFT transfer, unknown ids give [],
// SATI accounts (assumed layout, lib/chain/sati.ts) built with setAccount resolve owner + delegates.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Keypair, PublicKey } from '@solana/web3.js';
import { TOKEN_2022_PROGRAM_ID, getMint } from '@solana/spl-token';
import { ChainSignerRegistry, type ResolvedIdentity } from './registry';
import { createAgentIdentity, findIdentityHolder, transferIdentity } from './identity';
import { encodeSatiIdentity, findSatiIdentityPda, parseSatiIdentity, SATI_AGENT_DISCRIMINATOR } from '../sati';
import { startChainWorld, type ChainWorld } from './testing';

let w: ChainWorld;
before(async () => { w = await startChainWorld(); });
after(async () => { await w.close(); });

const b58 = (keys: readonly Uint8Array[]) => keys.map((k) => new PublicKey(k).toBase58());

async function until<T>(f: () => Promise<T>, ok: (v: T) => boolean, tries = 200): Promise<T> {
  let v = await f();
  for (let i = 0; i < tries && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 10));
    v = await f();
  }
  return v;
}

describe('identity: Token-2022 NFT over JSON-RPC', () => {
  test('mint has decimals 0, supply 1, no mint authority; the owner holds it', async () => {
    const owner = await w.wallet();
    const id = await createAgentIdentity(w.connection, { payer: w.admin, owner: owner.publicKey });
    const mint = await getMint(w.connection, id.agent, 'confirmed', TOKEN_2022_PROGRAM_ID);
    assert.deepEqual([mint.decimals, mint.supply, mint.mintAuthority, mint.freezeAuthority], [0, 1n, null, null]);
    const holder = await findIdentityHolder(w.connection, id.agent);
    assert.ok(holder);
    assert.equal(holder.owner.toBase58(), owner.publicKey.toBase58());
    assert.equal(holder.tokenAccount.toBase58(), id.tokenAccount.toBase58());
  });
});

describe('ChainSignerRegistry (token2022)', () => {
  test('resolves id → owner, caches, follows a transfer to a new owner', async () => {
    const first = await w.wallet();
    const second = Keypair.generate();
    const id = await createAgentIdentity(w.connection, { payer: first });
    const changes: (ResolvedIdentity | null)[] = [];
    const reg = new ChainSignerRegistry({ connection: w.connection, onChange: (_a, i) => changes.push(i) });
    try {
      assert.deepEqual(b58(await reg.keysFor(id.agent.toBytes())), [first.publicKey.toBase58()]);
      assert.deepEqual(b58(await reg.keysFor(id.agent.toBytes())), [first.publicKey.toBase58()]);
      assert.equal(reg.lookups, 1);

      await transferIdentity(w.connection, { agent: id.agent, from: first, to: second.publicKey });
      // The holding account's notification drops the entry; the next call resolves the new holder.
      const keys = await until(() => reg.keysFor(id.agent.toBytes()), (k) => b58(k)[0] === second.publicKey.toBase58());
      assert.deepEqual(b58(keys), [second.publicKey.toBase58()]);
      assert.equal(reg.lookups, 2);
      assert.equal(changes.length, 1);
      assert.equal(changes[0], null);
      const r = await reg.resolve(id.agent);
      assert.equal(r?.owner.toBase58(), second.publicKey.toBase58());
      assert.equal(r?.source, 'token2022');
    } finally {
      await reg.close();
    }
  });

  test('unknown id → [] (cached briefly); a plain SPL mint is not an identity; bad argument throws', async () => {
    const reg = new ChainSignerRegistry({ connection: w.connection, subscribe: false });
    assert.deepEqual(await reg.keysFor(Keypair.generate().publicKey.toBytes()), []);
    assert.deepEqual(await reg.keysFor(w.usdcMint.toBytes()), []);
    await assert.rejects(() => reg.keysFor(new Uint8Array(31)), TypeError);
    assert.throws(() => new ChainSignerRegistry({ connection: w.connection, source: 'sati' }), /satiProgramId/);
    await reg.close();
  });
});

describe('ChainSignerRegistry (sati, assumed layout)', () => {
  const program = Keypair.generate().publicKey;
  const setSati = (address: PublicKey, data: Uint8Array, owner = program) =>
    w.chain.svm.setAccount({ address: address.toBase58() as never, lamports: 10_000_000n as never, data, programAddress: owner.toBase58() as never, executable: false, space: BigInt(data.length) } as never);

  test('owner and delegates from a SATI account; changes picked up after invalidate', async () => {
    const agent = Keypair.generate().publicKey;
    const owner = Keypair.generate().publicKey;
    const hot = Keypair.generate().publicKey;
    const pda = findSatiIdentityPda(agent, program);
    setSati(pda, encodeSatiIdentity({ agent, owner, delegates: [hot] }));
    const reg = new ChainSignerRegistry({ connection: w.connection, source: 'sati', satiProgramId: program, subscribe: false });
    assert.deepEqual(b58(await reg.keysFor(agent.toBytes())), [owner.toBase58(), hot.toBase58()]);
    const owner2 = Keypair.generate().publicKey;
    setSati(pda, encodeSatiIdentity({ agent, owner: owner2, delegates: [] }));
    assert.deepEqual(b58(await reg.keysFor(agent.toBytes())), [owner.toBase58(), hot.toBase58()], 'served from cache');
    reg.invalidate(agent);
    assert.deepEqual(b58(await reg.keysFor(agent.toBytes())), [owner2.toBase58()]);
    await reg.close();
  });

  test('refused: wrong program owner, wrong agent field, bad discriminator', async () => {
    const reg = new ChainSignerRegistry({ connection: w.connection, source: 'sati', satiProgramId: program, subscribe: false });
    const a1 = Keypair.generate().publicKey;
    setSati(findSatiIdentityPda(a1, program), encodeSatiIdentity({ agent: a1, owner: a1, delegates: [] }), Keypair.generate().publicKey);
    const a2 = Keypair.generate().publicKey;
    setSati(findSatiIdentityPda(a2, program), encodeSatiIdentity({ agent: a1, owner: a1, delegates: [] }));
    const a3 = Keypair.generate().publicKey;
    const bad = encodeSatiIdentity({ agent: a3, owner: a3, delegates: [] });
    bad[0] ^= 1;
    setSati(findSatiIdentityPda(a3, program), bad);
    for (const a of [a1, a2, a3]) assert.deepEqual(await reg.keysFor(a.toBytes()), []);
    await reg.close();
  });

  test('parseSatiIdentity: round trip; random bytes never throw', () => {
    const v = { agent: Keypair.generate().publicKey, owner: Keypair.generate().publicKey, delegates: [Keypair.generate().publicKey, Keypair.generate().publicKey] };
    const back = parseSatiIdentity(encodeSatiIdentity(v));
    assert.ok(back);
    assert.deepEqual([back.agent, back.owner, ...back.delegates].map((k) => k.toBase58()), [v.agent, v.owner, ...v.delegates].map((k) => k.toBase58()));
    const tooMany = encodeSatiIdentity({ ...v, delegates: [] });
    tooMany[72] = 9;
    assert.equal(parseSatiIdentity(tooMany), null);
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), fc.boolean(), (bytes, withDisc) => {
      const b = withDisc && bytes.length >= 8 ? Uint8Array.from([...SATI_AGENT_DISCRIMINATOR, ...bytes.subarray(8)]) : bytes;
      const r = parseSatiIdentity(b);
      return r === null || r.delegates.length <= 8;
    }));
  });
});
