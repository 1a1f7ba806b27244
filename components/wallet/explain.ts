/**
 * A failed or refused transaction in a sentence a person understands: the program's error by
 * name (lib/chain decodeTransactionError over the error JSON and the logs), the SPL Token and
 * runtime failures a wallet meets most (too few tokens, no SOL for fees), and a rejected
 * signature, which sends nothing. Pure: unit-tested in explain.test.ts.
 */
import { decodeTransactionError } from '../../lib/chain';

export interface Explained {
  /** The program error's name (e.g. `InsufficientUsdc`), or a short tag for non-program failures. */
  name: string | null;
  /** One sentence for the page. */
  sentence: string;
}

const SENTENCES: Record<string, string> = {
  InsufficientUsdc: 'This wallet does not hold enough USDC for this action.',
  BelowMinStake: 'The stake is below the minimum of 10 USDC.',
  AlreadyLocked: 'This agent already has stake locked.',
  NotIdentityOwner: 'This wallet does not hold the agent\'s identity NFT.',
  StillLeased: 'Unlocking needs the agent\'s lease deactivated first.',
  UnlockDelayNotElapsed: 'The unlock delay has not elapsed yet.',
  PendingChallenge: 'A challenge against this agent is still pending.',
  NotUnlocking: 'The stake is not unlocking: queue the unlock first.',
  NotLocked: 'There is no locked stake to unlock.',
  WindowClosed: 'The challenge window for this batch has closed.',
  WindowOpen: 'The challenge window is still open: resolution comes after it.',
  ChallengeExists: 'This wallet has already challenged this batch.',
  NotPending: 'The challenge is no longer pending.',
  NotExpired: 'The challenge has not expired yet.',
  NoLease: 'This agent has no lease yet: pay its first epoch.',
};

/** Explains a transaction error JSON and/or its logs. */
export function explainTransactionError(err: unknown, logs?: readonly string[] | null): Explained {
  const d = decodeTransactionError(err, logs);
  if (d.name) {
    const detail = d.message.replace(/^custom program error \d+ \(/, '').replace(/\)$/, '');
    return { name: d.name, sentence: `${SENTENCES[d.name] ?? detail} (program error ${d.name}, code ${d.code})` };
  }
  const text = (logs ?? []).join('\n');
  if (/insufficient funds/i.test(text)) return { name: 'InsufficientFunds', sentence: 'The wallet holds fewer tokens than this action moves (SPL Token: insufficient funds).' };
  if (/AccountNotFound|no record of a prior credit/i.test(JSON.stringify(err) + text)) {
    return { name: 'NoSol', sentence: 'The wallet has no SOL to pay the fee (or an account it needs does not exist yet): use the faucet or fund it.' };
  }
  return { name: null, sentence: `The transaction failed: ${d.message}` };
}

/** True when a wallet error means the person declined to sign. */
export function isRejection(e: unknown): boolean {
  const err = e as { name?: unknown; message?: unknown; error?: { code?: unknown } } | null;
  const msg = String(err?.message ?? '');
  return /reject|declin|denied|cancel/i.test(msg) || err?.error?.code === 4001;
}
