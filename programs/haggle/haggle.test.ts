/**
 * Haggle success paths on litesvm, with exact USDC balances of buyer, seller, treasury and vault
 * after every step, the rent returned to the buyer and the events the indexer decodes.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import * as haggle from '../../lib/chain/gen/haggle';
import { fundedWallet, getAccount, mintTo, programData, sendOk } from '../testing';
import { reservationCommitment } from './client';
import {
  balances,
  type HaggleEnv,
  lamportsOf,
  negotiationOf,
  newDeal,
  now,
  openDeal,
  params,
  setTime,
  setupHaggle,
  T0,
  type TestDeal,
  USDC,
} from './haggle-env';

const events = (logs: string[]) => programData(logs).map(([d]) => haggle.decodeEvent(d));
const START = 1_000n * USDC;
const salt = () => Uint8Array.from(randomBytes(32));

function assertClosed(env: HaggleEnv, d: TestDeal) {
  assert.equal(getAccount(env.svm, d.ix.negotiation), null);
  assert.equal(getAccount(env.svm, d.ix.vault), null);
}

describe('haggle: create_negotiation and accept_negotiation', () => {
  test('escrows the deposit in the vault PDA and records the parameters; the seller joins', () => {
    const env = setupHaggle();
    const d = newDeal(env);
    const r = sendOk(env.svm, [d.ix.create(params(env))], [d.b.kp]);
    assert.deepEqual(balances(env, d), { buyer: START - 100n * USDC, seller: 0n, treasury: 0n, vault: 100n * USDC });
    const n = negotiationOf(env, d)!;
    assert.ok(n.buyer.equals(d.buyer) && n.seller.equals(d.seller) && n.vault.equals(d.ix.vault));
    assert.deepEqual(n.conversationId, d.conversationId);
    assert.deepEqual(
      [
        n.deposit,
        n.escrow,
        n.status,
        n.round,
        n.joined,
        n.createdAt,
        n.deadline,
        n.responseWindow,
        n.decayBps,
        n.minOfferBps,
        n.protocolFeeBps,
        n.maxRounds,
      ],
      [100n * USDC, 100n * USDC, 1, 0, 0, T0, T0 + 3600n, 600, 500, 5000, 200, 10],
    );
    const [ev] = events(r.logs);
    assert.equal(ev?.name, 'NegotiationCreated');
    assert.deepEqual(
      ev?.name === 'NegotiationCreated' && [ev.data.deposit, ev.data.conversationId, ev.data.negotiation.toBase58()],
      [100n * USDC, d.conversationId, d.ix.negotiation.toBase58()],
    );
    setTime(env.svm, T0 + 10n);
    const j = sendOk(env.svm, [d.ix.join()], [d.s.kp]);
    assert.deepEqual([negotiationOf(env, d)!.joined, negotiationOf(env, d)!.lastActionAt], [1, T0 + 10n]);
    assert.equal(events(j.logs)[0]?.name, 'NegotiationJoined');
  });
});

describe('haggle: offers and settlement', () => {
  test('buyer opens, seller counters, buyer offers, seller accepts: decay per round, fee, refund, rent back', () => {
    const env = setupHaggle();
    const d = openDeal(env);
    const o1 = sendOk(env.svm, [d.ix.offer(d.buyer, 60n * USDC, new Uint8Array(64).fill(7))], [d.b.kp]);
    // round 1: 5% of 100 USDC to the treasury
    assert.deepEqual(balances(env, d), {
      buyer: START - 100n * USDC,
      seller: 0n,
      treasury: 5_000_000n,
      vault: 95_000_000n,
    });
    const [e1] = events(o1.logs);
    assert.deepEqual(
      e1?.name === 'OfferSubmitted' && [
        e1.data.amount,
        e1.data.decay,
        e1.data.escrow,
        e1.data.side,
        e1.data.round,
        e1.data.status,
        e1.data.metadata[0],
      ],
      [60n * USDC, 5_000_000n, 95_000_000n, 1, 1, 2, 7],
    );
    sendOk(env.svm, [d.ix.offer(d.seller, 80n * USDC)], [d.s.kp]);
    let n = negotiationOf(env, d)!;
    assert.deepEqual(
      [n.status, n.round, n.escrow, n.decayed, n.currentOffer, n.lastOfferBy],
      [3, 2, 90_250_000n, 9_750_000n, 80n * USDC, 2],
    );
    sendOk(env.svm, [d.ix.offer(d.buyer, 70n * USDC)], [d.b.kp]);
    n = negotiationOf(env, d)!;
    assert.deepEqual([n.status, n.round, n.escrow, n.decayed], [2, 3, 85_737_500n, 14_262_500n]);
    assert.deepEqual(balances(env, d), {
      buyer: START - 100n * USDC,
      seller: 0n,
      treasury: 14_262_500n,
      vault: 85_737_500n,
    });

    const rent = lamportsOf(env, d.ix.negotiation) + lamportsOf(env, d.ix.vault);
    const buyerLamports = lamportsOf(env, d.buyer);
    const r = sendOk(env.svm, [d.ix.accept(d.seller)], [d.s.kp]);
    // 70 USDC agreed: 2% fee (1.4) to the treasury, 68.6 to the seller, 85.7375 - 70 back to the buyer
    assert.deepEqual(balances(env, d), {
      buyer: START - 100n * USDC + 15_737_500n,
      seller: 68_600_000n,
      treasury: 15_662_500n,
      vault: 0n,
    });
    assert.equal(lamportsOf(env, d.buyer), buyerLamports + rent);
    assertClosed(env, d);
    const [acc, settled] = events(r.logs);
    assert.deepEqual(acc?.name === 'OfferAccepted' && [acc.data.amount, acc.data.side, acc.data.round], [
      70n * USDC,
      2,
      3,
    ]);
    assert.deepEqual(
      settled?.name === 'NegotiationSettled' && [
        settled.data.amount,
        settled.data.fee,
        settled.data.toSeller,
        settled.data.refund,
        settled.data.decayed,
      ],
      [70n * USDC, 1_400_000n, 68_600_000n, 15_737_500n, 14_262_500n],
    );
  });

  test('the seller may open; the buyer accepts it', () => {
    const env = setupHaggle();
    const d = openDeal(env);
    sendOk(env.svm, [d.ix.offer(d.seller, 90n * USDC)], [d.s.kp]);
    assert.deepEqual([negotiationOf(env, d)!.status, negotiationOf(env, d)!.opener], [2, 2]);
    sendOk(env.svm, [d.ix.accept(d.buyer)], [d.b.kp]);
    // 95 USDC left after round 1; 90 agreed: fee 1.8, seller 88.2, buyer 5 back
    assert.deepEqual(balances(env, d), {
      buyer: START - 95n * USDC,
      seller: 88_200_000n,
      treasury: 6_800_000n,
      vault: 0n,
    });
    assertClosed(env, d);
  });

  test('decay rounds down every round; no decay and no fee move nothing to the treasury', () => {
    const env = setupHaggle();
    const d = openDeal(env, { deposit: 1_000_003n, decayBps: 7, minOfferBps: 0, protocolFeeBps: 0 });
    sendOk(env.svm, [d.ix.offer(d.buyer, 1n)], [d.b.kp]); // floor(1_000_003 * 7 / 10_000) = 700
    sendOk(env.svm, [d.ix.offer(d.seller, 998_000n)], [d.s.kp]); // floor(999_303 * 7 / 10_000) = 699
    assert.deepEqual(balances(env, d), { buyer: START - 1_000_003n, seller: 0n, treasury: 1_399n, vault: 998_604n });
    sendOk(env.svm, [d.ix.accept(d.buyer)], [d.b.kp]);
    assert.deepEqual(balances(env, d), {
      buyer: START - 1_000_003n + 604n,
      seller: 998_000n,
      treasury: 1_399n,
      vault: 0n,
    });

    const z = openDeal(env, { decayBps: 0, protocolFeeBps: 0 });
    sendOk(env.svm, [z.ix.offer(z.buyer, 50n * USDC)], [z.b.kp]);
    sendOk(env.svm, [z.ix.accept(z.seller)], [z.s.kp]);
    assert.deepEqual(balances(env, z), { buyer: START - 50n * USDC, seller: 50n * USDC, treasury: 1_399n, vault: 0n });
  });

  test('the last round may still be accepted; the same conversation can be negotiated again after settlement', () => {
    const env = setupHaggle();
    const d = openDeal(env, { maxRounds: 2, decayBps: 1000 });
    sendOk(env.svm, [d.ix.offer(d.buyer, 50n * USDC)], [d.b.kp]);
    sendOk(env.svm, [d.ix.offer(d.seller, 81n * USDC)], [d.s.kp]); // escrow 90 then 81
    sendOk(env.svm, [d.ix.accept(d.buyer)], [d.b.kp]);
    assert.deepEqual(balances(env, d), {
      buyer: START - 100n * USDC,
      seller: 79_380_000n,
      treasury: 19n * USDC + 1_620_000n,
      vault: 0n,
    });
    sendOk(env.svm, [d.ix.create(params(env))], [d.b.kp]);
    assert.equal(negotiationOf(env, d)!.status, 1);
  });
});

describe('haggle: refunds', () => {
  test('reject by the buyer after a round: the escrow left goes back, the decay stays with the treasury', () => {
    const env = setupHaggle();
    const d = openDeal(env);
    sendOk(env.svm, [d.ix.offer(d.seller, 90n * USDC)], [d.s.kp]);
    const rent = lamportsOf(env, d.ix.negotiation) + lamportsOf(env, d.ix.vault);
    const before = lamportsOf(env, d.buyer);
    const payer = fundedWallet(env.svm);
    const r = sendOk(env.svm, [d.ix.reject(d.buyer)], [payer, d.b.kp]);
    assert.deepEqual(balances(env, d), { buyer: START - 5n * USDC, seller: 0n, treasury: 5n * USDC, vault: 0n });
    assert.equal(lamportsOf(env, d.buyer), before + rent);
    assertClosed(env, d);
    const [ev] = events(r.logs);
    assert.deepEqual(
      ev?.name === 'NegotiationRefunded' && [
        ev.data.refund,
        ev.data.decayed,
        ev.data.status,
        ev.data.reason,
        ev.data.side,
      ],
      [95n * USDC, 5n * USDC, 7, 1, 1],
    );
  });

  test('reject by the seller before it joined: the whole deposit back', () => {
    const env = setupHaggle();
    const d = newDeal(env);
    sendOk(env.svm, [d.ix.create(params(env))], [d.b.kp]);
    sendOk(env.svm, [d.ix.reject(d.seller)], [d.s.kp]);
    assert.deepEqual(balances(env, d), { buyer: START, seller: 0n, treasury: 0n, vault: 0n });
    assertClosed(env, d);
  });

  test('expire by anyone after the deadline, and after a missed response window', () => {
    const env = setupHaggle();
    const d = openDeal(env, { responseWindow: 3600, deadline: T0 + 1800n });
    sendOk(env.svm, [d.ix.offer(d.buyer, 60n * USDC)], [d.b.kp]);
    setTime(env.svm, T0 + 1801n);
    const r = sendOk(env.svm, [d.ix.expire()], [fundedWallet(env.svm)]);
    assert.deepEqual(balances(env, d), { buyer: START - 5n * USDC, seller: 0n, treasury: 5n * USDC, vault: 0n });
    assertClosed(env, d);
    const [ev] = events(r.logs);
    assert.deepEqual(
      ev?.name === 'NegotiationRefunded' && [ev.data.status, ev.data.reason, ev.data.side, ev.data.refund],
      [6, 2, 0, 95n * USDC],
    );

    const w = openDeal(env, { responseWindow: 60 });
    sendOk(env.svm, [w.ix.offer(w.seller, 90n * USDC)], [w.s.kp]);
    setTime(env.svm, now(env.svm) + 61n);
    const r2 = sendOk(env.svm, [w.ix.expire()], [fundedWallet(env.svm)]);
    const [ev2] = events(r2.logs);
    assert.deepEqual(ev2?.name === 'NegotiationRefunded' && [ev2.data.reason, ev2.data.refund], [3, 95n * USDC]);
    assert.deepEqual(balances(env, w), { buyer: START - 5n * USDC, seller: 0n, treasury: 10n * USDC, vault: 0n });
  });

  test('tokens sent to the vault by a stranger are refunded too (the vault still closes)', () => {
    const env = setupHaggle();
    const d = openDeal(env);
    sendOk(env.svm, [d.ix.offer(d.buyer, 60n * USDC)], [d.b.kp]);
    // mint straight into the vault: the settlement must still empty it
    mintTo(env.svm, env.admin, env.usdc.mint, d.ix.vault, env.usdc.authority, 3n);
    sendOk(env.svm, [d.ix.accept(d.seller)], [d.s.kp]);
    assert.deepEqual(balances(env, d), {
      buyer: START - 100n * USDC + 35n * USDC + 3n,
      seller: 58_800_000n,
      treasury: 6_200_000n,
      vault: 0n,
    });
  });
});

describe('haggle: sealed reservations', () => {
  test('both revealed with a ZOPA: the negotiation goes on and settles', () => {
    const env = setupHaggle();
    const d = openDeal(env);
    const bs = salt(),
      ss = salt();
    sendOk(env.svm, [d.ix.commit(d.buyer, reservationCommitment(80n * USDC, bs))], [d.b.kp]);
    sendOk(env.svm, [d.ix.commit(d.seller, reservationCommitment(70n * USDC, ss))], [d.s.kp]);
    sendOk(env.svm, [d.ix.reveal(d.buyer, 80n * USDC, bs)], [d.b.kp]);
    const r = sendOk(env.svm, [d.ix.reveal(d.seller, 70n * USDC, ss)], [d.s.kp]);
    const [ev] = events(r.logs);
    assert.deepEqual(
      ev?.name === 'ReservationRevealed' && [ev.data.side, ev.data.bothRevealed, ev.data.zopa],
      [2, 1, 1],
    );
    assert.equal(negotiationOf(env, d)!.sealed, 15);
    sendOk(env.svm, [d.ix.offer(d.seller, 75n * USDC)], [d.s.kp]);
    sendOk(env.svm, [d.ix.accept(d.buyer)], [d.b.kp]);
    assert.deepEqual(balances(env, d), {
      buyer: START - 100n * USDC + 20n * USDC,
      seller: 73_500_000n,
      treasury: 6_500_000n,
      vault: 0n,
    });
  });

  test('both revealed without a ZOPA (buyer max < seller min): ends with a refund', () => {
    const env = setupHaggle();
    const d = openDeal(env);
    sendOk(env.svm, [d.ix.offer(d.buyer, 60n * USDC)], [d.b.kp]);
    const bs = salt(),
      ss = salt();
    sendOk(env.svm, [d.ix.commit(d.buyer, reservationCommitment(-1n, bs))], [d.b.kp]); // negative int128 compares below
    sendOk(env.svm, [d.ix.commit(d.seller, reservationCommitment(1n, ss))], [d.s.kp]);
    sendOk(env.svm, [d.ix.reveal(d.seller, 1n, ss)], [d.s.kp]);
    const r = sendOk(env.svm, [d.ix.reveal(d.buyer, -1n, bs)], [d.b.kp]);
    const [rev, ref] = events(r.logs);
    assert.deepEqual(rev?.name === 'ReservationRevealed' && [rev.data.bothRevealed, rev.data.zopa], [1, 0]);
    assert.deepEqual(
      ref?.name === 'NegotiationRefunded' && [ref.data.status, ref.data.reason, ref.data.side, ref.data.refund],
      [7, 4, 1, 95n * USDC],
    );
    assert.deepEqual(balances(env, d), { buyer: START - 5n * USDC, seller: 0n, treasury: 5n * USDC, vault: 0n });
    assertClosed(env, d);
  });
});
