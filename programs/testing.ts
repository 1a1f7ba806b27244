/**
 * Shared litesvm test helpers for every program test (and the bench): an SVM with the project's
 * programs loaded at their ids, web3.js transactions sent through litesvm, a USDC mint on the real
 * SPL Token program, identity NFTs on the real Token-2022 program, clock/epoch warps and
 * send-and-expect-error.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { address, getTransactionDecoder, lamports } from '@solana/kit';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  AuthorityType,
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  createMintToInstruction,
  createSetAuthorityInstruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import {
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import { Clock, FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from 'litesvm';
import {
  agentIndexAddress,
  decodeRegistryConfig,
  type RegisterAgentArgs,
  registerAgentInstruction,
  registryConfigAddress,
  SATI_MAINNET,
  satiInitializeInstruction,
} from '../lib/chain/sati';
import ids from './ids.json' with { type: 'json' };

export const PROGRAMS_DIR = fileURLToPath(new URL('.', import.meta.url));
export const PROGRAM_IDS: Record<string, PublicKey> = Object.fromEntries(
  Object.entries(ids).map(([k, v]) => [k, new PublicKey(v)]),
);
export const USDC_DECIMALS = 6;
export const USDC = 1_000_000n;

export const kitAddress = (k: PublicKey) => address(k.toBase58());

/** Where the SATI stand-in (bin/sati_registry.so) is loaded by default: SATI's own program id. */
export const SATI_PROGRAM_ID: PublicKey = SATI_MAINNET.program;

/**
 * A LiteSVM with every built programs/bin/<name>.so loaded at its ids.json id (missing ones
 * skipped, `programs` selects), and the SATI stand-in (bin/sati_registry.so) at `satiProgram`
 * (default SATI's id; null leaves it out): like Token-2022, part of every world.
 */
export function newSvm(opts: { programs?: string[]; satiProgram?: PublicKey | null } = {}): LiteSVM {
  const svm = new LiteSVM();
  for (const [name, id] of Object.entries(PROGRAM_IDS)) {
    if (opts.programs && !opts.programs.includes(name)) continue;
    const so = join(PROGRAMS_DIR, 'bin', `${name}.so`);
    if (existsSync(so)) svm.addProgramFromFile(kitAddress(id), so);
  }
  const sati = join(PROGRAMS_DIR, 'bin', 'sati_registry.so');
  if (opts.satiProgram !== null && existsSync(sati))
    svm.addProgramFromFile(kitAddress(opts.satiProgram ?? SATI_PROGRAM_ID), sati);
  return svm;
}

export interface SendResult {
  ok: boolean;
  logs: string[];
  computeUnits: bigint;
  /** The custom program error code when the transaction failed with one. */
  customError?: number;
  /** The failing instruction's index, when any. */
  errorIndex?: number;
  /** litesvm's description of the failure. */
  error?: string;
  meta?: TransactionMetadata;
}

/** Signs with `signers` (the first pays) and sends; never throws on a failed transaction. */
export function send(svm: LiteSVM, ixs: TransactionInstruction[], signers: Keypair[]): SendResult {
  const tx = new Transaction({ feePayer: signers[0].publicKey, recentBlockhash: svm.latestBlockhash() });
  tx.add(...ixs);
  tx.sign(...signers);
  const ktx = getTransactionDecoder().decode(tx.serialize());
  const r = svm.sendTransaction(ktx as never);
  svm.expireBlockhash(); // identical transactions later in a test must not collide as duplicates
  if (r instanceof FailedTransactionMetadata) {
    const err = r.err();
    const out: SendResult = {
      ok: false,
      logs: r.meta().logs(),
      computeUnits: r.meta().computeUnitsConsumed(),
      error: String(err),
    };
    out.error = r.toString();
    // litesvm does not export its error classes: TransactionErrorInstructionError has index + err(),
    // InstructionErrorCustom has code.
    const e = err as unknown as { index?: number; err?: () => unknown };
    if (typeof e.index === 'number' && typeof e.err === 'function') {
      out.errorIndex = e.index;
      const inner = e.err() as { code?: unknown };
      if (inner && typeof inner.code === 'number') out.customError = inner.code;
    }
    return out;
  }
  return { ok: true, logs: r.logs(), computeUnits: r.computeUnitsConsumed(), meta: r };
}

