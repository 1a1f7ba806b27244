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
  NotIdentityOwner: "This wallet does not hold the agent's identity NFT.",
  StillLeased: "Unlocking needs the agent's lease deactivated first.",
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

const SYSTEM = '11111111111111111111111111111111';
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const TOKEN_2022 = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PE8kxpR7y7oYQhX';
const ATA = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL';

/** The System program's errors (solana-program SystemError, in order), in words. */
const SYSTEM_ERRORS: Record<number, [string, string]> = {
  0: ['AccountAlreadyInUse', 'An account this action creates already exists.'],
  1: [
    'InsufficientLamports',
    'The wallet has too little SOL for the rent and fees of this action: use the faucet or fund it.',
  ],
  2: ['InvalidProgramId', 'The System program was asked to assign an account to an invalid program.'],
  3: ['InvalidAccountDataLength', 'An account would be created with an invalid size.'],
  4: ['MaxSeedLengthExceeded', 'An address seed is too long.'],
  5: ['AddressWithSeedMismatch', 'A derived address does not match its seed.'],
};

/** SPL Token's errors (TokenError, the same codes in Token-2022), in words. */
const TOKEN_ERRORS: Record<number, [string, string]> = {
  0: ['NotRentExempt', 'A token account would not be rent-exempt.'],
  1: ['InsufficientFunds', 'The wallet holds fewer tokens than this action moves.'],
  2: ['InvalidMint', 'A token account names an invalid mint.'],
  3: ['MintMismatch', 'A token account holds another mint than the one this action moves (wrong USDC account?).'],
  4: ['OwnerMismatch', 'A token account belongs to another wallet.'],
  5: ['FixedSupply', "The token's supply is fixed."],
  6: ['AlreadyInUse', 'A token account already exists here.'],
  13: ['UninitializedState', 'A token account this action needs does not exist yet.'],
  17: ['AccountFrozen', 'A token account is frozen.'],
};

const PROGRAM_NAMES: Record<string, string> = {
  [SYSTEM]: 'System',
  [TOKEN]: 'SPL Token',
  [TOKEN_2022]: 'Token-2022',
  [ATA]: 'Associated Token Account',
};

/** The innermost program that failed, from the logs: its id and the custom code it returned (if any). */
function failingProgram(logs: readonly string[]): { program: string; code: number | null; detail: string } | null {
  for (const l of logs) {
    const m = /^Program (\w+) failed: (.*)$/.exec(l);
    if (!m) continue;
    const c = /custom program error: 0x([0-9a-f]+)/i.exec(m[2]);
    return { program: m[1], code: c ? parseInt(c[1], 16) : null, detail: m[2] };
  }
  return null;
}

/** The runtime's own transaction errors (no program ran, or before any did). */
function runtimeError(err: unknown): Explained | null {
  const tag =
    typeof err === 'string'
      ? err
      : err && typeof err === 'object' && !('InstructionError' in err)
        ? Object.keys(err)[0]
        : null;
  switch (tag) {
    case 'InsufficientFundsForFee':
      return {
        name: 'InsufficientFundsForFee',
        sentence: 'The wallet has too little SOL to pay the transaction fee: use the faucet or fund it.',
      };
    case 'InsufficientFundsForRent':
      return {
        name: 'InsufficientFundsForRent',
        sentence:
          'After this action an account would hold less SOL than its ' +
          'rent-exempt minimum (the wallet has too little SOL for rent and fees).',
      };
    case 'AccountNotFound':
      return {
        name: 'NoSol',
        sentence: 'The wallet has no SOL to pay the fee (it does not exist on chain yet): use the faucet or fund it.',
      };
    case 'BlockhashNotFound':
      return {
        name: 'BlockhashNotFound',
        sentence: "The transaction's blockhash expired before it was checked: try again.",
      };
    default:
      return null;
  }
}

/**
 * Explains a transaction error JSON and/or its logs: a Zerox1 program error by name; the System
 * program's and SPL Token's errors (found through the logs' innermost failing program, since a
 * CPI reports its error under the calling instruction); the runtime's fee and rent errors.
 */
export function explainTransactionError(err: unknown, logs?: readonly string[] | null): Explained {
  const runtime = runtimeError(err);
  if (runtime) return runtime;
  const inner = failingProgram(logs ?? []);
  if (inner && inner.code !== null) {
    const table =
      inner.program === SYSTEM
        ? SYSTEM_ERRORS
        : inner.program === TOKEN || inner.program === TOKEN_2022
          ? TOKEN_ERRORS
          : null;
    const hit = table?.[inner.code];
    if (table) {
      const who = PROGRAM_NAMES[inner.program];
      return hit
        ? { name: hit[0], sentence: `${hit[1]} (${who} program error ${hit[0]}, code ${inner.code})` }
        : { name: null, sentence: `The ${who} program refused the action with error code ${inner.code}.` };
    }
  }
  const d = decodeTransactionError(err, logs);
  if (d.name) {
    const detail = d.message.replace(/^custom program error \d+ \(/, '').replace(/\)$/, '');
    return { name: d.name, sentence: `${SENTENCES[d.name] ?? detail} (program error ${d.name}, code ${d.code})` };
  }
  const text = (logs ?? []).join('\n');
  if (/insufficient funds/i.test(text))
    return {
      name: 'InsufficientFunds',
      sentence: 'The wallet holds fewer tokens than this action moves (SPL Token: insufficient funds).',
    };
  if (/insufficient lamports/i.test(text)) return { name: 'InsufficientLamports', sentence: SYSTEM_ERRORS[1][1] };
  if (/AccountNotFound|no record of a prior credit/i.test(JSON.stringify(err) + text)) {
    return {
      name: 'NoSol',
      sentence:
        'The wallet has no SOL to pay the fee (or an account it needs does not exist yet): use the faucet or fund it.',
    };
  }
  if (inner) {
    const who = PROGRAM_NAMES[inner.program] ?? `program ${inner.program}`;
    return { name: null, sentence: `The ${who} failed: ${inner.detail}.` };
  }
  return { name: null, sentence: `The transaction failed: ${d.message}` };
}

/** True when a wallet error means the person declined to sign. */
export function isRejection(e: unknown): boolean {
  const err = e as { name?: unknown; message?: unknown; error?: { code?: unknown } } | null;
  const msg = String(err?.message ?? '');
  return /reject|declin|denied|cancel/i.test(msg) || err?.error?.code === 4001;
}
