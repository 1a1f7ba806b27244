/**
 * Account reads and their Solana JSON encodings (base64, base58, jsonParsed for SPL Token and
 * Token-2022 base layouts), dataSlice and getProgramAccounts filters.
 */
import { RENT_EPOCH_EXEMPT, TOKEN_2022_PROGRAM_ID, TOKEN_PROGRAM_ID } from './constants';
import { invalidParams, RPC_CODES, RpcError } from './errors';
import type { UiTokenAmount } from './history';
import { fromBase58, toBase58 } from './wire';

/** An account as read from litesvm. */
export interface AccountView {
  lamports: bigint;
  data: Uint8Array;
  owner: string;
  executable: boolean;
}

export type AccountEncoding = 'base64' | 'base58' | 'jsonParsed' | 'binary';
export interface DataSlice {
  offset: number;
  length: number;
}

export type AccountFilter = { dataSize: number } | { memcmp: { offset: number; bytes: Uint8Array } };

const TOKEN_ACCOUNT_LEN = 165;
const MINT_LEN = 82;
const MULTISIG_LEN = 355;

export function isTokenProgram(owner: string): boolean {
  return owner === TOKEN_PROGRAM_ID || owner === TOKEN_2022_PROGRAM_ID;
}

/** True when `acc` holds an SPL Token / Token-2022 token account (not a mint or multisig). */
export function isTokenAccount(acc: AccountView): boolean {
  if (!isTokenProgram(acc.owner)) return false;
  const n = acc.data.length;
  if (n === TOKEN_ACCOUNT_LEN) return true;
  return (
    acc.owner === TOKEN_2022_PROGRAM_ID &&
    n > TOKEN_ACCOUNT_LEN &&
    n !== MULTISIG_LEN &&
    acc.data[TOKEN_ACCOUNT_LEN] === 2
  );
}

/** True when `acc` holds a mint. */
export function isMint(acc: AccountView): boolean {
  if (!isTokenProgram(acc.owner)) return false;
  const n = acc.data.length;
  if (n === MINT_LEN) return true;
  return (
    acc.owner === TOKEN_2022_PROGRAM_ID &&
    n > TOKEN_ACCOUNT_LEN &&
    n !== MULTISIG_LEN &&
    acc.data[TOKEN_ACCOUNT_LEN] === 1
  );
}

function u64(d: Uint8Array, off: number): bigint {
  return new DataView(d.buffer, d.byteOffset, d.byteLength).getBigUint64(off, true);
}

function optionKey(d: Uint8Array, off: number): string | null {
  return d[off] === 1 ? toBase58(d.subarray(off + 4, off + 36)) : null;
}

export interface TokenAccountFields {
  mint: string;
  owner: string;
  amount: bigint;
  delegate: string | null;
  state: number;
  isNative: bigint | null;
  delegatedAmount: bigint;
  closeAuthority: string | null;
}

export function decodeTokenAccount(d: Uint8Array): TokenAccountFields {
  return {
    mint: toBase58(d.subarray(0, 32)),
    owner: toBase58(d.subarray(32, 64)),
    amount: u64(d, 64),
    delegate: optionKey(d, 72),
    state: d[108],
    isNative: d[109] === 1 ? u64(d, 113) : null,
    delegatedAmount: u64(d, 121),
    closeAuthority: optionKey(d, 129),
  };
}

export interface MintFields {
  mintAuthority: string | null;
  supply: bigint;
  decimals: number;
  isInitialized: boolean;
  freezeAuthority: string | null;
}

export function decodeMint(d: Uint8Array): MintFields {
  return {
    mintAuthority: optionKey(d, 0),
    supply: u64(d, 36),
    decimals: d[44],
    isInitialized: d[45] === 1,
    freezeAuthority: optionKey(d, 46),
  };
}