/** Sends and asserts success; returns the result. */
export function sendOk(svm: LiteSVM, ixs: TransactionInstruction[], signers: Keypair[]): SendResult {
  const r = send(svm, ixs, signers);
  assert.ok(r.ok, `transaction failed: ${r.error}\n${r.logs.join('\n')}`);
  return r;
}

/**
 * Sends and asserts the transaction failed with custom program error `code` (number) or a litesvm error matching a
 * RegExp.
 */
export function sendErr(
  svm: LiteSVM,
  ixs: TransactionInstruction[],
  signers: Keypair[],
  code: number | RegExp,
): SendResult {
  const r = send(svm, ixs, signers);
  assert.equal(r.ok, false, `expected failure ${code}, got success\n${r.logs.join('\n')}`);
  if (typeof code === 'number')
    assert.equal(r.customError, code, `expected custom error ${code}, got ${r.error}\n${r.logs.join('\n')}`);
  else assert.match(r.error ?? '', code);
  return r;
}

/** A new keypair with `sol` SOL. */
export function fundedWallet(svm: LiteSVM, sol = 10): Keypair {
  const kp = Keypair.generate();
  svm.airdrop(kitAddress(kp.publicKey), lamports(BigInt(sol) * BigInt(LAMPORTS_PER_SOL)));
  return kp;
}

/** Raw account data (empty array when the account does not exist). */
export function accountData(svm: LiteSVM, key: PublicKey): Uint8Array {
  const a = svm.getAccount(kitAddress(key));
  return a.exists ? Uint8Array.from(a.data) : new Uint8Array(0);
}

/** Full account (null when absent). */
export function getAccount(
  svm: LiteSVM,
  key: PublicKey,
): { owner: PublicKey; lamports: bigint; data: Uint8Array } | null {
  const a = svm.getAccount(kitAddress(key));
  if (!a.exists) return null;
  return { owner: new PublicKey(a.programAddress), lamports: BigInt(a.lamports), data: Uint8Array.from(a.data) };
}

/** Writes an account directly (e.g. a program's state the test does not reach by instructions). */
export function setAccount(
  svm: LiteSVM,
  key: PublicKey,
  owner: PublicKey,
  data: Uint8Array,
  lamportsValue?: bigint,
): void {
  svm.setAccount({
    address: kitAddress(key),
    programAddress: kitAddress(owner),
    executable: false,
    data,
    lamports: lamports(lamportsValue ?? svm.minimumBalanceForRentExemption(BigInt(data.length))),
    space: BigInt(data.length),
  } as never);
}

/** Creates a mint on `tokenProgram` with `decimals`; returns its address. */
export function createMint(
  svm: LiteSVM,
  payer: Keypair,
  authority: PublicKey,
  decimals: number,
  tokenProgram = TOKEN_PROGRAM_ID,
): PublicKey {
  const mint = Keypair.generate();
  const rent = Number(svm.minimumBalanceForRentExemption(BigInt(MINT_SIZE)));
  sendOk(
    svm,
    [
      SystemProgram.createAccount({
        fromPubkey: payer.publicKey,
        newAccountPubkey: mint.publicKey,
        lamports: rent,
        space: MINT_SIZE,
        programId: tokenProgram,
      }),
      createInitializeMint2Instruction(mint.publicKey, decimals, authority, null, tokenProgram),
    ],
    [payer, mint],
  );
  return mint.publicKey;
}

