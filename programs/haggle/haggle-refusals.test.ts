/**
 * Haggle failure paths on litesvm: every refusal by its error name, and nothing moved when a
 * transaction fails (balances checked where money could have moved).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import * as haggle from '../../lib/chain/gen/haggle';
import { fundedWallet, Keypair, sendErr, sendOk, usdcAccount } from '../testing';
import { reservationCommitment } from './client';
import { balances, negotiationOf, newDeal, now, openDeal, params, setTime, setupHaggle, T0, USDC } from './haggle-env';

const E = haggle.ERRORS;
const salt = () => Uint8Array.from(randomBytes(32));

describe('haggle: create_negotiation refusals', () => {
  test('every parameter out of its range is InvalidParameters; the bounds themselves are accepted', () => {
    const env = setupHaggle();
    const t = now(env.svm);
    const bad = [
      { maxRounds: 0 },
      { maxRounds: 21 },
      { decayBps: 1001 },
      { responseWindow: 59 },
      { responseWindow: 3601 },
      { deadline: t + 59n },
      { deadline: t + 86_401n },
      { minOfferBps: 10_001 },
      { protocolFeeBps: 501 },
      { zopaDetection: 2 },
    ];
    const d = newDeal(env);
    for (const over of bad) sendErr(env.svm, [d.ix.create(params(env, over))], [d.b.kp], E.InvalidParameters);
    assert.equal(balances(env, d).vault, 0n);
    sendOk(
      env.svm,
      [
        d.ix.create(
          params(env, {
            maxRounds: 20,
            decayBps: 1000,
            responseWindow: 3600,
            deadline: t + 86_400n,
            minOfferBps: 10_000,
            protocolFeeBps: 500,
          }),
        ),
      ],
      [d.b.kp],
    );
    const e = newDeal(env);
    sendOk(
      env.svm,
      [
        e.ix.create(
          params(env, {
            maxRounds: 1,
            decayBps: 0,
            responseWindow: 60,
            deadline: t + 60n,
            minOfferBps: 0,
            protocolFeeBps: 0,
            zopaDetection: 0,
          }),
        ),
      ],
      [e.b.kp],
    );
  });

  test('zero deposit, too little USDC, same party, duplicate, wrong PDA, wrong mint, not initialized', () => {
    const env = setupHaggle();
    const d = newDeal(env, 50n * USDC);
    const p = params(env, { deposit: 10n * USDC });
    sendErr(env.svm, [d.ix.create({ ...p, deposit: 0n })], [d.b.kp], E.ZeroDeposit);
    sendErr(env.svm, [d.ix.create({ ...p, deposit: 50n * USDC + 1n })], [d.b.kp], E.InsufficientUsdc);
    sendErr(env.svm, [d.ix.create(p, { seller: d.buyer })], [d.b.kp], E.SameParty);
    sendErr(env.svm, [d.ix.create(p, { negotiation: Keypair.generate().publicKey })], [d.b.kp], E.WrongPda);
    sendErr(env.svm, [d.ix.create(p, { vault: Keypair.generate().publicKey })], [d.b.kp], E.WrongPda);
    sendErr(env.svm, [d.ix.create(p, { usdcMint: Keypair.generate().publicKey })], [d.b.kp], E.WrongMint);
    sendErr(env.svm, [d.ix.create(p, { config: Keypair.generate().publicKey })], [d.b.kp], E.NotInitialized);
    sendOk(env.svm, [d.ix.create(p)], [d.b.kp]);
    sendErr(env.svm, [d.ix.create(p)], [d.b.kp], E.AlreadyExists);
    assert.equal(balances(env, d).buyer, 40n * USDC);
  });
});

describe('haggle: accept_negotiation and submit_offer refusals', () => {
  test('only the seller joins, once; no offer before the seller joined', () => {
    const env = setupHaggle();
    const d = newDeal(env);
    sendOk(env.svm, [d.ix.create(params(env))], [d.b.kp]);
    sendErr(env.svm, [d.ix.offer(d.buyer, 60n * USDC)], [d.b.kp], E.NotJoined);
    sendErr(env.svm, [d.ix.join(d.buyer)], [d.b.kp], E.NotSeller);
    const mallory = fundedWallet(env.svm);
    sendErr(env.svm, [d.ix.join(mallory.publicKey)], [mallory], E.NotSeller);
    sendOk(env.svm, [d.ix.join()], [d.s.kp]);
    sendErr(env.svm, [d.ix.join()], [d.s.kp], E.AlreadyJoined);
  });

  test('wrong side offering: the same side twice in a row; a third party cannot offer', () => {
    const env = setupHaggle();
    const d = openDeal(env);
    sendOk(env.svm, [d.ix.offer(d.buyer, 60n * USDC)], [d.b.kp]);
    sendErr(env.svm, [d.ix.offer(d.buyer, 61n * USDC)], [d.b.kp], E.WrongSide);
    const mallory = fundedWallet(env.svm);
    sendErr(env.svm, [d.ix.offer(mallory.publicKey, 60n * USDC)], [mallory], E.NotParty);
    sendOk(env.svm, [d.ix.offer(d.seller, 90n * USDC)], [d.s.kp]);
    sendErr(env.svm, [d.ix.offer(d.seller, 89n * USDC)], [d.s.kp], E.WrongSide);
    assert.equal(negotiationOf(env, d)!.round, 2);
  });

  test('offer below min_offer_bps of the deposit, or above the escrow left after the decay', () => {
    const env = setupHaggle();
    const d = openDeal(env); // floor 50% of 100 USDC; 95 USDC left after round 1
    const before = balances(env, d);
    sendErr(env.svm, [d.ix.offer(d.buyer, 50n * USDC - 1n)], [d.b.kp], E.OfferBelowMinimum);
    sendErr(env.svm, [d.ix.offer(d.buyer, 95n * USDC + 1n)], [d.b.kp], E.OfferAboveEscrow);
    assert.deepEqual(balances(env, d), before);
    sendOk(env.svm, [d.ix.offer(d.buyer, 50n * USDC)], [d.b.kp]);
    sendOk(env.svm, [d.ix.offer(d.seller, 90_250_000n)], [d.s.kp]);
  });

  test('after the deadline; after a missed response window', () => {
    const env = setupHaggle();
    const d = openDeal(env, { responseWindow: 3600, deadline: T0 + 600n });
    setTime(env.svm, T0 + 601n);
    sendErr(env.svm, [d.ix.offer(d.buyer, 60n * USDC)], [d.b.kp], E.DeadlinePassed);
    const w = openDeal(env, { responseWindow: 60 });
    sendOk(env.svm, [w.ix.offer(w.buyer, 60n * USDC)], [w.b.kp]);
    setTime(env.svm, now(env.svm) + 60n);
    sendOk(env.svm, [w.ix.offer(w.seller, 90n * USDC)], [w.s.kp]); // the window's last second
    setTime(env.svm, now(env.svm) + 61n);
    sendErr(env.svm, [w.ix.offer(w.buyer, 60n * USDC)], [w.b.kp], E.ResponseWindowMissed);
    sendErr(env.svm, [w.ix.accept(w.buyer)], [w.b.kp], E.ResponseWindowMissed);
    assert.equal(balances(env, w).vault, 90_250_000n);
  });

  test('after max_rounds', () => {
    const env = setupHaggle();
    const d = openDeal(env, { maxRounds: 3, decayBps: 0 });
    sendOk(env.svm, [d.ix.offer(d.buyer, 60n * USDC)], [d.b.kp]);
    sendOk(env.svm, [d.ix.offer(d.seller, 90n * USDC)], [d.s.kp]);
    sendOk(env.svm, [d.ix.offer(d.buyer, 70n * USDC)], [d.b.kp]);
    sendErr(env.svm, [d.ix.offer(d.seller, 80n * USDC)], [d.s.kp], E.MaxRoundsReached);
  });

  test('a treasury or vault other than the configured ones', () => {
    const env = setupHaggle();
    const d = openDeal(env);
    sendErr(
      env.svm,
      [d.ix.offer(d.buyer, 60n * USDC, undefined, { treasury: d.buyerUsdc })],
      [d.b.kp],
      E.WrongTreasury,
    );
    const e = openDeal(env);
    sendErr(env.svm, [d.ix.offer(d.buyer, 60n * USDC, undefined, { vault: e.ix.vault })], [d.b.kp], E.WrongVault);
  });
});

describe('haggle: sealed reservation refusals', () => {
  test(
    'reveal not matching the commitment; reveal before ' + 'both committed; double commit; double reveal; disabled',
    () => {
      const env = setupHaggle();
      const d = openDeal(env);
      const bs = salt(),
        ss = salt();
      sendOk(env.svm, [d.ix.commit(d.buyer, reservationCommitment(80n * USDC, bs))], [d.b.kp]);
      sendErr(env.svm, [d.ix.commit(d.buyer, reservationCommitment(81n * USDC, bs))], [d.b.kp], E.AlreadyCommitted);
      sendErr(env.svm, [d.ix.reveal(d.buyer, 80n * USDC, bs)], [d.b.kp], E.NotBothCommitted);
      sendOk(env.svm, [d.ix.commit(d.seller, reservationCommitment(70n * USDC, ss))], [d.s.kp]);
      sendErr(env.svm, [d.ix.reveal(d.buyer, 80n * USDC + 1n, bs)], [d.b.kp], E.RevealMismatch);
      sendErr(env.svm, [d.ix.reveal(d.buyer, 80n * USDC, ss)], [d.b.kp], E.RevealMismatch);
      // the buyer's opening is not the seller's
      sendErr(env.svm, [d.ix.reveal(d.seller, 80n * USDC, bs)], [d.s.kp], E.RevealMismatch);
      sendOk(env.svm, [d.ix.reveal(d.buyer, 80n * USDC, bs)], [d.b.kp]);
      sendErr(env.svm, [d.ix.reveal(d.buyer, 80n * USDC, bs)], [d.b.kp], E.AlreadyRevealed);
      const mallory = fundedWallet(env.svm);
      sendErr(env.svm, [d.ix.commit(mallory.publicKey, reservationCommitment(1n, bs))], [mallory], E.NotParty);
      const off = openDeal(env, { zopaDetection: 0 });
      sendErr(env.svm, [off.ix.commit(off.buyer, reservationCommitment(1n, bs))], [off.b.kp], E.ZopaDisabled);
    },
  );
});

describe('haggle: accept_offer, reject and expire refusals', () => {
  test("double settlement; a third party settling; accepting one's own offer; nothing to accept", () => {
    const env = setupHaggle();
    const d = openDeal(env);
    sendErr(env.svm, [d.ix.accept(d.seller)], [d.s.kp], E.NoOffer);
    sendOk(env.svm, [d.ix.offer(d.buyer, 60n * USDC)], [d.b.kp]);
    sendErr(env.svm, [d.ix.accept(d.buyer)], [d.b.kp], E.WrongSide);
    const mallory = fundedWallet(env.svm);
    const mUsdc = usdcAccount(env.svm, env.admin, env.usdc, mallory.publicKey);
    sendErr(env.svm, [d.ix.accept(mallory.publicKey, { sellerUsdc: mUsdc })], [mallory], E.NotParty);
    sendErr(env.svm, [d.ix.accept(mallory.publicKey)], [mallory], E.NotParty);
    sendOk(env.svm, [d.ix.accept(d.seller)], [d.s.kp]);
    const after = balances(env, d);
    sendErr(env.svm, [d.ix.accept(d.seller)], [d.s.kp], E.NoNegotiation);
    sendErr(env.svm, [d.ix.reject(d.buyer)], [d.b.kp], E.NoNegotiation);
    sendErr(env.svm, [d.ix.expire()], [mallory], E.NoNegotiation);
    assert.deepEqual(balances(env, d), after);
  });

  test("payouts only to the parties' own token accounts and the configured treasury", () => {
    const env = setupHaggle();
    const d = openDeal(env);
    sendOk(env.svm, [d.ix.offer(d.seller, 90n * USDC)], [d.s.kp]);
    sendErr(env.svm, [d.ix.accept(d.buyer, { sellerUsdc: d.buyerUsdc })], [d.b.kp], E.WrongTokenOwner);
    sendErr(env.svm, [d.ix.accept(d.buyer, { treasury: d.buyerUsdc })], [d.b.kp], E.WrongTreasury);
    const mallory = fundedWallet(env.svm);
    const mUsdc = usdcAccount(env.svm, env.admin, env.usdc, mallory.publicKey);
    sendErr(env.svm, [d.ix.reject(d.seller, { buyerUsdc: mUsdc })], [d.s.kp], E.WrongTokenOwner);
    sendErr(env.svm, [d.ix.reject(d.seller, { buyer: mallory.publicKey })], [d.s.kp], E.WrongTokenOwner);
    sendErr(env.svm, [d.ix.reject(mallory.publicKey)], [mallory], E.NotParty);
    assert.equal(balances(env, d).vault, 95n * USDC);
  });

  test('expire before time: neither the deadline nor the response window has passed', () => {
    const env = setupHaggle();
    const d = openDeal(env, { responseWindow: 600, deadline: T0 + 3600n });
    const anyone = fundedWallet(env.svm);
    sendErr(env.svm, [d.ix.expire()], [anyone], E.NotExpired);
    setTime(env.svm, T0 + 600n); // the window's last second (joined at T0)
    sendErr(env.svm, [d.ix.expire()], [anyone], E.NotExpired);
    sendOk(env.svm, [d.ix.offer(d.buyer, 60n * USDC)], [d.b.kp]); // renews it: T0 + 1200 is the new last second
    setTime(env.svm, T0 + 1200n);
    sendErr(env.svm, [d.ix.expire()], [anyone], E.NotExpired);
    setTime(env.svm, T0 + 1201n);
    sendOk(env.svm, [d.ix.expire()], [anyone]);
  });
});
