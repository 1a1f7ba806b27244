// Haggle negotiations through the chain indexer on a real embedded chain (our compiled haggle
// program) and a real store: a settled, a rejected, a no-ZOPA and an expired negotiation, driven
// by the lib/chain/node Keypair senders; the stored negotiations and transitions, the token
// balances and the live events are checked to the unit, and a second indexer replaying every
// transaction from scratch changes nothing. PGlite always; Postgres with TEST_DATABASE_URL.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe } from 'node:test';
import type { Keypair } from '@solana/web3.js';
import { type HaggleConfig, type NegotiationRef, reservationCommitment } from '../chain/haggle';
import { fundUsdc, usdcAccountOf } from '../chain/node/economy';
import {
  acceptNegotiation,
  acceptOffer,
  commitReservation,
  createNegotiation,
  ensureHaggleConfig,
  expireNegotiation,
  rejectNegotiation,
  revealReservation,
  submitOffer,
} from '../chain/node/haggle';
import { type ChainWorld, startChainWorld } from '../chain/node/testing';
import { testOnEachStore } from '../store/backends-testing';
import type { Store } from '../store/index';
import { type IndexerLiveEvent, startChainIndexer } from './index';

async function balance(w: ChainWorld, owner: Keypair): Promise<bigint> {
  return BigInt(
    (await w.connection.getTokenAccountBalance(usdcAccountOf(w.usdcMint, owner.publicKey), 'confirmed')).value.amount,
  );
}

