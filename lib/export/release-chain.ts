/**
 * The chain's part of a release as it is written (docs/datasets.md "Chain evidence"): each
 * sender's signer evidence, and the epoch's on-chain accounts the release does not hold, named as
 * known-missing with why, so an honest release verifies against the chain and a dropped one does not.
 */

import { toHex } from '../protocol/hex';
import type { SignerRegistry } from '../protocol/types';
import type { EpochAccounts, KnownMissing, ReleaseChain, SignerEvidence } from './chain-evidence';

/** Signer evidence of every sender (hex ids, sorted): from the chain when given, else the observer's own key table. */
export async function signerEvidenceOf(
  senders: Iterable<string>,
  registry: SignerRegistry,
  chain?: ReleaseChain,
): Promise<Record<string, SignerEvidence>> {
  const out: Record<string, SignerEvidence> = {};
  for (const s of [...senders].sort()) {
    const id = Uint8Array.from(Buffer.from(s, 'hex'));
    out[s] = chain ? await chain.signers(id) : { source: 'observer', keys: (await registry.keysFor(id)).map(toHex) };
  }
  return out;
}

/** What a release (or its files) holds of the epoch's on-chain accounts. */
export interface HeldAccounts {
  /** Agents (hex) with a batch in the release. */
  batchAgents: Set<string>;
  /** Challenge accounts (base58) in the challenges table. */
  challenges: Set<string>;
  /** Conversation ids (hex) and Haggle accounts (base58) of the negotiations table. */
  conversations: Set<string>;
  negotiationAccounts: Set<string>;
}

export const emptyHeld = (): HeldAccounts => ({
  batchAgents: new Set(),
  challenges: new Set(),
  conversations: new Set(),
  negotiationAccounts: new Set(),
});

/**
 * The on-chain accounts of the epoch the release does not hold, each with its kind (and its submitted slot when the
 * account has one).
 */
export function notHeld(
  accounts: EpochAccounts,
  held: HeldAccounts,
): { kind: KnownMissing['kind']; address: string; submittedSlot?: string }[] {
  return [
    ...accounts.batches
      .filter((b) => !held.batchAgents.has(b.agent))
      .map((b) => ({ kind: 'batch' as const, address: b.address, submittedSlot: b.submittedSlot })),
    ...accounts.challenges
      .filter((c) => !held.challenges.has(c.address))
      .map((c) => ({ kind: 'challenge' as const, address: c.address, submittedSlot: c.submittedSlot })),
    ...accounts.negotiations
      .filter((n) => !held.negotiationAccounts.has(n.address) && !held.conversations.has(n.conversationId))
      .map((n) => ({ kind: 'negotiation' as const, address: n.address })),
  ].sort((a, b) => (a.kind + a.address < b.kind + b.address ? -1 : 1));
}

const REASONS: Record<KnownMissing['kind'], string> = {
  batch: 'on chain when the release was written, not yet indexed by the observer',
  challenge: 'on chain when the release was written, not yet indexed by the observer',
  negotiation:
    'open on chain, created in the epoch, with no negotiation of this epoch ' +
    'naming it (its PROPOSE is dated in another epoch, or was never gossiped)',
};

/**
 * The known-missing list of a release (every account of the epoch on chain that it does not
 * hold) and the slot the chain was read at: an account submitted after it is not the release's omission.
 */
export async function knownMissingOf(
  chain: ReleaseChain,
  epoch: number,
  fromUs: bigint,
  toUs: bigint,
  held: HeldAccounts,
): Promise<{ chainSlot: string; knownMissing: KnownMissing[] }> {
  const accounts = await chain.epochAccounts(epoch, fromUs, toUs);
  return {
    chainSlot: accounts.slot,
    knownMissing: notHeld(accounts, held).map((x) => ({ kind: x.kind, address: x.address, reason: REASONS[x.kind] })),
  };
}