/** Solana's UiTokenAmount: amount as a string, uiAmount as a float, trimmed decimal string. */
export function uiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  const s = amount.toString();
  let uiAmountString = s;
  if (decimals > 0) {
    const padded = s.padStart(decimals + 1, '0');
    const int = padded.slice(0, padded.length - decimals);
    const frac = padded.slice(padded.length - decimals).replace(/0+$/, '');
    uiAmountString = frac ? `${int}.${frac}` : int;
  }
  return { amount: s, decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

const STATES = ['uninitialized', 'initialized', 'frozen'];

/** jsonParsed form of a token account or mint; null when the account is neither. */
export function parseTokenAccountData(acc: AccountView, decimalsOf: (mint: string) => number | null): unknown {
  const program = acc.owner === TOKEN_PROGRAM_ID ? 'spl-token' : 'spl-token-2022';
  const space = acc.data.length;
  if (isTokenAccount(acc)) {
    const t = decodeTokenAccount(acc.data);
    const decimals = decimalsOf(t.mint);
    if (decimals === null) return null;
    const info: Record<string, unknown> = {
      isNative: t.isNative !== null,
      mint: t.mint,
      owner: t.owner,
      state: STATES[t.state] ?? 'uninitialized',
      tokenAmount: uiTokenAmount(t.amount, decimals),
    };
    if (t.delegate) {
      info.delegate = t.delegate;
      info.delegatedAmount = uiTokenAmount(t.delegatedAmount, decimals);
    }
    if (t.closeAuthority) info.closeAuthority = t.closeAuthority;
    if (t.isNative !== null) info.rentExemptReserve = uiTokenAmount(t.isNative, 9);
    return { program, parsed: { type: 'account', info }, space };
  }
  if (isMint(acc)) {
    const m = decodeMint(acc.data);
    const info = {
      decimals: m.decimals,
      freezeAuthority: m.freezeAuthority,
      isInitialized: m.isInitialized,
      mintAuthority: m.mintAuthority,
      supply: m.supply.toString(),
    };
    return { program, parsed: { type: 'mint', info }, space };
  }
  return null;
}

function bytesToBase64(b: Uint8Array): string {
  return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');
}

/** Encodes account data as Solana does for `encoding` (base58 limited to 128 bytes). */
export function encodeData(
  acc: AccountView,
  encoding: AccountEncoding,
  slice: DataSlice | undefined,
  decimalsOf: (mint: string) => number | null,
): unknown {
  if (encoding === 'jsonParsed' && !slice) {
    const parsed = isTokenProgram(acc.owner) ? parseTokenAccountData(acc, decimalsOf) : null;
    if (parsed) return parsed;
    return [bytesToBase64(acc.data), 'base64'];
  }
  const data = slice
    ? acc.data.subarray(Math.min(slice.offset, acc.data.length), Math.min(slice.offset + slice.length, acc.data.length))
    : acc.data;
  if (encoding === 'base58' || encoding === 'binary') {
    if (data.length > 128) {
      throw new RpcError(
        RPC_CODES.invalidRequest,
        'Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.',
      );
    }
    return encoding === 'binary' ? toBase58(data) : [toBase58(data), 'base58'];
  }
  return [bytesToBase64(data), 'base64'];
}

/** The UiAccount JSON of Solana's RPC. */
export function encodeAccount(
  acc: AccountView,
  encoding: AccountEncoding,
  slice: DataSlice | undefined,
  decimalsOf: (mint: string) => number | null,
) {
  return {
    data: encodeData(acc, encoding, slice, decimalsOf),
    executable: acc.executable,
    lamports: Number(acc.lamports),
    owner: acc.owner,
    rentEpoch: RENT_EPOCH_EXEMPT,
    space: acc.data.length,
  };
}

/** Validates raw RPC filters into typed ones (Solana: at most 4; memcmp bytes ≤ 128). */
export function parseFilters(raw: unknown): AccountFilter[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw) || raw.length > 4) throw invalidParams('Too many filters provided; max 4');
  return raw.map((f): AccountFilter => {
    if (f && typeof f === 'object' && 'dataSize' in f) {
      const n = (f as { dataSize: unknown }).dataSize;
      if (!Number.isSafeInteger(n) || (n as number) < 0) throw invalidParams('Invalid param: dataSize');
      return { dataSize: n as number };
    }
    const m =
      f && typeof f === 'object'
        ? (f as { memcmp?: { offset?: unknown; bytes?: unknown; encoding?: unknown } }).memcmp
        : undefined;
    if (!m || !Number.isSafeInteger(m.offset) || (m.offset as number) < 0 || typeof m.bytes !== 'string') {
      throw invalidParams('Invalid param: filter');
    }
    const enc = m.encoding ?? 'base58';
    let bytes: Uint8Array | null = null;
    if (enc === 'base58') bytes = fromBase58(m.bytes);
    else if (enc === 'base64' && /^[A-Za-z0-9+/]*={0,2}$/.test(m.bytes))
      bytes = new Uint8Array(Buffer.from(m.bytes, 'base64'));
    if (!bytes || bytes.length > 128) throw invalidParams('Invalid param: memcmp bytes');
    return { memcmp: { offset: m.offset as number, bytes } };
  });
}

/** True when `data` satisfies every filter. */
export function matchesFilters(data: Uint8Array, filters: AccountFilter[]): boolean {
  for (const f of filters) {
    if ('dataSize' in f) {
      if (data.length !== f.dataSize) return false;
      continue;
    }
    const { offset, bytes } = f.memcmp;
    if (offset + bytes.length > data.length) return false;
    for (let i = 0; i < bytes.length; i++) if (data[offset + i] !== bytes[i]) return false;
  }
  return true;
}
