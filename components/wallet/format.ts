/** Amounts as people read them: SOL from lamports, USDC from 6-decimal base units. */
export function sol(lamports: bigint | null): string {
  if (lamports === null) return '…';
  return (Number(lamports) / 1e9).toFixed(3);
}

export function usdc(base: bigint | string | null): string {
  if (base === null) return '…';
  const b = typeof base === 'string' ? BigInt(base) : base;
  const whole = b / 1_000_000n;
  const frac = (b % 1_000_000n).toString().padStart(6, '0').slice(0, 2);
  return `${whole}.${frac}`;
}

/** A base58 address shortened for tight spaces (the full one goes in `title`). */
export function shortAddress(a: string): string {
  return a.length > 12 ? `${a.slice(0, 4)}…${a.slice(-4)}` : a;
}

/** USDC typed by a person ("12.5") in base units; null when not a positive amount with ≤ 6 decimals. */
export function parseUsdc(text: string): bigint | null {
  const m = /^\s*(\d{1,12})(?:\.(\d{1,6}))?\s*$/.exec(text);
  if (!m) return null;
  const v = BigInt(m[1]) * 1_000_000n + BigInt((m[2] ?? '').padEnd(6, '0'));
  return v > 0n ? v : null;
}