async function story(store: Store) {
  const w = await startChainWorld();
  const published: IndexerLiveEvent[] = [];
  let indexer = await startChainIndexer({
    connection: w.connection,
    store,
    bus: { publish: (e) => void published.push(e) },
    pollMs: 60_000,
  });
  try {
    const config: HaggleConfig = await ensureHaggleConfig(w.connection, {
      admin: w.admin,
      usdcMint: w.usdcMint,
      treasury: w.treasury,
    });
    const buyer = await w.wallet(10_000n);
    const seller = await w.wallet();
    await fundUsdc(w.connection, {
      payer: w.admin,
      mintAuthority: w.admin,
      usdcMint: w.usdcMint,
      owner: seller.publicKey,
      amount: 0n,
    });
    const now = () => w.epoch() * w.epochSeconds + 1n; // the world's clock sits 1 s into the epoch
    const treasury = async () =>
      BigInt((await w.connection.getTokenAccountBalance(w.treasury, 'confirmed')).value.amount);
    const open = async (
      deposit: bigint,
      over: { decayBps?: number; responseWindow?: number; zopaDetection?: boolean } = {},
    ) => {
      const ref: NegotiationRef = {
        buyer: buyer.publicKey,
        seller: seller.publicKey,
        conversationId: Uint8Array.from(randomBytes(16)),
      };
      await createNegotiation(w.connection, {
        ...ref,
        buyer,
        config,
        deposit,
        deadline: now() + 3600n,
        responseWindow: over.responseWindow ?? 600,
        decayBps: over.decayBps ?? 50,
        maxRounds: 6,
        protocolFeeBps: 200,
        zopaDetection: over.zopaDetection ?? false,
      });
      await acceptNegotiation(w.connection, { ...ref, seller });
      return ref;
    };
    const t0 = await treasury();

    // Settled: 400 (decay 10 of 2000), 900 (9 of 1990), 600 (9 of 1981), accepted by the seller.
    const settled = await open(2000n);
    await submitOffer(w.connection, { ...settled, config, party: buyer, amount: 400n });
    await submitOffer(w.connection, { ...settled, config, party: seller, amount: 900n });
    await submitOffer(w.connection, { ...settled, config, party: buyer, amount: 600n });
    await acceptOffer(w.connection, { ...settled, config, party: seller });
    // 600 at 2% fee: 12 to the treasury, 588 to the seller; 1972 − 600 = 1372 back to the buyer.
    assert.equal(await balance(w, seller), 588n);
    assert.equal(await balance(w, buyer), 10_000n - 600n - 28n);
    assert.equal(await treasury(), t0 + 28n + 12n);

    await indexer.idle();
    await indexer.stop(); // the rest is found by the catch-up of a restarted indexer

    // Rejected by the seller after one offer (decay 1% of 1000).
    const rejected = await open(1000n, { decayBps: 100 });
    await submitOffer(w.connection, { ...rejected, config, party: buyer, amount: 300n });
    await rejectNegotiation(w.connection, { ...rejected, config, party: seller });

    // No ZOPA: buyer pays at most 500, seller takes at least 800; the second reveal refunds.
    const noZopa = await open(1000n, { zopaDetection: true });
    const salts = [Uint8Array.from(randomBytes(32)), Uint8Array.from(randomBytes(32))];
    await commitReservation(w.connection, {
      ...noZopa,
      party: buyer,
      commitment: reservationCommitment(500n, salts[0]),
    });
    await commitReservation(w.connection, {
      ...noZopa,
      party: seller,
      commitment: reservationCommitment(800n, salts[1]),
    });
    await revealReservation(w.connection, { ...noZopa, config, party: buyer, price: 500n, salt: salts[0] });
    await revealReservation(w.connection, { ...noZopa, config, party: seller, price: 800n, salt: salts[1] });

    // Expired: the seller stays silent past the 60 s response window; a stranger (the admin) expires it.
    const expired = await open(500n, { responseWindow: 60 });
    await submitOffer(w.connection, { ...expired, config, party: buyer, amount: 250n });
    await w.setEpoch(w.epoch() + 10n); // +100 s
    await expireNegotiation(w.connection, { ...expired, config, payer: w.admin });

    assert.equal(await balance(w, buyer), 10_000n - 628n - 10n - 2n, 'only decay and the settled price left the buyer');
    indexer = await startChainIndexer({
      connection: w.connection,
      store,
      bus: { publish: (e) => void published.push(e) },
      pollMs: 60_000,
    });
    await indexer.idle();

    const one = async (ref: NegotiationRef) => {
      const rows = await store.onChainNegotiations(ref.conversationId);
      assert.equal(rows.length, 1);
      return rows[0];
    };
    const s = await one(settled);
    assert.deepEqual(
      [
        s.status,
        s.reason,
        s.deposit,
        s.escrow,
        s.decayed,
        s.rounds,
        s.currentOffer,
        s.lastOfferBy,
        s.amount,
        s.fee,
        s.toSeller,
        s.refund,
        s.joined,
        s.closedAt !== null,
      ],
      ['settled', null, 2000n, 0n, 28n, 3, 600n, 1, 600n, 12n, 588n, 1372n, true, true],
    );
    assert.deepEqual(
      [s.buyer, s.seller, s.decayBps, s.protocolFeeBps, s.maxRounds],
      [buyer.publicKey.toBase58(), seller.publicKey.toBase58(), 50, 200, 6],
    );
    assert.deepEqual(
      s.transitions.map((t) => [t.kind, t.side, t.amount, t.decay, t.escrow, t.status]),
      [
        ['created', null, 2000n, null, 2000n, 'created'],
        ['joined', 2, null, null, null, null],
        ['offer', 1, 400n, 10n, 1990n, 'proposed'],
        ['offer', 2, 900n, 9n, 1981n, 'countered'],
        ['offer', 1, 600n, 9n, 1972n, 'proposed'],
        ['accepted', 2, 600n, null, null, 'accepted'],
        ['settled', null, 600n, null, 0n, 'settled'],
      ],
    );

    const r = await one(rejected);
    assert.deepEqual(
      [r.status, r.reason, r.refund, r.decayed, r.rounds, r.amount, r.escrow],
      ['rejected', 'rejected', 990n, 10n, 1, null, 0n],
    );
    assert.deepEqual(
      r.transitions.map((t) => t.kind),
      ['created', 'joined', 'offer', 'refunded'],
    );
    assert.equal(r.transitions[3].side, 2, 'the seller rejected');

    const z = await one(noZopa);
    assert.deepEqual(
      [z.status, z.reason, z.refund, z.decayed, z.buyerReservation, z.sellerReservation, z.zopa, z.zopaDetection],
      ['rejected', 'no ZOPA', 1000n, 0n, 500n, 800n, false, true],
    );
    assert.deepEqual(
      z.transitions.map((t) => [t.kind, t.side]),
      [
        ['created', null],
        ['joined', 2],
        ['committed', 1],
        ['committed', 2],
        ['revealed', 1],
        ['revealed', 2],
        ['refunded', 2],
      ],
    );

    const x = await one(expired);
    assert.deepEqual(
      [x.status, x.reason, x.refund, x.decayed, x.rounds, x.currentOffer],
      ['expired', 'response window', 498n, 2n, 1, 250n],
    );

    // Live events: each once, in chain order per negotiation.
    const conv = (ref: NegotiationRef) => Buffer.from(ref.conversationId).toString('hex');
    const typesOf = (ref: NegotiationRef) =>
      published.filter((e) => 'conversationId' in e.data && e.data.conversationId === conv(ref)).map((e) => e.type);
    assert.deepEqual(typesOf(settled), [
      'haggle_created',
      'haggle_joined',
      'haggle_offer',
      'haggle_offer',
      'haggle_offer',
      'haggle_accepted',
      'haggle_settled',
    ]);
    assert.deepEqual(typesOf(expired), ['haggle_created', 'haggle_joined', 'haggle_offer', 'haggle_refunded']);
    const refund = published.find((e) => e.type === 'haggle_refunded' && e.data.conversationId === conv(noZopa));
    assert.equal(refund?.type === 'haggle_refunded' && refund.data.reasonName, 'no ZOPA');

    // A second indexer replaying every transaction from scratch (its own cursors) adds nothing.
    await indexer.stop();
    const before = await Promise.all([settled, rejected, noZopa, expired].map(one));
    indexer = await startChainIndexer({ connection: w.connection, store, cursorName: 'replay', pollMs: 60_000 });
    await indexer.idle();
    assert.deepEqual(await Promise.all([settled, rejected, noZopa, expired].map(one)), before);
  } finally {
    await indexer.stop();
    await w.close();
  }
}

describe('haggle negotiations through the indexer', () => {
  testOnEachStore('settled, rejected, no ZOPA and expired negotiations stored with their transitions', story, {
    dbPrefix: 'zx_haggleidx',
    epochSeconds: 10,
  });
});
