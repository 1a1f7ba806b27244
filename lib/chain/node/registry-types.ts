/** The answers and options of lib/chain/node/registry.ts's ChainSignerRegistry. */
import type { Connection, PublicKey } from '@solana/web3.js';
import type { SatiRegistered } from '../sati';
import type { SatiRuleAddresses } from '../sati-signers';

/** Why an agent id has no signer. */
export type UnregisteredReason = 'unregistered' | 'not_nft' | 'not_sati_member';

/** Why a key that signed for an agent may not now. */
export type RefusedReason = 'delegation_expired' | 'delegation_revoked' | 'not_owner_or_delegate';

/** One DelegateV1 attestation naming the agent, and what it says now. */
export interface DelegationView {
  /** The attestation account. */
  address: PublicKey;
  delegate: PublicKey;
  delegator: PublicKey;
  /** Unix seconds, 0 = never. */
  expiry: bigint;
  status: 'valid' | RefusedReason;
}

/** A registered agent as the rule sees it now. */
export interface ResolvedIdentity {
  agent: PublicKey;
  owner: PublicKey;
  /** Delegates allowed now (valid DelegateV1 attestations by the current owner). */
  delegates: PublicKey[];
  /** The token account holding the NFT (followed). */
  account: PublicKey;
  /** SATI's registration: member number, name, symbol, uri, … from the mint. */
  registration: SatiRegistered;
  delegations: DelegationView[];
}

/** The full answer for one agent (lib/observer's SignerSource.signersFor). */
export interface SignerAnswer {
  keys: readonly Uint8Array[];
  reason?: UnregisteredReason;
  refused?: ReadonlyArray<{ key: Uint8Array; reason: RefusedReason }>;
  /** Unix ms after which the answer changes by the clock alone (the next delegation expiry). */
  validUntil?: number;
}

/** Options of {@link ChainSignerRegistry}. */
export interface ChainSignerRegistryParams {
  connection: Connection;
  /** SATI's addresses on this cluster (lib/chain/cluster.ts); default mainnet's. */
  sati?: SatiRuleAddresses;
  /** Positive entries are re-read after this (default 60,000 ms). */
  ttlMs?: number;
  /** Unknown agents are remembered this long (default 2,000 ms). */
  negativeTtlMs?: number;
  /** Follow entries with subscriptions (default true). */
  subscribe?: boolean;
  /** Most cached agents (default 10,000; oldest evicted). */
  maxEntries?: number;
  /** Unix ms; delegation expiry is compared with it. */
  now?: () => number;
  /** Called when what a followed agent's answer says changes (owner, delegation), or it is dropped. */
  onChange?: (agent: PublicKey, identity: ResolvedIdentity | null) => void;
}