/** Associated token account of `owner` for `mint` (created if missing; owner may be a PDA). */
export function tokenAccount(
  svm: LiteSVM,
  payer: Keypair,
  mint: PublicKey,
  owner: PublicKey,
  tokenProgram = TOKEN_PROGRAM_ID,
): PublicKey {
  const ata = getAssociatedTokenAddressSync(mint, owner, true, tokenProgram, ASSOCIATED_TOKEN_PROGRAM_ID);
  sendOk(
    svm,
    [createAssociatedTokenAccountIdempotentInstruction(payer.publicKey, ata, owner, mint, tokenProgram)],
    [payer],
  );
  return ata;
}

/** Mints `amount` base units to `dest`. */
export function mintTo(
  svm: LiteSVM,
  payer: Keypair,
  mint: PublicKey,
  dest: PublicKey,
  authority: Keypair,
  amount: bigint,
  tokenProgram = TOKEN_PROGRAM_ID,
): void {
  sendOk(
    svm,
    [createMintToInstruction(mint, dest, authority.publicKey, amount, [], tokenProgram)],
    authority === payer ? [payer] : [payer, authority],
  );
}

/** Token amount (u64 at offset 64) of a token account, 0n when absent. */
export function tokenBalance(svm: LiteSVM, account: PublicKey): bigint {
  const d = accountData(svm, account);
  return d.length >= 72 ? new DataView(d.buffer, d.byteOffset).getBigUint64(64, true) : 0n;
}

export interface Usdc {
  mint: PublicKey;
  authority: Keypair;
}

/** A local USDC mint (6 decimals) on the real SPL Token program. */
export function createUsdc(svm: LiteSVM, payer: Keypair): Usdc {
  const authority = Keypair.generate();
  return { mint: createMint(svm, payer, authority.publicKey, USDC_DECIMALS), authority };
}

/** A USDC token account for `owner` holding `amount`. */
export function usdcAccount(svm: LiteSVM, payer: Keypair, usdc: Usdc, owner: PublicKey, amount = 0n): PublicKey {
  const ata = tokenAccount(svm, payer, usdc.mint, owner);
  if (amount > 0n) mintTo(svm, payer, usdc.mint, ata, usdc.authority, amount);
  return ata;
}

export interface Identity {
  agent: PublicKey;
  owner: Keypair;
  tokenAccount: PublicKey;
}

/**
 * An agent identity (programs/README.md "Cross-program contract"): a Token-2022 mint with decimals 0 and supply 1, held
 * by `owner`'s token account, mint authority then removed.
 */
export function createIdentity(svm: LiteSVM, payer: Keypair, owner: Keypair): Identity {
  const agent = createMint(svm, payer, payer.publicKey, 0, TOKEN_2022_PROGRAM_ID);
  const ta = tokenAccount(svm, payer, agent, owner.publicKey, TOKEN_2022_PROGRAM_ID);
  mintTo(svm, payer, agent, ta, payer, 1n, TOKEN_2022_PROGRAM_ID);
  sendOk(
    svm,
    [createSetAuthorityInstruction(agent, payer.publicKey, AuthorityType.MintTokens, null, [], TOKEN_2022_PROGRAM_ID)],
    [payer],
  );
  return { agent, owner, tokenAccount: ta };
}

export interface SatiRegistry {
  program: PublicKey;
  registry: PublicKey;
  groupMint: PublicKey;
}

/**
 * Initializes the SATI stand-in at `program`: a fresh group mint created by `initialize` itself
 * (the fifth account, Token-2022, asks for it). Returns the registry's addresses.
 */
export function initSati(svm: LiteSVM, authority: Keypair, program: PublicKey = SATI_PROGRAM_ID): SatiRegistry {
  const group = Keypair.generate();
  const ix = satiInitializeInstruction({
    authority: authority.publicKey,
    groupMint: group.publicKey,
    program,
    createGroupMint: true,
  });
  sendOk(svm, [ix], [authority, group]);
  return { program, registry: registryConfigAddress(program), groupMint: group.publicKey };
}

export interface SatiAgent {
  agent: PublicKey;
  tokenAccount: PublicKey;
  memberNumber: bigint;
  result: SendResult;
}

