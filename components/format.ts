/**
 * Display helpers shared by pages and client components (browser-safe: no Node APIs).
 */
const ZERO32 = '0'.repeat(64);

/** True for the 32-zero-byte broadcast recipient. */
export function isBroadcast(hex: string | null | undefined): boolean {
  return !hex || hex === ZERO32;
}

/** True for an absent or all-zero id (broadcasts carry a zero conversation id). */
export function isZeroId(hex: string | null | undefined): boolean {
  return !hex || /^0+$/.test(hex);
}

/** First and last characters of a long hex id: `3fa2…9c01`. */
export function shortHex(hex: string | null | undefined, head = 6, tail = 4): string {
  if (!hex) return '—';
  if (hex.length <= head + tail + 1) return hex;
  return tail > 0 ? `${hex.slice(0, head)}…${hex.slice(-tail)}` : `${hex.slice(0, head)}…`;
}

/** HH:MM:SS.mmm of a unix-ms time, in the viewer's zone. */
export function clockTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** ISO date-time without the zone suffix noise, e.g. 2025-01-02 10:11:12. */
export function dateTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

/** 12,345 */
export function count(n: number | null | undefined): string {
  return typeof n === 'number' && Number.isFinite(n) ? n.toLocaleString('en-US') : '—';
}

/** A token amount in its smallest unit (decimal string) shown with `decimals` places. */
export function tokenAmount(raw: string | null | undefined, decimals = 6): string {
  if (raw === null || raw === undefined || !/^-?\d+$/.test(raw)) return '—';
  const neg = raw.startsWith('-');
  const digits = (neg ? raw.slice(1) : raw).padStart(decimals + 1, '0');
  const int = digits.slice(0, digits.length - decimals).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return `${neg ? '-' : ''}${int}${frac ? `.${frac}` : ''}`;
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin alphabet, as Solana addresses) of a hex string: agent ids as wallets show mints. */
export function base58(hex: string): string {
  if (!/^([0-9a-f]{2})*$/i.test(hex)) return hex;
  const bytes = hex.match(/../g)?.map((h) => parseInt(h, 16)) ?? [];
  const digits: number[] = [];
  for (const b of bytes) {
    let carry = b;
    for (let i = 0; i < digits.length; i++) {
      carry += digits[i] << 8;
      digits[i] = carry % 58;
      carry = (carry / 58) | 0;
    }
    while (carry > 0) { digits.push(carry % 58); carry = (carry / 58) | 0; }
  }
  let out = '';
  for (const b of bytes) { if (b !== 0) break; out += '1'; }
  for (let i = digits.length - 1; i >= 0; i--) out += B58[digits[i]];
  return out;
}
