/**
 * The embedded chain's state machine around litesvm (docs/chain.md
 * "litesvm facts the code relies on"): slots and clock following wall time, a window of valid blockhashes as on
 * a cluster, transaction execution with the meta Solana's RPC reports, and the history ring.
 * litesvm's own blockhash check and history are off: this class does both, cluster-style.
 */
import { createHash, createPrivateKey, sign as edSign } from 'node:crypto';
import { Keypair, type PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { LiteSVM } from 'litesvm';
import { FailedTransactionMetadata, type LiteSvm, type TransactionMetadata } from 'litesvm/dist/internal';
import { type AccountView, decodeMint, isMint } from './accounts';
import { BLOCKHASH_VALID_SLOTS, FAUCET_LAMPORTS, LAMPORTS_PER_SIGNATURE } from './constants';
import { type LogRef, TxHistory, type TxRecord } from './history';
import { type TransactionErrorJson, transactionErrorJson } from './tx-error';
import {
  innerInstructionsJson,
  memoOf,
  type ResolvedKeys,
  resolveKeys,
  returnDataJson,
  snapshotBalances,
} from './tx-meta';
import { decodeWireTransaction, feeSignatures, fromBase58, toBase58, type WireTransaction } from './wire';

/** Outcome of running (or simulating) one transaction. */
export interface ExecOutcome {
  err: TransactionErrorJson | null;
  logs: string[];
  unitsConsumed: number;
  returnData: { programId: string; data: [string, 'base64'] } | null;
  innerInstructions: ReturnType<typeof innerInstructionsJson>;
  /** Set when the transaction landed in a slot (success, or failure that paid its fee). */
  record?: TxRecord;
}

export type TxListener = (rec: TxRecord, writableKeys: string[]) => void;
export type SlotListener = (slot: number) => void;

export interface LedgerParams {
  svm?: LiteSVM;
  slot?: number;
  historyLimit: number;
  now: () => number;
}

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** litesvm + clock + blockhash window + history; the JSON-RPC layer calls only this. */
export class Ledger {
  readonly svm: LiteSVM;
  readonly raw: LiteSvm;
  readonly history: TxHistory;
  slot: number;
  transactionCount = 0;
  private readonly blockhashes = new Map<string, number>();
  private readonly ownerNames = new Map<string, string>();
  private readonly decimals = new Map<string, number>();
  private readonly txListeners = new Set<TxListener>();
  private readonly slotListeners = new Set<SlotListener>();
  private readonly warpListeners = new Set<SlotListener>();
  private readonly writeListeners = new Set<(addresses: string[]) => void>();
  private readonly now: () => number;
  private readonly faucetSeed = createHash('sha256').update('zerox1:embedded-faucet').digest();
  private readonly faucetKey = createPrivateKey({
    key: Buffer.concat([PKCS8_ED25519_PREFIX, this.faucetSeed]),
    format: 'der',
    type: 'pkcs8',
  });
  /** The account that pays requestAirdrop (deterministic: sha256("zerox1:embedded-faucet") seed). */
  readonly faucet: PublicKey = Keypair.fromSeed(this.faucetSeed).publicKey;

  constructor(p: LedgerParams) {
    this.svm = p.svm ?? new LiteSVM();
    this.raw = (this.svm as unknown as { inner: LiteSvm }).inner;
    this.raw.setBlockhashCheck(false);
    this.raw.setTransactionHistory(0n);
    this.raw.setSigverify(true);
    this.history = new TxHistory(p.historyLimit);
    this.now = p.now;
    this.slot = p.slot ?? 0;
    const fb = this.raw.getBalance(this.faucet.toBytes()) ?? 0n;
    if (fb < FAUCET_LAMPORTS / 2n) {
      this.svm.setAccount({
        address: this.faucet.toBase58() as never,
        lamports: FAUCET_LAMPORTS as never,
        data: new Uint8Array(0),
        programAddress: '11111111111111111111111111111111' as never,
        executable: false,
        space: 0n,
      });
    }
    this.setClock();
    this.blockhashes.set(this.raw.latestBlockhash(), this.slot);
  }

  /** Advances one slot: clock follows wall time and a new blockhash becomes the latest. */
  tick(): void {
    this.advanceTo(this.slot + 1);
  }

  /**
   * Development only (lib/devchain/README.md "Warp"): jumps to `slot` as if the slots between had
   * passed empty, like solana-test-validator's --warp-slot, so slot-based delays (the stake
   * unlock's 432,000 slots) can elapse in a test. The Clock's slot and epoch follow; its
   * unix_timestamp stays wall time, as on every tick, because the programs' protocol epochs are
   * unix_timestamp / epoch_seconds and the agents and pages count them from their own clocks.
   * Blockhashes older than the window expire, as a real jump of block height would do.
   */
  warpTo(slot: number): void {
    if (!Number.isSafeInteger(slot) || slot <= this.slot)
      throw new RangeError(`slot must be an integer greater than the current slot ${this.slot}`);
    this.raw.warpToSlot(BigInt(slot));
    this.advanceTo(slot);
    for (const l of this.warpListeners) l(slot);
  }

  /**
   * Development only (lib/devchain/README.md "Fixture accounts"): writes an account as it is,
   * outside any transaction, for accounts no program here can create (the attestations of a
   * Solana Attestation Service that does not run here). Subscribers are told as after a
   * transaction writing it; lamports 0 closes it. Not in the transaction log: a crash before the
   * next snapshot loses it.
   */
  writeAccount(address: string, acc: { lamports: bigint; data: Uint8Array; owner: string }): void {
    if (!(acc?.data instanceof Uint8Array) || typeof acc.lamports !== 'bigint' || acc.lamports < 0n)
      throw new TypeError('account needs data bytes and lamports (bigint ≥ 0)');
    this.svm.setAccount({
      address: address as never,
      lamports: acc.lamports as never,
      data: acc.data,
      programAddress: acc.owner as never,
      executable: false,
      space: BigInt(acc.data.length),
    });
    this.decimals.delete(address);
    for (const l of this.writeListeners) l([address]);
  }

  onWrite(l: (addresses: string[]) => void): () => void {
    this.writeListeners.add(l);
    return () => this.writeListeners.delete(l);
  }

  onWarp(l: SlotListener): () => void {
    this.warpListeners.add(l);
    return () => this.warpListeners.delete(l);
  }

  private advanceTo(slot: number): void {
    this.slot = slot;
    this.setClock();
    this.raw.expireBlockhash();
    this.blockhashes.set(this.raw.latestBlockhash(), this.slot);
    for (const [bh, s] of this.blockhashes) {
      if (s >= this.slot - BLOCKHASH_VALID_SLOTS) break;
      this.blockhashes.delete(bh);
    }
    for (const l of this.slotListeners) l(this.slot);
  }

  latestBlockhash(): { blockhash: string; lastValidBlockHeight: number } {
    return { blockhash: this.raw.latestBlockhash(), lastValidBlockHeight: this.slot + BLOCKHASH_VALID_SLOTS };
  }

  isBlockhashValid(blockhash: string): boolean {
    return this.blockhashes.has(blockhash);
  }

  onTx(l: TxListener): () => void {
    this.txListeners.add(l);
    return () => this.txListeners.delete(l);
  }

  onSlot(l: SlotListener): () => void {
    this.slotListeners.add(l);
    return () => this.slotListeners.delete(l);
  }

  /** Reads an account (null when it does not exist or holds no lamports). */
  readAccount = (address: string, bytes?: Uint8Array): AccountView | null => {
    const kb = bytes ?? fromBase58(address);
    if (kb?.length !== 32) return null;
    const acc = this.raw.getAccount(kb);
    if (!acc) return null;
    const lamports = acc.lamports();
    if (lamports === 0n) return null;
    return { lamports, data: acc.data(), owner: this.ownerName(acc.owner()), executable: acc.executable() };
  };

  /** Decimals of a mint (cached: immutable once initialized), null when not a mint. */
  decimalsOf = (mint: string): number | null => {
    const hit = this.decimals.get(mint);
    if (hit !== undefined) return hit;
    const acc = this.readAccount(mint);
    if (!acc || !isMint(acc)) return null;
    const d = decodeMint(acc.data);
    if (d.isInitialized) this.decimals.set(mint, d.decimals);
    return d.decimals;
  };

  /** Executes a decoded transaction; records it when it lands (fee paid). */
  execute(tx: WireTransaction): ExecOutcome {
    const rk = resolveKeys(tx, this.readAccount);
    const pre = snapshotBalances(this.raw, rk, this.readAccount, this.decimalsOf);
    const res =
      tx.version === 'legacy' ? this.raw.sendLegacyTransaction(tx.bytes) : this.raw.sendVersionedTransaction(tx.bytes);
    const failed = res instanceof FailedTransactionMetadata;
    const meta: TransactionMetadata = failed ? res.meta() : res;
    const err = failed ? transactionErrorJson(res.err()) : null;
    const out = this.outcome(meta, err);
    const post = snapshotBalances(this.raw, rk, this.readAccount, this.decimalsOf);
    if (failed && post.balances[0] === pre.balances[0]) return out;
    this.transactionCount++;
    const rec = this.history.add({
      signature: tx.signatures[0],
      slot: this.slot,
      blockTime: Math.floor(this.now() / 1000),
      bytes: tx.bytes,
      err,
      fee: LAMPORTS_PER_SIGNATURE * feeSignatures(tx),
      logs: out.logs,
      preBalances: pre.balances,
      postBalances: post.balances,
      preTokenBalances: pre.tokens,
      postTokenBalances: post.tokens,
      innerInstructions: out.innerInstructions,
      computeUnitsConsumed: out.unitsConsumed,
      returnData: out.returnData,
      loadedAddresses: rk.loaded,
      accountKeys: rk.keys,
      memo: memoOf(tx),
    });
    out.record = rec;
    const writable = writableKeys(rk);
    for (const l of this.txListeners) l(rec, writable);
    return out;
  }

  /**
   * Re-executes a transaction the log recorded after the last snapshot (persist.ts), at its
   * recorded slot and block time so the programs see the clock they saw; keeps the recorded
   * record (same seq and meta) and notifies no one (it was reported before the crash). Returns
   * false when the outcome differs from the record (logged by the caller).
   */
  replay(rec: TxRecord, ref?: LogRef): boolean {
    const tx = decodeWireTransaction(rec.bytes);
    if (!tx) return false;
    this.slot = Math.max(this.slot, rec.slot);
    this.setClock(rec.slot, rec.blockTime);
    const res =
      tx.version === 'legacy' ? this.raw.sendLegacyTransaction(tx.bytes) : this.raw.sendVersionedTransaction(tx.bytes);
    const failed = res instanceof FailedTransactionMetadata;
    this.transactionCount++;
    this.history.add(rec, ref);
    this.setClock();
    return failed === (rec.err !== null);
  }

  /** Simulates without committing; `accounts` post-states are read from the simulation. */
  simulate(
    tx: WireTransaction,
    opts: { sigVerify: boolean; replaceRecentBlockhash: boolean },
  ): ExecOutcome & { post: Map<string, AccountView> } {
    let bytes = tx.bytes;
    if (opts.replaceRecentBlockhash) {
      bytes = new Uint8Array(tx.bytes);
      bytes.set(fromBase58(this.raw.latestBlockhash()) as Uint8Array, tx.blockhashOffset);
    } else if (!this.isBlockhashValid(tx.recentBlockhash)) {
      return {
        err: 'BlockhashNotFound',
        logs: [],
        unitsConsumed: 0,
        returnData: null,
        innerInstructions: [],
        post: new Map(),
      };
    }
    if (!opts.sigVerify) this.raw.setSigverify(false);
    let res;
    try {
      res =
        tx.version === 'legacy'
          ? this.raw.simulateLegacyTransaction(bytes)
          : this.raw.simulateVersionedTransaction(bytes);
    } finally {
      this.raw.setSigverify(true);
    }
    if (res instanceof FailedTransactionMetadata) {
      return { ...this.outcome(res.meta(), transactionErrorJson(res.err())), post: new Map() };
    }
    const post = new Map<string, AccountView>();
    for (const aa of res.postAccounts()) {
      const acc = aa.account();
      post.set(toBase58(aa.address), {
        lamports: acc.lamports(),
        data: acc.data(),
        owner: this.ownerName(acc.owner()),
        executable: acc.executable(),
      });
    }
    return { ...this.outcome(res.meta(), null), post };
  }

  /** Sends `lamports` from the faucet in a real signed transfer; returns its signature. */
  airdrop(to: PublicKey, lamports: bigint): ExecOutcome & { signature: string } {
    for (let attempt = 0; ; attempt++) {
      const t = new Transaction({ feePayer: this.faucet, recentBlockhash: this.raw.latestBlockhash() });
      t.add(SystemProgram.transfer({ fromPubkey: this.faucet, toPubkey: to, lamports }));
      const msg = t.serializeMessage();
      t.addSignature(this.faucet, edSign(null, msg, this.faucetKey));
      const wire = decodeWireTransaction(new Uint8Array(t.serialize()));
      if (!wire) throw new Error('airdrop transaction did not decode');
      if (this.history.status(wire.signatures[0]) && attempt < 3) {
        this.tick();
        continue;
      }
      return { ...this.execute(wire), signature: wire.signatures[0] };
    }
  }

  private outcome(meta: TransactionMetadata, err: TransactionErrorJson | null): ExecOutcome {
    return {
      err,
      logs: meta.logs(),
      unitsConsumed: Number(meta.computeUnitsConsumed()),
      returnData: returnDataJson(meta),
      innerInstructions: innerInstructionsJson(meta),
    };
  }

  private setClock(slot = this.slot, unixSeconds = Math.floor(this.now() / 1000)): void {
    const c = this.raw.getClock();
    const slotsPerEpoch = Number(this.raw.getEpochSchedule().slotsPerEpoch);
    c.slot = BigInt(slot);
    c.epoch = BigInt(Math.floor(slot / slotsPerEpoch));
    c.unixTimestamp = BigInt(unixSeconds);
    this.raw.setClock(c);
  }

  private ownerName(bytes: Uint8Array): string {
    const k = Buffer.from(bytes).toString('latin1');
    let name = this.ownerNames.get(k);
    if (name === undefined) {
      name = toBase58(bytes);
      if (this.ownerNames.size < 10_000) this.ownerNames.set(k, name);
    }
    return name;
  }
}

function writableKeys(rk: ResolvedKeys): string[] {
  return rk.keys.filter((_, i) => rk.writable[i]);
}
