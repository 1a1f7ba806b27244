/**
 * The observer's signer registry (docs/protocol.md §2 "Signer"): agent id → allowed Ed25519 keys,
 * behind lib/protocol's SignerRegistry interface so the backing source (today the store's
 * local signer-key table, later the chain-backed registry) can be replaced without touching
 * the observer. Known agents are answered from memory synchronously (the ingest hot path);
 * unknown ones are looked up once and remembered as unknown for a short time, so a flood from
 * an unregistered sender costs one lookup per `negativeTtlMs`, not one per envelope.
 */
import type { SignerRegistry } from '../protocol/types';
import { toHex } from '../protocol/hex';

/** Where keys really live (the store's signer-key table, or the chain). */
export interface SignerSource extends SignerRegistry {
  /** Adds a key for an agent (idempotent). Optional: a chain-backed source is read-only. */
  registerSigner?(agentId: Uint8Array, publicKey: Uint8Array, role?: 'owner' | 'delegate'): Promise<unknown>;
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
  readonly #known = new Map<string, readonly Uint8Array[]>();
  readonly #unknownUntil = new Map<string, number>();
  readonly #inflight = new Map<string, Promise<readonly Uint8Array[]>>();

  constructor(params: CachedSignerRegistryParams) {
    if (!params?.source || typeof params.source.keysFor !== 'function') throw new TypeError('params.source must implement keysFor');
    this.#source = params.source;
    this.#now = params.now ?? Date.now;
    this.#negativeTtlMs = params.negativeTtlMs ?? 2_000;
    this.#max = params.maxEntries ?? 100_000;
  }

  /** Cached keys of an agent: the list, `[]` while remembered as unknown, undefined if not cached. */
  peek(agentId: Uint8Array): readonly Uint8Array[] | undefined {
    const k = toHex(agentId);
    const hit = this.#known.get(k);
    if (hit) return hit;
    const until = this.#unknownUntil.get(k);
    if (until !== undefined) {
      if (until > this.#now()) return [];
      this.#unknownUntil.delete(k);
    }
    return undefined;
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
        const keys = [...(await this.#source.keysFor(agentId))];
        this.#remember(k, keys);
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
    if (!(publicKey instanceof Uint8Array) || publicKey.length !== 32) throw new TypeError('publicKey must be 32 bytes');
    if (!this.#source.registerSigner) throw new TypeError('this signer source is read-only');
    await this.#source.registerSigner(agentId, publicKey, role);
    this.invalidate(agentId);
    await this.load(agentId);
  }

  /** Forgets an agent (a key change seen elsewhere, e.g. a LISTEN/NOTIFY from another process). */
  invalidate(agentId: Uint8Array): void {
    const k = toHex(agentId);
    this.#known.delete(k);
    this.#unknownUntil.delete(k);
  }

  #remember(k: string, keys: Uint8Array[]): void {
    if (this.#known.size + this.#unknownUntil.size >= this.#max) {
      this.#known.clear();
      this.#unknownUntil.clear();
    }
    if (keys.length > 0) this.#known.set(k, Object.freeze(keys));
    else this.#unknownUntil.set(k, this.#now() + this.#negativeTtlMs);
  }
}
