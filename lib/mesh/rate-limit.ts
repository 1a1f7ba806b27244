/**
 * Per-peer token bucket for the 100 messages/s limit (0x01 spec §11). Pure: the caller passes
 * the clock, so tests drive it deterministically.
 */

export interface PeerRateLimiterParams {
  /** Tokens added per second (sustained rate). */
  ratePerSecond: number;
  /** Bucket depth (largest burst). */
  burst: number;
  /** Milliseconds, monotonic enough for rate keeping (Date.now or performance.now). */
  now: () => number;
  /** Buckets kept at most; when exceeded, full (idle) buckets are forgotten. Default 10,000. */
  maxPeers?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets keyed by remote peer id. `take(peer)` spends one token and says whether the
 * message may pass; a new peer starts with a full bucket.
 */
export class PeerRateLimiter {
  readonly ratePerSecond: number;
  readonly burst: number;
  readonly #now: () => number;
  readonly #maxPeers: number;
  readonly #buckets = new Map<string, Bucket>();

  constructor(params: PeerRateLimiterParams) {
    const { ratePerSecond, burst, now, maxPeers = 10_000 } = params;
    if (!(Number.isFinite(ratePerSecond) && ratePerSecond > 0)) throw new RangeError('ratePerSecond must be > 0');
    if (!(Number.isFinite(burst) && burst >= 1)) throw new RangeError('burst must be >= 1');
    if (typeof now !== 'function') throw new TypeError('now must be a function');
    if (!(Number.isInteger(maxPeers) && maxPeers >= 1)) throw new RangeError('maxPeers must be an integer >= 1');
    this.ratePerSecond = ratePerSecond;
    this.burst = burst;
    this.#now = now;
    this.#maxPeers = maxPeers;
  }

  /** Spends one token of `peer`'s bucket; false when the bucket is empty (drop the message). */
  take(peer: string): boolean {
    const t = this.#now();
    let b = this.#buckets.get(peer);
    if (b === undefined) {
      if (this.#buckets.size >= this.#maxPeers) this.#evict(t);
      b = { tokens: this.burst, at: t };
      this.#buckets.set(peer, b);
    } else if (t > b.at) {
      b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) * this.ratePerSecond) / 1000);
      b.at = t;
    }
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** Forgets a peer (on disconnect). */
  forget(peer: string): void {
    this.#buckets.delete(peer);
  }

  /** Number of peers tracked. */
  get size(): number {
    return this.#buckets.size;
  }

  #evict(t: number): void {
    for (const [peer, b] of this.#buckets) {
      if (b.tokens + ((t - b.at) * this.ratePerSecond) / 1000 >= this.burst) this.#buckets.delete(peer);
    }
    // Everyone is active: drop the oldest entry so memory stays bounded.
    if (this.#buckets.size >= this.#maxPeers) {
      const first = this.#buckets.keys().next();
      if (!first.done) this.#buckets.delete(first.value);
    }
  }
}
