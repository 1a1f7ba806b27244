/**
 * Wallet signatures the app accepted (watchlist binds and follows, dispute opinions): one row per
 * signature's 64 decoded bytes, so a signed message buys one action whatever spelling it is sent
 * in and however often the process restarts. The insert is the check: `INSERT … ON CONFLICT DO
 * NOTHING` lets exactly one of two concurrent uses win. Rows are pruned once their message could
 * not be accepted anyway (its signed time is outside the validity window), so the table holds
 * about one window's worth of signatures.
 */
import type { Queryable } from '../engine/db';

/** How often at most expired rows are deleted (on the next claim after this long). */
const PRUNE_EVERY_MS = 60_000;

export interface UsedSignatures {
  /**
   * Records `sig` as used for `purpose` until `expiresAt`; true when this call is its first use,
   * false when it was used before (by any purpose).
   */
  claim(sig: Uint8Array, purpose: string, expiresAt: Date): Promise<boolean>;
  /** Deletes the rows expired at `now`; how many. */
  prune(now?: Date): Promise<number>;
}

export function usedSignatures(db: Queryable, clock: () => number = Date.now): UsedSignatures {
  let prunedAt = 0;
  const prune = async (now = new Date(clock())): Promise<number> => {
    prunedAt = now.getTime();
    const rows = await db.query(`DELETE FROM used_signature WHERE expires_at < $1 RETURNING 1`, [now]);
    return rows.length;
  };
  return {
    async claim(sig, purpose, expiresAt) {
      if (sig.length !== 64) throw new RangeError(`a signature is 64 bytes, not ${sig.length}`);
      if (clock() - prunedAt > PRUNE_EVERY_MS) await prune();
      const rows = await db.query(
        `INSERT INTO used_signature (sig, purpose, expires_at) ` +
          `VALUES ($1, $2, $3) ON CONFLICT (sig) DO NOTHING RETURNING 1`,
        [sig, purpose, expiresAt],
      );
      return rows.length === 1;
    },
    prune,
  };
}
