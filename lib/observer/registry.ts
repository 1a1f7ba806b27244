/**
 * The observer's signer registry (docs/protocol.md §2 "Signer"): agent id → allowed Ed25519 keys,
 * behind lib/protocol's SignerRegistry interface so the backing source (today the store's
 * local signer-key table, later the chain-backed registry) can be replaced without touching
 * the observer. Known agents are answered from memory synchronously (the ingest hot path);
 * unknown ones are looked up once and remembered as unknown for a short time, so a flood from
 * an unregistered sender costs one lookup per `negativeTtlMs`, not one per envelope.
 */

import { toHex } from '../protocol/hex';
import type { SignerRegistry } from '../protocol/types';

/** A key that signed (or could sign) for an agent before and may not now, with the drop reason. */
export interface RefusedSigner {
  key: Uint8Array;
  /** e.g. `delegation_expired`, `delegation_revoked`, `not_owner_or_delegate`. */
  reason: string;
}

/** A source's full answer for one agent (chain-backed sources; see {@link SignerSource.signersFor}). */
export interface SignerAnswer {
  /** Keys that may sign now; empty = not registered. */
  keys: readonly Uint8Array[];
  /** Why there are no keys (`unregistered`, `not_sati_member`, …); only with no keys. */
  reason?: string;
  /** Keys that may not sign, and why: an envelope they signed is dropped with that reason. */
  refused?: readonly RefusedSigner[];
  /**
   * Unix ms after which this answer must not be used (a delegation's expiry): the cache asks the
   * source again on the first envelope after it, so an expiry takes effect at verify time.
   */
  validUntil?: number;
}

/** Where keys really live (the store's signer-key table, or the chain). */
export interface SignerSource extends SignerRegistry {
  /** Adds a key for an agent (idempotent). Optional: a chain-backed source is read-only. */
  registerSigner?(agentId: Uint8Array, publicKey: Uint8Array, role?: 'owner' | 'delegate'): Promise<unknown>;
  /** The keys with why others are refused and how long the answer holds; used instead of keysFor when present. */
  signersFor?(agentId: Uint8Array): Promise<SignerAnswer>;
  /** Asked to read the agent afresh (its own rate limit applies); see {@link CachedSignerRegistry.revalidate}. */
  revalidate?(agentId: Uint8Array): unknown;
}

interface Known {
  loadedAt: number;
  keys: readonly Uint8Array[];
  refused: readonly RefusedSigner[];
  until: number;
}

interface Unknown {
  until: number;
  reason?: string;
  refused: readonly RefusedSigner[];
}

export interface CachedSignerRegistryParams {
  source: SignerSource;
  /** ms clock. Default Date.now. */
  now?: () => number;
  /** How long an agent without keys is remembered as such, ms. Default 2,000. */
  negativeTtlMs?: number;
  /** Most agents kept in memory. Default 100,000. */
  maxEntries?: number;
}

/** A SignerRegistry with an in-memory cache; {@link peek} is the synchronous fast path. */
export class CachedSignerRegistry implements SignerRegistry {
  readonly #source: SignerSource;
  readonly #now: () => number;
  readonly #negativeTtlMs: number;
  readonly #max: number;
  readonly #known = new Map<string, Known>();
  readonly #unknownUntil = new Map<string, Unknown>();
  readonly #inflight = new Map<string, Promise<readonly Uint8Array[]>>();

  constructor(params: CachedSignerRegistryParams) {
    if (!params?.source || typeof params.source.keysFor !== 'function')
      throw new TypeError('params.source must implement keysFor');
    this.#source = params.source;
    this.#now = params.now ?? Date.now;
    this.#negativeTtlMs = params.negativeTtlMs ?? 2_000;
    this.#max = params.maxEntries ?? 100_000;
  }

