/**
 * Display helpers the server's view models and the browser's components both use (agent ids in
 * base58, short ids, exact token amounts): one copy, so a page rendered on the server and the
 * same figure updated in the browser read alike. Browser-safe: bs58 and plain strings.
 */
import bs58 from 'bs58';

/** Base58 (Bitcoin alphabet, as Solana addresses) of a hex string: agent ids as wallets show mints. */
export function base58(hex: string): string {
  if (!/^([0-9a-f]{2})*$/i.test(hex)) return hex;
  return bs58.encode(Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16)));
}

/** First and last characters of a long hex id: `3fa2…9c01`. */
export function shortHex(hex: string | null | undefined, head = 6, tail = 4): string {
  if (!hex) return '—';
  if (hex.length <= head + tail + 1) return hex;
  return tail > 0 ? `${hex.slice(0, head)}…${hex.slice(-tail)}` : `${hex.slice(0, head)}…`;
}

/** Thousands separators on a string of decimal digits: 1234567 → 1,234,567. */
function groupDigits(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** The largest decimals a token can declare that this display accepts (SPL mints use a u8). */
export const MAX_DECIMALS = 255;

export interface TokenAmountOptions {
  /** The token's decimals when known (6 for USDC); null or absent: the amount is shown in raw units. */
  decimals?: number | null;
  /** The token's symbol when known, shown after the amount. */
  symbol?: string | null;
  /** Pad the fraction to at least this many places (a balance read as 100.00); it is never cut. */
  minFractionDigits?: number;
}

/**
 * A token amount given in its smallest unit, shown exactly: any size (u64, int128 and beyond) and
 * sign, never through a float, grouped by thousands. With the token's decimals the fraction is
 * placed and its trailing zeros dropped (15223372036854775808 at 6 decimals is
 * 15,223,372,036,854.775808); without them the integer is shown with "units", because a guessed
 * scale would misstate the amount by orders of magnitude.
 */
export function formatTokenAmount(units: bigint, opts: TokenAmountOptions = {}): string {
  const neg = units < 0n;
  const abs = (neg ? -units : units).toString();
  const sign = neg ? '-' : '';
  const d = opts.decimals;
  const symbol = opts.symbol ? ` ${opts.symbol}` : '';
  if (d === null || d === undefined || !Number.isInteger(d) || d < 0 || d > MAX_DECIMALS) {
    return `${sign}${groupDigits(abs)} units${symbol ? ` of${symbol}` : ''}`;
  }
  const digits = abs.padStart(d + 1, '0');
  const int = groupDigits(digits.slice(0, digits.length - d));
  const frac = digits
    .slice(digits.length - d)
    .replace(/0+$/, '')
    .padEnd(Math.min(d, Math.max(0, opts.minFractionDigits ?? 0)), '0');
  return `${sign}${int}${frac ? `.${frac}` : ''}${symbol}`;
}
