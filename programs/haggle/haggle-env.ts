/**
 * Test/bench environment for haggle: the program initialized on a local USDC mint and treasury at
 * a fixed unix time, and deals between a funded buyer and seller with balance snapshots.
 */
import { randomBytes } from 'node:crypto';
import type { LiteSVM } from 'litesvm';
import { Clock } from 'litesvm';
import * as haggle from '../../lib/chain/gen/haggle';
import {
  createUsdc,
  fundedWallet,
  getAccount,
  Keypair,
  newSvm,
  type PublicKey,
  sendOk,
  tokenBalance,
  type Usdc,
  usdcAccount,
} from '../testing';
import { type CreateParams, type Deal, dealIxs } from './client';

export const USDC = 1_000_000n;
export const T0 = 1_750_000_000n;

export interface HaggleEnv {
  svm: LiteSVM;
  admin: Keypair;
  usdc: Usdc;
  treasury: PublicKey;
}

/** Sets the clock's unix time (seconds), keeping the slot. */
export function setTime(svm: LiteSVM, t: bigint): void {
  const c = svm.getClock();
  svm.setClock(new Clock(c.slot, c.epochStartTimestamp, c.epoch, c.leaderScheduleEpoch, t));
}
export const now = (svm: LiteSVM) => svm.getClock().unixTimestamp;

export function setupHaggle(svm: LiteSVM = newSvm({ programs: ['haggle'] })): HaggleEnv {
  setTime(svm, T0);
  const admin = fundedWallet(svm, 100);
  const usdc = createUsdc(svm, admin);
  const treasury = usdcAccount(svm, admin, usdc, Keypair.generate().publicKey);
  sendOk(svm, [haggle.initializeInstruction({ admin: admin.publicKey, usdcMint: usdc.mint, treasury })], [admin]);
  return { svm, admin, usdc, treasury };
}

export interface Party {
  kp: Keypair;
  usdc: PublicKey;
}
export type TestDeal = Deal & { b: Party; s: Party; ix: ReturnType<typeof dealIxs> };

/** A buyer holding `buyerUsdc`, a seller with an empty USDC account, a fresh conversation id. */
export function newDeal(env: HaggleEnv, buyerUsdc = 1_000n * USDC): TestDeal {
  const bk = fundedWallet(env.svm),
    sk = fundedWallet(env.svm);
  const b = { kp: bk, usdc: usdcAccount(env.svm, env.admin, env.usdc, bk.publicKey, buyerUsdc) };
  const s = { kp: sk, usdc: usdcAccount(env.svm, env.admin, env.usdc, sk.publicKey) };
  const d: Deal = {
    buyer: bk.publicKey,
    seller: sk.publicKey,
    conversationId: Uint8Array.from(randomBytes(16)),
    buyerUsdc: b.usdc,
    sellerUsdc: s.usdc,
    treasury: env.treasury,
    mint: env.usdc.mint,
  };
  return { ...d, b, s, ix: dealIxs(d) };
}

/** Defaults: 100 USDC escrow, 10 rounds, 5% decay, 10-minute windows, 1-hour deadline, 50% floor, 2% fee. */
export const params = (env: HaggleEnv, over: Partial<CreateParams> = {}): CreateParams => ({
  deposit: 100n * USDC,
  deadline: now(env.svm) + 3600n,
  responseWindow: 600,
  decayBps: 500,
  minOfferBps: 5000,
  protocolFeeBps: 200,
  maxRounds: 10,
  zopaDetection: 1,
  ...over,
});

/** Created and joined by the seller. */
export function openDeal(env: HaggleEnv, over: Partial<CreateParams> = {}, buyerUsdc?: bigint): TestDeal {
  const d = newDeal(env, buyerUsdc);
  sendOk(env.svm, [d.ix.create(params(env, over))], [d.b.kp]);
  sendOk(env.svm, [d.ix.join()], [d.s.kp]);
  return d;
}

export interface Balances {
  buyer: bigint;
  seller: bigint;
  treasury: bigint;
  vault: bigint;
}
export const balances = (env: HaggleEnv, d: TestDeal): Balances => ({
  buyer: tokenBalance(env.svm, d.buyerUsdc),
  seller: tokenBalance(env.svm, d.sellerUsdc),
  treasury: tokenBalance(env.svm, env.treasury),
  vault: tokenBalance(env.svm, d.ix.vault),
});

export const lamportsOf = (env: HaggleEnv, k: PublicKey) => getAccount(env.svm, k)?.lamports ?? 0n;
export const negotiationOf = (env: HaggleEnv, d: TestDeal) => {
  const a = getAccount(env.svm, d.ix.negotiation);
  return a ? haggle.decodeNegotiation(a.data) : null;
};
