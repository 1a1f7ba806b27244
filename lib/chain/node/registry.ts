/**
 * NODE-ONLY (server): holds WebSocket subscriptions and a process-wide cache.
 *
 * Chain-backed signer registry (docs/protocol.md §2 "Signer"): agent id →
 * Ed25519 keys allowed to sign for it, read over JSON-RPC, replacing the local registry.
 *
 * - `token2022` (default; the embedded chain, and SATI v2's Token-2022 binding): the owner of the
 *   Token-2022 account holding 1 of the agent mint (lib/chain/identity.ts findIdentityHolder).
 * - `sati`: the owner and delegates of the SATI identity account (lib/chain/sati.ts, layout
 *   documented there as an assumption).
 *
 * Cache: hits are served from memory. Each entry follows its account with accountSubscribe
 * (owner changes are applied at once; an NFT leaving the holding account drops the entry so the
 * next call re-resolves); a TTL bounds staleness when a notification is missed, and unknown ids
 * are cached briefly so hostile senders cannot turn every envelope into an RPC scan.
 */
import { PublicKey, type AccountInfo, type Connection } from '@solana/web3.js';
import type { SignerRegistry } from '../../protocol/types';
import { decodeTokenAccount, findIdentityHolder } from '../identity';
import { findSatiIdentityPda, parseSatiIdentity } from '../sati';

/** Where identities are read from. */
export type IdentitySource = 'token2022' | 'sati';

/** One resolved identity. */
export interface ResolvedIdentity {
  agent: PublicKey;
  owner: PublicKey;
  delegates: PublicKey[];
  /** The account followed: the holding token account, or the SATI account. */
  account: PublicKey;
  source: IdentitySource;
}

/** Options of {@link ChainSignerRegistry}. */
export interface ChainSignerRegistryParams {
  connection: Connection;
  source?: IdentitySource;
  /** Required when source = 'sati'. */
  satiProgramId?: PublicKey;
  /** Positive entries expire after this (default 60,000 ms). */
  ttlMs?: number;
  /** Unknown agents are remembered this long (default 2,000 ms). */
  negativeTtlMs?: number;
  /** Follow entries with accountSubscribe (default true). */
  subscribe?: boolean;
  /** Most cached agents (default 10,000; oldest evicted). */
  maxEntries?: number;
  now?: () => number;
  /** Called when a followed identity changes owner or disappears. */
  onChange?: (agent: PublicKey, identity: ResolvedIdentity | null) => void;
}

interface Entry {
  identity: ResolvedIdentity | null;
  keys: readonly Uint8Array[];
  expires: number;
  sub: number | null;
}

const hexOf = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** SignerRegistry over JSON-RPC with an ownership-following cache (module comment). */
export class ChainSignerRegistry implements SignerRegistry {
  private readonly connection: Connection;
  private readonly source: IdentitySource;
  private readonly satiProgramId: PublicKey | null;
  private readonly ttlMs: number;
  private readonly negativeTtlMs: number;
  private readonly subscribe: boolean;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly onChange?: ChainSignerRegistryParams['onChange'];
  private readonly cache = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();
  private closed = false;
  /** RPC resolutions performed (cache misses); for tests and metrics. */
  lookups = 0;

  constructor(p: ChainSignerRegistryParams) {
    if (!p || typeof p.connection?.getProgramAccounts !== 'function') throw new TypeError('connection must be a web3.js Connection');
    this.connection = p.connection;
    this.source = p.source ?? 'token2022';
    if (this.source !== 'token2022' && this.source !== 'sati') throw new TypeError("source must be 'token2022' or 'sati'");
    if (this.source === 'sati' && !(p.satiProgramId instanceof PublicKey)) throw new TypeError("satiProgramId is required when source is 'sati'");
    this.satiProgramId = p.satiProgramId ?? null;
    const ms = (name: string, v: number | undefined, d: number) => {
      if (v === undefined) return d;
      if (!Number.isFinite(v) || v < 0) throw new RangeError(`${name} must be a non-negative number of ms`);
      return v;
    };
    this.ttlMs = ms('ttlMs', p.ttlMs, 60_000);
    this.negativeTtlMs = ms('negativeTtlMs', p.negativeTtlMs, 2_000);
    this.maxEntries = ms('maxEntries', p.maxEntries, 10_000);
    this.subscribe = p.subscribe ?? true;
    this.now = p.now ?? Date.now;
    this.onChange = p.onChange;
  }

  /** SignerRegistry.keysFor: [owner, ...delegates] as 32-byte keys; [] when unknown. RPC errors propagate. */
  async keysFor(agentId: Uint8Array): Promise<readonly Uint8Array[]> {
    return (await this.entry(agentId)).keys;
  }