  /** Cached keys of an agent: the list, `[]` while remembered as unknown, undefined if not cached. */
  peek(agentId: Uint8Array): readonly Uint8Array[] | undefined {
    const k = toHex(agentId);
    const hit = this.#known.get(k);
    if (hit) {
      if (hit.until === Infinity || hit.until > this.#now()) return hit.keys;
      this.#known.delete(k);
      return undefined;
    }
    const miss = this.#unknownUntil.get(k);
    if (miss !== undefined) {
      if (miss.until > this.#now()) return [];
      this.#unknownUntil.delete(k);
    }
    return undefined;
  }

  /**
   * Why the cached answer refuses a sender, from memory: the reason it has no keys (undefined
   * when the source gave none, or the agent is not cached) and the keys it refuses with theirs.
   * The observer names its drops with this (lib/observer/validation.ts).
   */
  refusal(agentId: Uint8Array): { reason?: string; refused: readonly RefusedSigner[] } {
    const k = toHex(agentId);
    const hit = this.#known.get(k);
    if (hit) return { refused: hit.refused };
    const miss = this.#unknownUntil.get(k);
    return miss ? { reason: miss.reason, refused: miss.refused } : { refused: [] };
  }

  /** SignerRegistry: synchronous when cached, a Promise on a miss (one lookup per agent at a time). */
  keysFor(agentId: Uint8Array): readonly Uint8Array[] | Promise<readonly Uint8Array[]> {
    const cached = this.peek(agentId);
    if (cached) return cached;
    return this.load(agentId);
  }

  /** Looks the agent up in the source and caches the answer. */
  load(agentId: Uint8Array): Promise<readonly Uint8Array[]> {
    const k = toHex(agentId);
    let p = this.#inflight.get(k);
    if (p) return p;
    p = (async () => {
      try {
        const answer: SignerAnswer = this.#source.signersFor
          ? await this.#source.signersFor(agentId)
          : { keys: await this.#source.keysFor(agentId) };
        const keys = [...answer.keys];
        this.#remember(k, keys, answer);
        return keys;
      } finally {
        this.#inflight.delete(k);
      }
    })();
    this.#inflight.set(k, p);
    return p;
  }

  /** Registers a key in the source and in the cache (demo agents at start). */
  async register(agentId: Uint8Array, publicKey: Uint8Array, role: 'owner' | 'delegate' = 'owner'): Promise<void> {
    if (!(agentId instanceof Uint8Array) || agentId.length !== 32) throw new TypeError('agentId must be 32 bytes');
    if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32)
      throw new TypeError('publicKey must be 32 bytes');
    if (!this.#source.registerSigner) throw new TypeError('this signer source is read-only');
    await this.#source.registerSigner(agentId, publicKey, role);
    this.invalidate(agentId);
    await this.load(agentId);
  }

  /**
   * A known agent's envelope failed the signature under every key: with a source that follows
   * the chain, a key may have been granted since the answer was cached (a new delegation whose
   * notification has not arrived). Forgets the answer when it is older than `minAgeMs`, so the
   * next envelope asks again; at most one lookup per agent per `minAgeMs`, whatever a forger sends.
   */
  revalidate(agentId: Uint8Array, minAgeMs = 2_000): boolean {
    if (!this.#source.signersFor) return false;
    const k = toHex(agentId);
    const hit = this.#known.get(k);
    if (!hit || this.#now() - hit.loadedAt < minAgeMs) return false;
    this.#known.delete(k);
    this.#source.revalidate?.(agentId);
    return true;
  }

  /** Forgets an agent (a key change seen elsewhere, e.g. a LISTEN/NOTIFY from another process). */
  invalidate(agentId: Uint8Array): void {
    const k = toHex(agentId);
    this.#known.delete(k);
    this.#unknownUntil.delete(k);
  }

  #remember(k: string, keys: Uint8Array[], answer: SignerAnswer): void {
    if (this.#known.size + this.#unknownUntil.size >= this.#max) {
      this.#known.clear();
      this.#unknownUntil.clear();
    }
    const refused = Object.freeze([...(answer.refused ?? [])]);
    const validUntil =
      typeof answer.validUntil === 'number' && Number.isFinite(answer.validUntil) ? answer.validUntil : Infinity;
    if (keys.length > 0)
      this.#known.set(k, { loadedAt: this.#now(), keys: Object.freeze(keys), refused, until: validUntil });
    else
      this.#unknownUntil.set(k, {
        until: Math.min(this.#now() + this.#negativeTtlMs, validUntil),
        reason: answer.reason,
        refused,
      });
  }
}
