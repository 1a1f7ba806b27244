// Rule 3 end to end on the embedded chain: the observer, validating with the chain registry as
// the server wires it (a change the registry sees invalidates the observer's cache), accepts the
// envelopes of a SATI agent (registered with register_agent) signed by its owner or by a delegate
// with a DelegateV1 attestation, and drops, by name: a supply-1 Token-2022 NFT outside SATI's
// group (not_sati_member), an unknown id (unregistered), a delegate past its expiry
// (delegation_expired, by the clock alone), a revoked delegate (delegation_revoked, its
// attestation closed), and after the NFT moves to a new owner the old owner and the delegates it
// made (not_owner_or_delegate), while the new owner signs. SAS attestations are written as bytes
// (SAS does not run here; docs/chain.md "On the embedded chain: our stand-in registry").

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Keypair, PublicKey } from '@solana/web3.js';
import { createAgentIdentity, transferIdentity } from '../lib/chain/node/identity';
import { ChainSignerRegistry } from '../lib/chain/node/registry';
import { type ChainWorld, newChainAgent, startChainWorld } from '../lib/chain/node/testing';
import { delegateAttestationAddress, encodeDelegateAttestation, SATI_MAINNET } from '../lib/chain/sati';
import { type Observatory, startObservatory } from '../lib/observer/observatory';
import { makeBackend, quietLogger, type TestBackend, waitFor } from '../lib/observer/testing';
import { encodeCanonical } from '../lib/protocol/cbor';
import { buildEnvelope } from '../lib/protocol/envelope';
import { MsgType } from '../lib/protocol/types';

let w: ChainWorld;
let backend: TestBackend;
let obs: Observatory;
let registry: ChainSignerRegistry;
let now = Date.now();
let nonce = 1n;

before(async () => {
  w = await startChainWorld();
  now = Date.now();
  backend = await makeBackend('pglite');
  registry = new ChainSignerRegistry({
    connection: w.connection,
    sati: SATI_MAINNET,
    now: () => now,
    onChange: (a) => obs?.registry.invalidate(a.toBytes()),
  });
  obs = await startObservatory({
    config: backend.config,
    logger: quietLogger,
    signers: registry,
    clock: () => now,
    verifyWorkers: 0,
  });
});

after(async () => {
  await obs?.stop();
  await registry?.close();
  await backend?.cleanup();
  await w?.close();
});

/** Uploads one envelope of `sender` signed by `signer`; 'accepted' or the drop reason. */
async function upload(sender: PublicKey, signer: Keypair): Promise<string> {
  const e = buildEnvelope(
    {
      msgType: MsgType.ADVERTISE,
      sender: sender.toBytes(),
      timestamp: BigInt(now) * 1000n,
      nonce: nonce++,
      conversationId: new Uint8Array(16),
      payload: Uint8Array.of(7),
    },
    signer.secretKey.slice(0, 32),
  );
  const r = await obs.ingestUpload(encodeCanonical([e.bytes]));
  assert.equal(r.status, 200, r.error);
  const x = r.results[0];
  return x.ok ? 'accepted' : x.reason;
}

function delegate(agent: PublicKey, hot: PublicKey, by: PublicKey, expiry: bigint, lamports = 5_000_000n): void {
  const data =
    lamports === 0n
      ? new Uint8Array(0)
      : encodeDelegateAttestation({
          agent,
          delegate: hot,
          delegator: by,
          expiry,
          signer: w.admin.publicKey,
          addresses: SATI_MAINNET,
        });
  w.chain.writeAccount(delegateAttestationAddress(hot, agent, SATI_MAINNET).toBase58(), {
    lamports,
    data,
    owner: lamports === 0n ? PublicKey.default.toBase58() : SATI_MAINNET.sas.toBase58(),
  });
}

test('registered agents, delegates and every refusal by name', { timeout: 240_000 }, async () => {
  const A = await newChainAgent(w);
  const expiring = Keypair.generate(),
    revoked = Keypair.generate(),
    kept = Keypair.generate();
  delegate(A.agent, expiring.publicKey, A.owner.publicKey, BigInt(Math.floor(now / 1000) + 100));
  delegate(A.agent, revoked.publicKey, A.owner.publicKey, 0n);
  delegate(A.agent, kept.publicKey, A.owner.publicKey, 0n);
  const outsider = await w.wallet();
  const nft = await createAgentIdentity(w.connection, { payer: outsider });

  assert.equal(await upload(A.agent, A.owner), 'accepted', "the SATI agent's owner");
  assert.equal(await upload(A.agent, expiring), 'accepted', 'a delegate while valid');
  assert.equal(await upload(A.agent, revoked), 'accepted');
  assert.equal(await upload(A.agent, kept), 'accepted');
  assert.equal(
    await upload(nft.agent, outsider),
    'not_sati_member',
    'a supply-1 Token-2022 NFT holder outside the group',
  );
  assert.equal(await upload(Keypair.generate().publicKey, outsider), 'unregistered');
  assert.equal(await upload(A.agent, Keypair.generate()), 'signature', 'a key the chain never named');

  // Expiry: the clock passes it; nothing changes on chain.
  now += 101_000;
  assert.equal(await upload(A.agent, expiring), 'delegation_expired');
  assert.equal(await upload(A.agent, kept), 'accepted');

  // Revocation: SAS closes the attestation.
  delegate(A.agent, revoked.publicKey, A.owner.publicKey, 0n, 0n);
  // The revocation reaches the observer through the indexer: seconds on a quiet machine, more under load.
  await waitFor(
    'the revoked delegate refused',
    async () => (await upload(A.agent, revoked)) === 'delegation_revoked',
    90_000,
  );
  assert.equal(await upload(A.agent, kept), 'accepted');

  // Transfer: the NFT moves; the old owner and its delegations lose the right, the new owner signs.
  const next = await w.wallet();
  await transferIdentity(w.connection, { agent: A.agent, from: A.owner, to: next.publicKey });
  await waitFor('the new owner accepted', async () => (await upload(A.agent, next)) === 'accepted', 90_000);
  assert.equal(await upload(A.agent, A.owner), 'not_owner_or_delegate');
  assert.equal(await upload(A.agent, kept), 'not_owner_or_delegate');

  const counts = obs.dropCounts();
  for (const r of [
    'not_sati_member',
    'unregistered',
    'delegation_expired',
    'delegation_revoked',
    'not_owner_or_delegate',
  ])
    assert.ok((counts[r] ?? 0) >= 1, `${r} counted`);
});
