/**
 * What a release says about the chain, and the rules the verifier applies to it
 * (docs/datasets.md "Chain evidence"): who the chain allowed to sign for each sender, with the
 * accounts that say so, and the epoch's on-chain accounts the release holds or names as missing.
 *
 * lib/export reads no chain itself (docs/architecture.md): `ReleaseChain` is implemented over
 * JSON-RPC by lib/chain/release-evidence.ts and handed in by the composition roots (the server's
 * release scheduler, scripts/verify-dataset.ts), so a release is written and checked with the same
 * reads.
 */

import type { HaggleEventInput } from '../store/chain';

/** One DelegateV1 attestation naming the agent, as read on chain. */
export interface DelegationEvidence {
  /** The attestation account (base58). */
  address: string;
  /** Delegate and delegator keys, hex (the delegator must be the owner). */
  delegate: string;
  delegator: string;
  /** Unix seconds, decimal; "0" never expires. The delegate may sign while time < expiry. */
  expiry: string;
  /** The account's data, hex: a reader can decode it (SAS attestation, SATI's DelegateV1 layout). */
  data: string;
  /**
   * True when SATI's rule accepts the attestation apart from its expiry (right program, address,
   * credential, schema, agent, and delegated by the current owner).
   */
  usable: boolean;
  /** SATI's reason when not usable. */
  reason?: string;
}

/**
 * Who may sign for one sender. `chain`: read from SATI at `slot` (owner: the holder of the agent's
 * NFT; every DelegateV1 attestation, expired ones included, since an envelope signed within a
 * delegation's window stays valid after it ends). `observer`: no chain was consulted, the keys are
 * the observer's own signer table (a store without chain identities).
 */
export type SignerEvidence =
  | { source: 'chain'; slot: string; owner: string; tokenAccount: string; delegations: DelegationEvidence[] }
  | { source: 'chain'; slot: string; unregistered: string }
  | { source: 'observer'; keys: string[] };

/** An on-chain account of the epoch the release does not hold, named with why. */
export interface KnownMissing {
  kind: 'batch' | 'challenge' | 'negotiation';
  /** The account (base58). */
  address: string;
  reason: string;
}

/**
 * The epoch's accounts on chain: BehaviorLog batches, challenges of its batches, open Haggle
 * negotiations created in it; `slot` the slot they were read at, `submittedSlot` each one's own.
 */
export interface EpochAccounts {
  slot: string;
  batches: { address: string; agent: string; submittedSlot: string }[];
  /**
   * `status` (pending, upheld, rejected, void, expired) and `resolvedSlot` ("0" while pending) as the account holds
   * them now.
   */
  challenges: {
    address: string;
    agent: string;
    submittedSlot: string;
    challenger?: string;
    status?: string;
    resolvedSlot?: string;
  }[];
  /** Only accounts still open: a settled or refunded negotiation closes its account. */
  negotiations: { address: string; conversationId: string }[];
}

/** The chain reads a release is written and checked with. RPC failures throw or come back as `error`. */
export interface ReleaseChain {
  /** Who the chain allows to sign for `agent` (id bytes), with the accounts that say so. */
  signers(agent: Uint8Array): Promise<SignerEvidence>;
  /**
   * The chain's current (confirmed) slot, decimal: a release states the chain as of the slot read
   * once its store reads are done (`chainSlot`). Absent: the slot its accounts were listed at.
   */
  slot?(): Promise<string>;
  /** The epoch's accounts on chain (getProgramAccounts filtered on the epoch field). */
  epochAccounts(epoch: number, fromUs: bigint, toUs: bigint): Promise<EpochAccounts>;
  /**
   * The BatchAccount root of (agent, epoch), hex, and the log summary counts it records
   * (messageCount, bidCount, taskCount, verifierCount, feedbackCount, overflow; decimal).
   */
  batchRoot(
    agent: Uint8Array,
    epoch: bigint,
  ): Promise<{ root: string; address?: string; counts?: Record<string, string> } | { error: string }>;
  /**
   * Every Haggle event of a negotiation account, in chain order (lib/indexer/haggle-history.ts):
   * the on-chain columns of a release are re-derived from them. Absent: those columns are not checked.
   */
  haggleEvents?(address: string): Promise<HaggleEventInput[] | { error: string }>;
  /** The Haggle accounts two wallets (hex) would open for a conversation (hex), either one the buyer. */
  negotiationAddresses?(a: string, b: string, conversationId: string): string[];
  /** The release anchors signed by a release-signing key (lib/chain/release-anchor.ts), oldest first. */
  anchors?(publicKeyHex: string): Promise<ReleaseAnchorRead[] | { error: string }>;
}

/**
 * One release anchor read from the chain: an epoch's revision id and `asOf`, in the transaction `signature` at `slot`.
 */
export interface ReleaseAnchorRead {
  epoch: number;
  revision: number;
  id: string;
  asOfUs: string;
  signature: string;
  slot: string;
  blockTime: number | null;
}

/**
 * The keys allowed to sign for a sender at `timestampUs` (the envelope's own time): the owner,
 * and each usable delegation by that owner whose window holds the time. Observer evidence (and a
 * manifest before version 4, a plain key list) has no windows.
 */
export function keysAt(ev: SignerEvidence | readonly string[] | undefined, timestampUs: bigint): string[] {
  if (!ev) return [];
  if (Array.isArray(ev)) return [...ev];
  const e = ev as SignerEvidence;
  if (e.source === 'observer') return [...e.keys];
  if (!('owner' in e)) return [];
  const sec = timestampUs < 0n ? -1n : timestampUs / 1_000_000n;
  const out = [e.owner];
  for (const d of e.delegations) {
    if (!d.usable || d.delegator !== e.owner) continue;
    const expiry = BigInt(d.expiry);
    if (expiry === 0n || sec < expiry) out.push(d.delegate);
  }
  return out;
}

/**
 * Where a release's signer evidence and the chain's disagree, one sentence each (empty: agreed).
 * A delegation created after the release is no disagreement; one the release names that the
 * chain does not have, or has with other bytes, is.
 */
export function evidenceDifferences(
  stated: SignerEvidence | readonly string[] | undefined,
  chain: SignerEvidence,
): string[] {
  if (!stated) return ['the manifest names no signer for this sender'];
  if (!('owner' in chain))
    return [
      `the chain registers no signer for this agent (` +
        `${'unregistered' in chain ? chain.unregistered : 'no chain evidence'})`,
    ];
  const allowed = new Set([
    chain.owner,
    ...chain.delegations.filter((d) => d.usable && d.delegator === chain.owner).map((d) => d.delegate),
  ]);
  if (Array.isArray(stated) || (stated as SignerEvidence).source === 'observer') {
    const keys = Array.isArray(stated) ? stated : (stated as { keys: string[] }).keys;
    return keys
      .filter((k) => !allowed.has(k))
      .map((k) => `key ${k} is neither the owner nor a delegate of this agent on chain`);
  }
  const s = stated as SignerEvidence;
  if (!('owner' in s)) return [];
  const out: string[] = [];
  if (s.owner !== chain.owner) out.push(`owner ${s.owner} in the manifest, ${chain.owner} on chain`);
  const onChain = new Map(chain.delegations.map((d) => [d.address, d]));
  for (const d of s.delegations) {
    const c = onChain.get(d.address);
    if (!c) out.push(`no DelegateV1 attestation at ${d.address} on chain (delegate ${d.delegate})`);
    else if (c.data !== d.data)
      out.push(`the attestation at ${d.address} holds other bytes on chain than the manifest states`);
  }
  return out;
}
