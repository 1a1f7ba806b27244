// The browser-safe Haggle builders: the PDA matches the program's own test client (the 16 raw
// conversation-id bytes), the accounts are the ones the generated instruction lists, and bad
// input is refused with a message naming it.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PublicKey } from '@solana/web3.js';
import { negotiationPda } from '../../programs/haggle/client';
import {
  acceptOfferInstructions,
  createNegotiationInstructions,
  expireNegotiationInstructions,
  haggle,
  negotiationAddresses,
  reservationCommitment,
  submitOfferInstructions,
  usdcAccountOf,
} from './index';

const key = (n: number) => new PublicKey(new Uint8Array(32).fill(n));
const buyer = key(1);
const seller = key(2);
const config = { usdcMint: key(3), treasury: key(4) };
const conversationId = Uint8Array.from({ length: 16 }, (_, i) => i * 7 + 1);
const ref = { buyer, seller, conversationId };

test("addresses: the negotiation PDA of the 16 raw bytes, its vault, the parties' USDC accounts", () => {
  const { negotiation, vault } = negotiationAddresses(ref);
  assert.equal(negotiation.toBase58(), negotiationPda(buyer, seller, conversationId)[0].toBase58());
  assert.equal(vault.toBase58(), haggle.findVaultPda(negotiation)[0].toBase58());
  const [ix] = acceptOfferInstructions({ ...ref, config, party: seller });
  assert.deepEqual(
    ix.keys.map((k) => k.pubkey.toBase58()),
    [
      seller,
      haggle.findConfigPda()[0],
      negotiation,
      vault,
      buyer,
      usdcAccountOf(config.usdcMint, buyer),
      usdcAccountOf(config.usdcMint, seller),
      config.treasury,
      new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'),
    ].map((k) => k.toBase58()),
  );
  assert.deepEqual(
    ix.keys.filter((k) => k.isSigner).map((k) => k.pubkey.toBase58()),
    [seller.toBase58()],
  );
  const [create] = createNegotiationInstructions({
    ...ref,
    config,
    deposit: 2000n,
    deadline: 1_700_000_600n,
    responseWindow: 60,
    decayBps: 50,
    maxRounds: 6,
  });
  const args = haggle.decodeCreateNegotiationArgs(create.data)!;
  assert.deepEqual(
    [args.deposit, args.decayBps, args.maxRounds, args.zopaDetection, args.protocolFeeBps],
    [2000n, 50, 6, 0, 0],
  );
  assert.deepEqual(Array.from(args.conversationId), Array.from(conversationId));
  const [offer] = submitOfferInstructions({
    ...ref,
    config,
    party: buyer,
    amount: 400n,
    metadata: Uint8Array.of(1, 2),
  });
  const o = haggle.decodeSubmitOfferArgs(offer.data)!;
  assert.deepEqual([o.amount, o.metadata.length, o.metadata[0], o.metadata[1], o.metadata[2]], [400n, 64, 1, 2, 0]);
  assert.equal(
    expireNegotiationInstructions({ ...ref, config })[0].keys.some((k) => k.isSigner),
    false,
    'anyone may expire: no signer in the instruction',
  );
});

test('bad input is refused', () => {
  assert.throws(
    () => negotiationAddresses({ ...ref, conversationId: new Uint8Array(15) }),
    /conversationId must be 16 bytes/,
  );
  assert.throws(() => negotiationAddresses({ ...ref, seller: buyer }), /buyer and seller must differ/);
  assert.throws(() => negotiationAddresses({ ...ref, buyer: 'x' as unknown as PublicKey }), /must be PublicKeys/);
  assert.throws(
    () =>
      createNegotiationInstructions({
        ...ref,
        config,
        deposit: 0n,
        deadline: 1n,
        responseWindow: 60,
        decayBps: 50,
        maxRounds: 6,
      }),
    /deposit must be a positive bigint/,
  );
  assert.throws(
    () =>
      createNegotiationInstructions({
        ...ref,
        config,
        deposit: 1n,
        deadline: 1n,
        responseWindow: 60,
        decayBps: 1.5,
        maxRounds: 6,
      }),
    /decayBps must be an integer/,
  );
  assert.throws(
    () => submitOfferInstructions({ ...ref, config, party: buyer, amount: 1n, metadata: new Uint8Array(65) }),
    /metadata must be at most 64 bytes/,
  );
  assert.throws(
    () => submitOfferInstructions({ ...ref, config: {} as never, party: buyer, amount: 1n }),
    /config must be a HaggleConfig/,
  );
  assert.throws(() => reservationCommitment(5n, new Uint8Array(31)), /salt must be 32 bytes/);
});
