/**
 * NODE-ONLY (server): holds WebSocket subscriptions and a process-wide cache.
 *
 * The chain-backed signer registry (docs/protocol.md §2 "Signer"; docs/chain.md "Who may sign for an agent"):
 * agent id → the Ed25519 keys allowed to sign for it now, by SATI's rule and nothing else.
 *
 * - Registered: lib/chain/sati.ts `satiRegistration` on the agent's mint with the group read from
 *   SATI's RegistryConfig (a Token-2022 NFT whose TokenGroupMember names that group). Anything
 *   else is refused with its reason (`unregistered`, `not_nft`, `not_sati_member`).
 * - May sign: the owner of the token account holding the NFT, and each delegate whose DelegateV1
 *   attestation (found with getProgramAccounts on SAS by credential, schema and agent mint) passes
 *   lib/chain/sati.ts `delegationValid` against the current owner at the time of the check.
 * - Refused, with the reason an envelope they sign is dropped for: an expired delegation
 *   (`delegation_expired`), a closed one (`delegation_revoked`), a delegation by a former owner
 *   and the former owner itself (`not_owner_or_delegate`).
 *
 * Follows the chain: the holding token account, each attestation and SAS's attestations of the
 * agent (programSubscribe) are subscribed, so a transfer, a revocation or a new delegation takes
 * effect when its notification arrives. Once the subscriptions are confirmed the agent is read once
 * more, so a change made before they were live is not missed (./subscriptions.ts). Expiry is a
 * clock comparison at every answer, and the answer says until when it holds. A TTL bounds
 * staleness when a notification is missed anyway; unknown
 * ids are remembered briefly so a hostile sender cannot turn every envelope into RPC scans.
 */
import { type AccountInfo, type Connection, PublicKey } from '@solana/web3.js';
import { fromHex, toHex } from '../../protocol/hex';
import type { SignerRegistry } from '../../protocol/types';
import { decodeTokenAccount } from '../identity';
import {
  decodeDelegateAttestation,
  delegationValid,
  type RawAccount,
  SATI_MAINNET,
  type SatiRegistered,
} from '../sati';
import { delegationFilters, readSatiSigners, type SatiRuleAddresses } from '../sati-signers';
import type {
  ChainSignerRegistryParams,
  DelegationView,
  RefusedReason,
  ResolvedIdentity,
  SignerAnswer,
  UnregisteredReason,
} from './registry-types';
import { sameAccount, whenSubscribed } from './subscriptions';

export type {
  ChainSignerRegistryParams,
  DelegationView,
  RefusedReason,
  ResolvedIdentity,
  SatiRuleAddresses,
  SignerAnswer,
  UnregisteredReason,
};

interface Delegation {
  account: RawAccount & { address: PublicKey };
  delegate: PublicKey;
  delegator: PublicKey;
  expiry: bigint;
  sub: number | null;
}

interface Entry {
  agent: PublicKey;
  reason: UnregisteredReason | null;
  registration: SatiRegistered | null;
  owner: PublicKey | null;
  tokenAccount: PublicKey | null;
  delegations: Map<string, Delegation>;
  /** Former owners (hex key): refused as not_owner_or_delegate. */
  former: Set<string>;
  loadedAt: number;
  expires: number;
  subs: { holder: number | null; program: number | null };
}

/** Fresh reads {@link ChainSignerRegistry.revalidate} may start per second, all agents together. */
const REVALIDATIONS_PER_SECOND = 5;
/** Former owners remembered across a re-resolution (per agent), bounded. */
const MAX_FORMER = 16;