  /** The identity behind `agentId`, or null. */
  async resolve(agentId: Uint8Array | PublicKey): Promise<ResolvedIdentity | null> {
    return (await this.entry(agentId instanceof PublicKey ? agentId.toBytes() : agentId)).identity;
  }

  /** Forgets one agent (or all): e.g. after an ownership transfer seen elsewhere. */
  invalidate(agentId?: Uint8Array | PublicKey): void {
    if (agentId === undefined) {
      for (const k of [...this.cache.keys()]) this.drop(k);
      return;
    }
    this.drop(hexOf(agentId instanceof PublicKey ? agentId.toBytes() : agentId));
  }

  /** Number of cached agents. */
  get size(): number {
    return this.cache.size;
  }

  /** Removes every subscription. */
  async close(): Promise<void> {
    this.closed = true;
    this.invalidate();
  }

  private async entry(agentId: Uint8Array): Promise<Entry> {
    if (!(agentId instanceof Uint8Array) || agentId.length !== 32) throw new TypeError('agentId must be 32 bytes');
    const key = hexOf(agentId);
    const hit = this.cache.get(key);
    if (hit && hit.expires > this.now()) return hit;
    if (hit) this.drop(key);
    let p = this.inflight.get(key);
    if (!p) {
      p = this.load(key, new PublicKey(agentId)).finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  private async load(key: string, agent: PublicKey): Promise<Entry> {
    this.lookups++;
    const identity = await this.fetch(agent);
    const entry: Entry = {
      identity,
      keys: identity ? keysOf(identity) : [],
      expires: this.now() + (identity ? this.ttlMs : this.negativeTtlMs),
      sub: null,
    };
    if (this.closed) return entry;
    while (this.cache.size >= this.maxEntries && this.cache.size > 0) this.drop(this.cache.keys().next().value as string);
    this.cache.set(key, entry);
    if (identity && this.subscribe) {
      entry.sub = this.connection.onAccountChange(identity.account, (info) => this.onAccount(key, entry, info), { commitment: 'confirmed', encoding: 'base64' });
    }
    return entry;
  }

  private async fetch(agent: PublicKey): Promise<ResolvedIdentity | null> {
    if (this.source === 'token2022') {
      const h = await findIdentityHolder(this.connection, agent);
      return h ? { agent, owner: h.owner, delegates: [], account: h.tokenAccount, source: 'token2022' } : null;
    }
    const account = findSatiIdentityPda(agent, this.satiProgramId as PublicKey);
    const info = await this.connection.getAccountInfo(account, 'confirmed');
    if (!info || !info.owner.equals(this.satiProgramId as PublicKey)) return null;
    const s = parseSatiIdentity(info.data);
    if (!s || !s.agent.equals(agent)) return null;
    return { agent, owner: s.owner, delegates: s.delegates, account, source: 'sati' };
  }

  /** accountSubscribe notification for a cached entry. */
  private onAccount(key: string, entry: Entry, info: AccountInfo<Buffer>): void {
    if (this.cache.get(key) !== entry || !entry.identity) return;
    const id = entry.identity;
    let next: ResolvedIdentity | null = null;
    if (id.source === 'token2022') {
      const t = info.lamports > 0 ? decodeTokenAccount(info.data) : null;
      if (t && t.mint.equals(id.agent) && t.amount === 1n) next = { ...id, owner: t.owner };
    } else {
      const s = info.lamports > 0 && this.satiProgramId && info.owner.equals(this.satiProgramId) ? parseSatiIdentity(info.data) : null;
      if (s && s.agent.equals(id.agent)) next = { ...id, owner: s.owner, delegates: s.delegates };
    }
    if (next) {
      const changed = !next.owner.equals(id.owner) || next.delegates.length !== id.delegates.length || next.delegates.some((d, i) => !d.equals(id.delegates[i]));
      entry.identity = next;
      entry.keys = keysOf(next);
      if (changed) this.onChange?.(id.agent, next);
      return;
    }
    // The NFT left this account (transfer) or the account closed: resolve afresh next time.
    this.drop(key);
    this.onChange?.(id.agent, null);
  }

  private drop(key: string): void {
    const e = this.cache.get(key);
    if (!e) return;
    this.cache.delete(key);
    if (e.sub !== null) void this.connection.removeAccountChangeListener(e.sub).catch(() => undefined);
  }
}

function keysOf(id: ResolvedIdentity): readonly Uint8Array[] {
  const out = [id.owner.toBytes()];
  for (const d of id.delegates) if (!out.some((k) => Buffer.from(k).equals(d.toBytes()))) out.push(d.toBytes());
  return out;
}
