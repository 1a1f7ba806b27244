/**
 * Agent ids the way people paste them: 64 hex characters (the wire form, `0x` optional) or the
 * base58 address wallets and explorers show for the same 32 bytes. Every agent query and path
 * parameter of the API, the list pages and search read ids through here, so one form never
 * finds what the other misses. Browser-safe (bs58, no Buffer).
 */
import bs58 from 'bs58';
import { fromHex, toHex } from '../protocol/hex';

const HEX64 = /^(?:0x)?([0-9a-fA-F]{64})$/;
// A 32-byte key is 32..44 base58 characters; anything longer cannot decode to 32 bytes.
const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

/** The 32 id bytes, or null when `raw` is neither form. */
export function agentBytes(raw: string): Uint8Array | null {
  const s = raw.trim();
  const m = HEX64.exec(s);
  if (m) return fromHex(m[1].toLowerCase());
  if (!BASE58.test(s)) return null;
  // As a Solana public key reads it: the base58 text must decode to exactly 32 bytes.
  const b = bs58.decode(s);
  return b.length === 32 ? Uint8Array.from(b) : null;
}

/** The id as lowercase hex (the form the store keys on), or null. */
export function agentHex(raw: string): string | null {
  const b = agentBytes(raw);
  return b ? toHex(b) : null;
}