/** SignerRegistry over JSON-RPC by SATI's rule, with a cache that follows the chain (module comment). */
export class ChainSignerRegistry implements SignerRegistry {
  private readonly connection: Connection;
  readonly sati: SatiRuleAddresses;
  private readonly ttlMs: number;
  private readonly negativeTtlMs: number;
  private readonly subscribe: boolean;
  private readonly maxEntries: number;
  private readonly now: () => number;
  private readonly onChange?: ChainSignerRegistryParams['onChange'];
  private readonly cache = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();
  /** Former owners of agents whose entry was dropped (the NFT left its account), kept for the next entry. */
  private readonly formerOwners = new Map<string, Set<string>>();
  private closed = false;
  /** When the last revalidations started (ms), for the global rate. */
  private readonly revalidations: number[] = [];
  /** Unsubscriptions sent and not yet answered. */
  private readonly removals = new Set<Promise<unknown>>();
  /** RPC resolutions performed (cache misses); for tests and metrics. */
  lookups = 0;

  constructor(p: ChainSignerRegistryParams) {
    if (!p || typeof p.connection?.getProgramAccounts !== 'function')
      throw new TypeError('connection must be a web3.js Connection');
    this.connection = p.connection;
    const sati = p.sati ?? SATI_MAINNET;
    for (const k of ['program', 'sas', 'credential', 'delegateSchema'] as const)
      if (!(sati?.[k] instanceof PublicKey)) throw new TypeError(`sati.${k} must be a PublicKey`);
    this.sati = {
      program: sati.program,
      sas: sati.sas,
      credential: sati.credential,
      delegateSchema: sati.delegateSchema,
    };
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

  /** SignerRegistry.keysFor: the keys allowed now ([] when not registered). RPC errors propagate. */
  async keysFor(agentId: Uint8Array): Promise<readonly Uint8Array[]> {
    return (await this.signersFor(agentId)).keys;
  }

  /** The keys allowed now, the keys refused with why, the reason when there are none, and until when this holds. */
  async signersFor(agentId: Uint8Array): Promise<SignerAnswer> {
    return this.answer(await this.entry(agentId));
  }

  /** The registered agent behind `agentId` as of now, or null. */
  async resolve(agentId: Uint8Array | PublicKey): Promise<ResolvedIdentity | null> {
    return this.view(await this.entry(agentId instanceof PublicKey ? agentId.toBytes() : agentId));
  }

  /** Forgets one agent (or all). */
  invalidate(agentId?: Uint8Array | PublicKey): void {
    if (agentId === undefined) {
      for (const k of [...this.cache.keys()]) this.drop(k);
      return;
    }
    this.drop(toHex(agentId instanceof PublicKey ? agentId.toBytes() : agentId));
  }

  /**
   * An envelope of a registered agent verified under none of its keys: a delegation may have been
   * granted whose notification has not arrived (or was missed). Reads the agent afresh when its
   * entry is older than `minAgeMs`, so a forger costs at most one read per agent per `minAgeMs`,
   * and at most {@link REVALIDATIONS_PER_SECOND} reads a second over all agents (a flood of
   * forgeries naming many agents is not turned into RPC load).
   */
  revalidate(agentId: Uint8Array, minAgeMs = 2_000): boolean {
    const key = toHex(agentId);
    const e = this.cache.get(key);
    const now = this.now();
    if (!e?.owner || now - e.loadedAt < minAgeMs) return false;
    while (this.revalidations.length && this.revalidations[0] <= now - 1_000) this.revalidations.shift();
    if (this.revalidations.length >= REVALIDATIONS_PER_SECOND) return false;
    this.revalidations.push(now);
    if (e.former.size) this.formerOwners.set(key, new Set([...(this.formerOwners.get(key) ?? []), ...e.former]));
    this.drop(key);
    return true;
  }

  /** Number of cached agents. */
  get size(): number {
    return this.cache.size;
  }

  /**
   * Removes every subscription and waits (at most 2 s) until the connection has forgotten them:
   * web3.js drops a subscription only when the server confirms the unsubscribe, and one still
   * pending when its socket closes makes it reconnect to a chain that may be gone.
   */
  async close(): Promise<void> {
    this.closed = true;
    this.invalidate();
    await Promise.allSettled([...this.removals]);
    const subs = (this.connection as unknown as { _subscriptionsByHash?: Record<string, unknown> })
      ._subscriptionsByHash;
    for (let i = 0; i < 100 && subs && Object.keys(subs).length > 0; i++) await new Promise((r) => setTimeout(r, 20));
  }

  private answer(e: Entry): SignerAnswer {
    if (!e.owner || e.reason) return { keys: [], reason: e.reason ?? 'unregistered' };
    const nowMs = this.now();
    const keys: Uint8Array[] = [e.owner.toBytes()];
    const refused: { key: Uint8Array; reason: RefusedReason }[] = [];
    const seen = new Set([toHex(keys[0])]);
    let validUntil = Infinity;
    for (const d of e.delegations.values()) {
      const status = this.statusOf(e, d, nowMs);
      const k = d.delegate.toBytes();
      if (status === 'valid') {
        if (d.expiry > 0n) validUntil = Math.min(validUntil, Number(d.expiry) * 1000);
        if (!seen.has(toHex(k))) keys.push(k);
        seen.add(toHex(k));
      }
    }
    for (const d of e.delegations.values()) {
      const status = this.statusOf(e, d, nowMs);
      if (status !== 'valid' && status !== null && !seen.has(toHex(d.delegate.toBytes())))
        refused.push({ key: d.delegate.toBytes(), reason: status });
    }
    for (const f of e.former) if (!seen.has(f)) refused.push({ key: fromHex(f), reason: 'not_owner_or_delegate' });
    return { keys, refused, ...(validUntil !== Infinity && { validUntil }) };
  }

  /** A delegation's status now; null for an account that is not a delegation of this agent at all. */
  private statusOf(e: Entry, d: Delegation, nowMs: number): DelegationView['status'] | null {
    const c = delegationValid(d.account, {
      agent: e.agent,
      delegate: d.delegate,
      currentOwner: e.owner as PublicKey,
      nowSec: Math.floor(nowMs / 1000),
      addresses: this.sati,
    });
    if (c.ok) return 'valid';
    if (c.reason === 'delegation_expired' || c.reason === 'delegation_revoked') return c.reason;
    if (c.reason === 'delegator_not_owner') return 'not_owner_or_delegate';
    return null;
  }

  private view(e: Entry): ResolvedIdentity | null {
    if (!e.owner || !e.tokenAccount || !e.registration || e.reason) return null;
    const nowMs = this.now();
    const delegations: DelegationView[] = [];
    for (const d of e.delegations.values()) {
      const status = this.statusOf(e, d, nowMs);
      if (status)
        delegations.push({
          address: d.account.address,
          delegate: d.delegate,
          delegator: d.delegator,
          expiry: d.expiry,
          status,
        });
    }
    return {
      agent: e.agent,
      owner: e.owner,
      account: e.tokenAccount,
      registration: e.registration,
      delegations,
      delegates: delegations.filter((d) => d.status === 'valid').map((d) => d.delegate),
    };
  }

  private async entry(agentId: Uint8Array): Promise<Entry> {
    if (!(agentId instanceof Uint8Array) || agentId.length !== 32) throw new TypeError('agentId must be 32 bytes');
    const key = toHex(agentId);
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
    const e = await this.fetch(agent);
    const former = this.formerOwners.get(key);
    if (former) for (const f of former) if (!e.owner || f !== toHex(e.owner.toBytes())) e.former.add(f);
    if (this.closed) return e;
    while (this.cache.size >= this.maxEntries && this.cache.size > 0)
      this.drop(this.cache.keys().next().value as string);
    this.cache.set(key, e);
    if (e.owner && this.subscribe) this.follow(key, e);
    return e;
  }

  /** Reads the registration, the holder and the delegations (lib/chain/sati-signers.ts). */
  private async fetch(agent: PublicKey): Promise<Entry> {
    const e: Entry = {
      agent,
      reason: null,
      registration: null,
      owner: null,
      tokenAccount: null,
      delegations: new Map(),
      former: new Set(),
      loadedAt: this.now(),
      expires: this.now() + this.negativeTtlMs,
      subs: { holder: null, program: null },
    };
    const r = await readSatiSigners(this.connection, agent, this.sati, Math.floor(this.now() / 1000));
    if (!r.ok) {
      e.reason = r.reason;
      return e;
    }
    e.registration = r.registration;
    e.owner = r.owner;
    e.tokenAccount = r.tokenAccount;
    e.expires = this.now() + this.ttlMs;
    for (const d of r.delegations)
      e.delegations.set(d.account.address.toBase58(), {
        account: d.account,
        delegate: d.delegate,
        delegator: d.delegator,
        expiry: d.expiry,
        sub: null,
      });
    return e;
  }

  /** Adds or updates a delegation from an attestation account; false when it is not one of this agent. */
  private putDelegation(e: Entry, address: PublicKey, info: AccountInfo<Buffer>): boolean {
    const d = decodeDelegateAttestation(info.data);
    if (!d?.agent.equals(e.agent)) return false;
    const k = address.toBase58();
    const old = e.delegations.get(k);
    const account = { address, owner: info.owner, data: Uint8Array.from(info.data), lamports: info.lamports };
    e.delegations.set(k, {
      account,
      delegate: d.delegate,
      delegator: d.delegator,
      expiry: d.expiry,
      sub: old?.sub ?? null,
    });
    return true;
  }

  private follow(key: string, e: Entry): void {
    const live = () => this.cache.get(key) === e;
    const changed = () => this.onChange?.(e.agent, this.view(e));
    e.subs.holder = this.connection.onAccountChange(
      e.tokenAccount as PublicKey,
      (info) => {
        if (!live()) return;
        const t = info.lamports > 0 ? decodeTokenAccount(info.data) : null;
        const owner = e.owner as PublicKey;
        if (t?.mint.equals(e.agent) && t.amount === 1n) {
          if (t.owner.equals(owner)) return;
          // Ownership moved with the account (SetAuthority): the old owner and its delegations lose the right at once.
          e.former.add(toHex(owner.toBytes()));
          e.former.delete(toHex(t.owner.toBytes()));
          e.owner = t.owner;
          changed();
          return;
        }
        // The NFT left this account (a transfer) or it closed: resolve afresh, remembering who held it.
        this.forget(key, e);
      },
      { commitment: 'confirmed', encoding: 'base64' },
    );
    for (const [k, d] of e.delegations) d.sub = this.followDelegation(key, e, k);
    e.subs.program = this.connection.onProgramAccountChange(
      this.sati.sas,
      (keyed) => {
        if (!live()) return;
        const k = keyed.accountId.toBase58();
        const known = e.delegations.has(k);
        if (!this.putDelegation(e, keyed.accountId, keyed.accountInfo)) return;
        if (!known) (e.delegations.get(k) as Delegation).sub = this.followDelegation(key, e, k);
        changed();
      },
      { commitment: 'confirmed', encoding: 'base64', filters: delegationFilters(e.agent, this.sati) },
    );
    const ids = [e.subs.holder, e.subs.program, ...[...e.delegations.values()].map((d) => d.sub)];
    void whenSubscribed(
      this.connection,
      ids.filter((id): id is number => id !== null),
    ).then(() => this.recheck(key, e));
  }

  /**
   * Reads the agent again once its subscriptions are live and applies what changed since the
   * first read: an owner that moved, a delegation added, changed or closed. An RPC failure leaves
   * the entry as it is (the TTL bounds it).
   */
  private async recheck(key: string, e: Entry): Promise<void> {
    const live = () => !this.closed && this.cache.get(key) === e;
    if (!live() || !e.owner || !e.tokenAccount) return;
    let r: Awaited<ReturnType<typeof readSatiSigners>>;
    let gone: (AccountInfo<Buffer> | null)[] = [];
    try {
      r = await readSatiSigners(this.connection, e.agent, this.sati, Math.floor(this.now() / 1000));
      if (r.ok) {
        const found = new Set(r.delegations.map((d) => d.account.address.toBase58()));
        const missing = [...e.delegations.keys()].filter((k) => !found.has(k));
        if (missing.length > 0)
          gone = await this.connection.getMultipleAccountsInfo(
            missing.map((k) => new PublicKey(k)),
            'confirmed',
          );
      }
    } catch {
      return;
    }
    if (!live()) return;
    if (!r.ok || !r.tokenAccount.equals(e.tokenAccount)) {
      this.forget(key, e);
      return;
    }
    let changed = false;
    if (!r.owner.equals(e.owner)) {
      e.former.add(toHex(e.owner.toBytes()));
      e.former.delete(toHex(r.owner.toBytes()));
      e.owner = r.owner;
      changed = true;
    }
    const found = new Set<string>();
    for (const d of r.delegations) {
      const k = d.account.address.toBase58();
      found.add(k);
      const old = e.delegations.get(k);
      if (old && sameAccount(old.account, d.account)) continue;
      e.delegations.set(k, {
        account: d.account,
        delegate: d.delegate,
        delegator: d.delegator,
        expiry: d.expiry,
        sub: old?.sub ?? null,
      });
      if (!old) (e.delegations.get(k) as Delegation).sub = this.followDelegation(key, e, k);
      changed = true;
    }
    const missing = [...e.delegations.keys()].filter((k) => !found.has(k));
    missing.forEach((k, i) => {
      const before = (e.delegations.get(k) as Delegation).account;
      this.applyDelegation(e, k, gone[i] ?? null);
      if (!sameAccount(before, (e.delegations.get(k) as Delegation).account)) changed = true;
    });
    if (changed) this.onChange?.(e.agent, this.view(e));
  }

  /** Drops an entry whose NFT left its account, remembering who held it for the next resolution. */
  private forget(key: string, e: Entry): void {
    const set = this.formerOwners.get(key) ?? new Set<string>();
    if (e.owner) set.add(toHex(e.owner.toBytes()));
    for (const f of e.former) set.add(f);
    while (set.size > MAX_FORMER) set.delete(set.values().next().value as string);
    this.formerOwners.delete(key);
    this.formerOwners.set(key, set);
    while (this.formerOwners.size > this.maxEntries)
      this.formerOwners.delete(this.formerOwners.keys().next().value as string);
    this.drop(key);
    this.onChange?.(e.agent, null);
  }

  /** Follows one attestation account: a closed one is a revoked delegation. */
  private followDelegation(key: string, e: Entry, address: string): number {
    return this.connection.onAccountChange(
      new PublicKey(address),
      (info) => {
        if (this.cache.get(key) !== e || !e.delegations.has(address)) return;
        this.applyDelegation(e, address, info);
        this.onChange?.(e.agent, this.view(e));
      },
      { commitment: 'confirmed', encoding: 'base64' },
    );
  }

  /** What an attestation account now holds; closed (or absent) is a revoked delegation. */
  private applyDelegation(e: Entry, address: string, info: AccountInfo<Buffer> | null): void {
    const d = e.delegations.get(address);
    if (!d) return;
    if (!info || info.lamports === 0 || info.data.length === 0)
      d.account = { ...d.account, lamports: 0, data: new Uint8Array(0) };
    else if (!this.putDelegation(e, new PublicKey(address), info))
      d.account = { ...d.account, owner: info.owner, data: Uint8Array.from(info.data), lamports: info.lamports };
  }

  private drop(key: string): void {
    const e = this.cache.get(key);
    if (!e) return;
    this.cache.delete(key);
    const off = (id: number | null, program = false) => {
      if (id === null) return;
      const p = (
        program
          ? this.connection.removeProgramAccountChangeListener(id)
          : this.connection.removeAccountChangeListener(id)
      ).catch(() => undefined);
      this.removals.add(p);
      void p.finally(() => this.removals.delete(p));
    };
    off(e.subs.holder);
    off(e.subs.program, true);
    for (const d of e.delegations.values()) off(d.sub);
  }
}
