/** Compute units of every haggle instruction (npm run bench:programs -- haggle). */
import { randomBytes } from 'node:crypto';
import * as haggle from '../../lib/chain/gen/haggle';
import { createUsdc, fundedWallet, newSvm, sendOk, usdcAccount } from '../testing';
import type { BenchRow } from '../tools/bench';
import { reservationCommitment } from './client';
import { newDeal, now, openDeal, params, setTime, setupHaggle, USDC } from './haggle-env';

export default function bench(): BenchRow[] {
  const svm0 = newSvm({ programs: ['haggle'] });
  const admin = fundedWallet(svm0);
  const usdc = createUsdc(svm0, admin);
  const treasury = usdcAccount(svm0, admin, usdc, admin.publicKey);
  const init = sendOk(
    svm0,
    [haggle.initializeInstruction({ admin: admin.publicKey, usdcMint: usdc.mint, treasury })],
    [admin],
  );

  const env = setupHaggle();
  const svm = env.svm;
  const d = newDeal(env);
  const create = sendOk(svm, [d.ix.create(params(env))], [d.b.kp]);
  const join = sendOk(svm, [d.ix.join()], [d.s.kp]);
  const bs = Uint8Array.from(randomBytes(32)),
    ss = Uint8Array.from(randomBytes(32));
  const commit = sendOk(svm, [d.ix.commit(d.buyer, reservationCommitment(80n * USDC, bs))], [d.b.kp]);
  sendOk(svm, [d.ix.commit(d.seller, reservationCommitment(70n * USDC, ss))], [d.s.kp]);
  const reveal = sendOk(svm, [d.ix.reveal(d.buyer, 80n * USDC, bs)], [d.b.kp]);
  sendOk(svm, [d.ix.reveal(d.seller, 70n * USDC, ss)], [d.s.kp]);
  const offer = sendOk(svm, [d.ix.offer(d.buyer, 60n * USDC)], [d.b.kp]);
  sendOk(svm, [d.ix.offer(d.seller, 80n * USDC)], [d.s.kp]);
  const accept = sendOk(svm, [d.ix.accept(d.buyer)], [d.b.kp]);

  const z = openDeal(env);
  const zb = Uint8Array.from(randomBytes(32)),
    zs = Uint8Array.from(randomBytes(32));
  sendOk(svm, [z.ix.commit(z.buyer, reservationCommitment(1n, zb))], [z.b.kp]);
  sendOk(svm, [z.ix.commit(z.seller, reservationCommitment(2n, zs))], [z.s.kp]);
  sendOk(svm, [z.ix.reveal(z.buyer, 1n, zb)], [z.b.kp]);
  const noZopa = sendOk(svm, [z.ix.reveal(z.seller, 2n, zs)], [z.s.kp]);

  const r = openDeal(env);
  sendOk(svm, [r.ix.offer(r.seller, 90n * USDC)], [r.s.kp]);
  const reject = sendOk(svm, [r.ix.reject(r.buyer)], [r.b.kp]);

  const x = openDeal(env, { responseWindow: 60 });
  setTime(svm, now(svm) + 61n);
  const expire = sendOk(svm, [x.ix.expire()], [fundedWallet(svm)]);

  return [
    { instruction: 'initialize', cu: init.computeUnits },
    { instruction: 'create_negotiation (+vault, deposit)', cu: create.computeUnits },
    { instruction: 'accept_negotiation', cu: join.computeUnits },
    { instruction: 'commit_reservation', cu: commit.computeUnits },
    { instruction: 'reveal_reservation (first, SHA-256)', cu: reveal.computeUnits },
    { instruction: 'reveal_reservation (no ZOPA, refund)', cu: noZopa.computeUnits },
    { instruction: 'submit_offer (decay to treasury)', cu: offer.computeUnits },
    { instruction: 'accept_offer (3 payouts, close)', cu: accept.computeUnits },
    { instruction: 'reject (refund, close)', cu: reject.computeUnits },
    { instruction: 'expire (refund, close)', cu: expire.computeUnits },
  ];
}
