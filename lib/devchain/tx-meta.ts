/**
 * Builds the parts of a transaction's status meta that litesvm does not return directly:
 * resolved account keys (with lookup tables), pre/post balances, token balances, inner
 * instructions, return data and the memo text, shaped as Solana's getTransaction shapes them.
 */
import type { LiteSvm, TransactionMetadata } from 'litesvm/dist/internal';
import { type AccountView, decodeTokenAccount, isTokenAccount, uiTokenAmount } from './accounts';
import { MEMO_PROGRAM_IDS } from './constants';
import type { InnerInstructionsJson, TokenBalance } from './history';
import { isStaticWritable, toBase58, type WireTransaction } from './wire';

const ALT_PROGRAM_ID = 'AddressLookupTab1e1111111111111111111111111';
const ALT_META_SIZE = 56;

/** Every account key of a transaction in Solana's order, with the facts the server needs. */
export interface ResolvedKeys {
  keys: string[];
  keyBytes: Uint8Array[];
  writable: boolean[];
  loaded: { writable: string[]; readonly: string[] };
  /** Indexes of keys used as instruction program ids (their data is never read). */
  programIndexes: Set<number>;
}

export type ReadAccount = (address: string, bytes?: Uint8Array) => AccountView | null;

/** Static keys, then lookup-table writable, then readonly keys (v0); unresolved tables add none. */
export function resolveKeys(tx: WireTransaction, read: ReadAccount): ResolvedKeys {
  const keys = [...tx.staticKeys];
  const keyBytes = [...tx.staticKeyBytes];
  const writable = keys.map((_, i) => isStaticWritable(tx, i));
  const loaded = { writable: [] as string[], readonly: [] as string[] };
  const roBytes: Uint8Array[] = [];
  const wBytes: Uint8Array[] = [];
  for (const l of tx.lookups) {
    const table = read(l.accountKey);
    if (!table || table.owner !== ALT_PROGRAM_ID) continue;
    const n = Math.floor((table.data.length - ALT_META_SIZE) / 32);
    const at = (i: number) => (i < n ? table.data.subarray(ALT_META_SIZE + 32 * i, ALT_META_SIZE + 32 * i + 32) : null);
    for (const i of l.writableIndexes) {
      const k = at(i);
      if (k) wBytes.push(k), loaded.writable.push(toBase58(k));
    }
    for (const i of l.readonlyIndexes) {
      const k = at(i);
      if (k) roBytes.push(k), loaded.readonly.push(toBase58(k));
    }
  }
  keys.push(...loaded.writable, ...loaded.readonly);
  keyBytes.push(...wBytes, ...roBytes);
  writable.push(...loaded.writable.map(() => true), ...loaded.readonly.map(() => false));
  const programIndexes = new Set(tx.instructions.map((ix) => ix.programIdIndex));
  return { keys, keyBytes, writable, loaded, programIndexes };
}

export interface BalanceSnapshot {
  balances: number[];
  tokens: TokenBalance[];
}

/** Lamports of every key, and the token balance of every key holding a token account. */
export function snapshotBalances(
  raw: LiteSvm,
  rk: ResolvedKeys,
  read: ReadAccount,
  decimalsOf: (mint: string) => number | null,
): BalanceSnapshot {
  const balances: number[] = [];
  const tokens: TokenBalance[] = [];
  for (let i = 0; i < rk.keys.length; i++) {
    if (rk.programIndexes.has(i)) {
      balances.push(Number(raw.getBalance(rk.keyBytes[i]) ?? 0n));
      continue;
    }
    const acc = read(rk.keys[i], rk.keyBytes[i]);
    balances.push(acc ? Number(acc.lamports) : 0);
    if (acc && isTokenAccount(acc)) {
      const t = decodeTokenAccount(acc.data);
      const decimals = decimalsOf(t.mint);
      if (decimals !== null) {
        tokens.push({
          accountIndex: i,
          mint: t.mint,
          owner: t.owner,
          programId: acc.owner,
          uiTokenAmount: uiTokenAmount(t.amount, decimals),
        });
      }
    }
  }
  return { balances, tokens };
}

/** meta.innerInstructions in Solana's JSON form (only instructions that made CPIs). */
export function innerInstructionsJson(meta: TransactionMetadata): InnerInstructionsJson[] {
  const out: InnerInstructionsJson[] = [];
  meta.innerInstructions().forEach((list, index) => {
    if (list.length === 0) return;
    out.push({
      index,
      instructions: list.map((ii) => {
        const ci = ii.instruction();
        return {
          programIdIndex: ci.programIdIndex(),
          accounts: Array.from(ci.accounts()),
          data: toBase58(ci.data()),
          stackHeight: ii.stackHeight(),
        };
      }),
    });
  });
  return out;
}

/** meta.returnData, or null when the transaction set none. */
export function returnDataJson(meta: TransactionMetadata): { programId: string; data: [string, 'base64'] } | null {
  const rd = meta.returnData();
  const data = rd.data();
  const pid = rd.programId();
  if (data.length === 0) return null; // Agave reports return data only when a program set some
  return { programId: toBase58(pid), data: [Buffer.from(data).toString('base64'), 'base64'] };
}

/** The `memo` field of getSignaturesForAddress: "[len] text" per Memo instruction, joined by "; ". */
export function memoOf(tx: WireTransaction): string | null {
  const memos: string[] = [];
  for (const ix of tx.instructions) {
    if (!MEMO_PROGRAM_IDS.has(tx.staticKeys[ix.programIdIndex])) continue;
    memos.push(`[${ix.data.length}] ${Buffer.from(ix.data).toString('utf8')}`);
  }
  return memos.length ? memos.join('; ') : null;
}