/** The lock_stake accounts naming SATI for `a` (RegistryConfig and the AgentIndex of its member number). */
export function satiAccountsOf(
  a: { memberNumber: bigint },
  program: PublicKey = SATI_PROGRAM_ID,
): { satiRegistry: PublicKey; agentIndex: PublicKey } {
  return { satiRegistry: registryConfigAddress(program), agentIndex: agentIndexAddress(a.memberNumber, program) };
}

/** Initializes the SATI stand-in unless its RegistryConfig exists already. */
export function ensureSati(svm: LiteSVM, authority: Keypair, program: PublicKey = SATI_PROGRAM_ID): SatiRegistry {
  const cfg = decodeRegistryConfig(accountData(svm, registryConfigAddress(program)));
  return cfg
    ? { program, registry: registryConfigAddress(program), groupMint: cfg.groupMint }
    : initSati(svm, authority, program);
}

/** An agent identity registered through SATI (initialized on first use), held by `owner`. */
export function createSatiIdentity(svm: LiteSVM, payer: Keypair, owner: Keypair): Identity & { memberNumber: bigint } {
  ensureSati(svm, payer);
  const a = registerSati(svm, payer, owner.publicKey);
  return { agent: a.agent, owner, tokenAccount: a.tokenAccount, memberNumber: a.memberNumber };
}

/**
 * Registers an agent through the stand-in with SATI's register_agent, built by lib/chain/sati.ts
 * exactly as a wallet would for the real SATI. `owner` holds the NFT; `payer` signs and pays.
 */
export function registerSati(
  svm: LiteSVM,
  payer: Keypair,
  owner: PublicKey,
  args: Partial<RegisterAgentArgs> = {},
  program: PublicKey = SATI_PROGRAM_ID,
): SatiAgent {
  const cfg = decodeRegistryConfig(accountData(svm, registryConfigAddress(program)));
  assert.ok(cfg, 'SATI registry not initialized');
  const mint = Keypair.generate();
  const ix = registerAgentInstruction({
    payer: payer.publicKey,
    owner,
    agentMint: mint.publicKey,
    registry: cfg,
    program,
    name: args.name ?? 'agent',
    symbol: args.symbol ?? 'AGENT',
    uri: args.uri ?? 'data:application/json,{}',
    additionalMetadata: args.additionalMetadata ?? null,
    nonTransferable: args.nonTransferable ?? false,
  });
  const result = sendOk(svm, [ix], [payer, mint]);
  return {
    agent: mint.publicKey,
    tokenAccount: getAssociatedTokenAddressSync(mint.publicKey, owner, true, TOKEN_2022_PROGRAM_ID),
    memberNumber: cfg.totalAgents + 1n,
    result,
  };
}

/** Sets the clock: unix time to the start of protocol `epoch` (+ `offsetSeconds`), keeping the slot. */
export function setEpoch(svm: LiteSVM, epoch: bigint, epochSeconds: bigint, offsetSeconds = 0n): void {
  const c = svm.getClock();
  svm.setClock(
    new Clock(c.slot, c.epochStartTimestamp, c.epoch, c.leaderScheduleEpoch, epoch * epochSeconds + offsetSeconds),
  );
}

/** Advances the slot by `slots`, keeping the unix time. */
export function warpSlots(svm: LiteSVM, slots: bigint): void {
  const c = svm.getClock();
  svm.setClock(new Clock(c.slot + slots, c.epochStartTimestamp, c.epoch, c.leaderScheduleEpoch, c.unixTimestamp));
}

/** The current slot. */
export const currentSlot = (svm: LiteSVM) => svm.getClock().slot;

/** Base64 payloads of every "Program data:" line (sol_log_data records), in order. */
export function programData(logs: string[]): Uint8Array[][] {
  return logs
    .filter((l) => l.startsWith('Program data: '))
    .map((l) =>
      l
        .slice(14)
        .split(' ')
        .map((b) => Uint8Array.from(Buffer.from(b, 'base64'))),
    );
}

export { Keypair, PublicKey, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID };
