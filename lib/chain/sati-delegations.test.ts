// "My agents"' delegation listing on the embedded chain: DelegateV1 attestation accounts written
// as fixtures (SAS does not run here), read back over RPC by the agent mint and given the status
// delegationValid decides: valid, expired, voided when the NFT moves, gone once closed; and the
// embedded chain reports no SAS program, so the page does not offer to revoke.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Keypair, PublicKey } from '@solana/web3.js';
import { transferIdentity } from './node/identity';
import { type ChainWorld, newChainAgent, startChainWorld } from './node/testing';
import { delegateAttestationAddress, encodeDelegateAttestation, SATI_MAINNET } from './sati';
import { listDelegations, sasProgramDeployed } from './sati-delegations';

let w: ChainWorld;
before(async () => {
  w = await startChainWorld();
});
after(async () => {
  await w?.close();
});

function attest(agent: PublicKey, hot: PublicKey, by: PublicKey, expiry: bigint): PublicKey {
  const address = delegateAttestationAddress(hot, agent, SATI_MAINNET);
  w.chain.writeAccount(address.toBase58(), {
    lamports: 5_000_000n,
    data: encodeDelegateAttestation({
      agent,
      delegate: hot,
      delegator: by,
      expiry,
      signer: w.admin.publicKey,
      addresses: SATI_MAINNET,
    }),
    owner: SATI_MAINNET.sas.toBase58(),
  });
  return address;
}
const close = (address: PublicKey) =>
  w.chain.writeAccount(address.toBase58(), {
    lamports: 0n,
    data: new Uint8Array(0),
    owner: PublicKey.default.toBase58(),
  });

test("lists an agent's delegations with their status now, and only that agent's", async () => {
  const A = await newChainAgent(w);
  const B = await newChainAgent(w);
  const now = Math.floor(Date.now() / 1000);
  const soon = Keypair.generate().publicKey,
    forever = Keypair.generate().publicKey,
    past = Keypair.generate().publicKey,
    closed = Keypair.generate().publicKey;
  attest(A.agent, soon, A.owner.publicKey, BigInt(now + 600));
  attest(A.agent, forever, A.owner.publicKey, 0n);
  attest(A.agent, past, A.owner.publicKey, BigInt(now - 5));
  close(attest(A.agent, closed, A.owner.publicKey, 0n));
  attest(B.agent, Keypair.generate().publicKey, B.owner.publicKey, 0n);

  const l = await listDelegations(w.connection, A.agent, SATI_MAINNET, now);
  assert.ok(l.ok);
  assert.ok(l.owner.equals(A.owner.publicKey));
  assert.deepEqual(
    l.rows.map((r) => [r.delegate.toBase58(), r.status, r.expiry]),
    [
      [soon.toBase58(), 'valid', BigInt(now + 600)],
      [forever.toBase58(), 'valid', 0n],
      [past.toBase58(), 'expired', BigInt(now - 5)],
    ],
    "valid first (expiring soonest first, never last), then expired; the closed one is gone; B's is not listed",
  );
  assert.ok(l.rows.every((r) => r.delegator.equals(A.owner.publicKey)));
  assert.equal(l.rows[2].reason, 'delegation_expired');

  // The same delegation read later is expired by the clock alone.
  const later = await listDelegations(w.connection, A.agent, SATI_MAINNET, now + 601);
  assert.ok(later.ok);
  assert.deepEqual(
    later.rows.map((r) => r.status),
    ['valid', 'expired', 'expired'],
  );

  // The NFT moves: every delegation the old owner made no longer counts.
  const next = Keypair.generate();
  await transferIdentity(w.connection, { agent: A.agent, from: A.owner, to: next.publicKey });
  const moved = await listDelegations(w.connection, A.agent, SATI_MAINNET, now);
  assert.ok(moved.ok);
  assert.ok(moved.owner.equals(next.publicKey));
  assert.deepEqual(
    moved.rows.map((r) => [r.status, r.reason]),
    [
      ['delegator_not_owner', 'delegator_not_owner'],
      ['delegator_not_owner', 'delegator_not_owner'],
      ['delegator_not_owner', 'delegator_not_owner'],
    ],
  );
});

test('an id that is not a SATI agent lists nothing, with the reason', async () => {
  const l = await listDelegations(
    w.connection,
    Keypair.generate().publicKey,
    SATI_MAINNET,
    Math.floor(Date.now() / 1000),
  );
  assert.deepEqual(l, { ok: false, reason: 'unregistered' });
});

test('the embedded chain runs no SAS program; its own registry stand-in is executable', async () => {
  assert.equal(await sasProgramDeployed(w.connection, SATI_MAINNET.sas), false);
  assert.equal(await sasProgramDeployed(w.connection, SATI_MAINNET.program), true);
});
