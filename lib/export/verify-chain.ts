/**
 * A release held against the chain (verify-dataset --rpc; docs/datasets.md "Chain evidence"):
 *
 * - who may sign for each sender is read from the chain (SATI owner, DelegateV1 attestations with
 *   their windows), and the manifest's stated evidence must agree with it: a key the chain never
 *   allowed fails here and at every envelope it signed;
 * - every BehaviorLog batch, challenge and open Haggle negotiation of the epoch on chain must be
 *   in the release or named in the manifest's `knownMissing` (counted as not checkable, with the
 *   manifest's reason), or submitted after the slot the release listed the chain at (`chainSlot`:
 *   a challenge opened later is a later revision's; counted as not checkable): a release that
 *   drops a conversation with the batches that logged it fails.
 */

import { decodeEnvelope } from '../protocol/envelope';
import { toHex } from '../protocol/hex';
import { type EpochAccounts, evidenceDifferences, type ReleaseChain, type SignerEvidence } from './chain-evidence';
import { emptyHeld, notHeld } from './release-chain';
import type { ReleaseManifest } from './release-manifest';

/** One check; `notCheckable` (with ok true) when the files and chain cannot settle it: counted apart. */
export interface CheckResult {
  name: string;
  ok: boolean;
  detail?: string;
  notCheckable?: boolean;
}

type Files = Partial<Record<string, Record<string, unknown>[]>>;

const NOT_HELD = 'not in the release and not named known-missing';
/** An id cell as hex text: ids are hex text in the files (schema 'hex'), bytes in older releases. */
export const idText = (v: unknown) => (typeof v === 'string' ? v : v instanceof Uint8Array ? toHex(v) : String(v));

/**
 * The chain checks of one release; fills `signers` with the chain's evidence for every sender
 * (the manifest's and every envelope's), which the envelope checks then use.
 */
export async function chainChecks(
  tag: string,
  m: ReleaseManifest,
  files: Files,
  chain: ReleaseChain,
  signers: Map<string, SignerEvidence>,
  read: { accounts?: EpochAccounts } = {},
): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  const senders = new Set(Object.keys(m.signers));
  for (const part of ['envelopes', 'context']) {
    for (const r of files[part] ?? []) {
      const d = r.raw instanceof Uint8Array ? decodeEnvelope(r.raw) : null;
      if (d?.ok) senders.add(toHex(d.envelope.sender));
    }
  }
  for (const s of [...senders].sort()) {
    const ev = await chain.signers(Uint8Array.from(Buffer.from(s, 'hex')));
    signers.set(s, ev);
    const diff = evidenceDifferences(m.signers[s], ev);
    out.push({
      name: `${tag} signers of ${s.slice(0, 16)}: against the chain`,
      ok: diff.length === 0,
      detail: diff.length ? diff.join('; ') : undefined,
    });
  }

  const held = emptyHeld();
  for (const b of m.batches) held.batchAgents.add(b.agent);
  for (const r of files.challenges ?? []) held.challenges.add(String(r.address));
  for (const r of files.negotiations ?? []) {
    held.conversations.add(idText(r.conversation_id));
    if (r.onchain_address) held.negotiationAccounts.add(String(r.onchain_address));
  }
  const epochUs = BigInt(m.epochSeconds) * 1_000_000n;
  const fromUs = BigInt(m.epoch) * epochUs;
  const accounts = await chain.epochAccounts(m.epoch, fromUs, fromUs + epochUs);
  read.accounts = accounts;
  const declared = new Map((m.knownMissing ?? []).map((k) => [`${k.kind} ${k.address}`, k.reason]));
  const missing = notHeld(accounts, held);
  // The slot the release listed the chain at cannot be older than a batch it holds.
  const chainSlot = m.chainSlot ? BigInt(m.chainSlot) : null;
  const newer = chainSlot === null ? [] : m.batches.filter((b) => BigInt(b.slot) > chainSlot);
  if (newer.length)
    out.push({
      name: `${tag} manifest: chainSlot`,
      ok: false,
      detail:
        `chainSlot ${chainSlot} is older than the batch of ` +
        `${newer[0].agent.slice(0, 16)} the release holds (slot ${newer[0].slot})`,
    });
  for (const x of missing) {
    const name = `${tag} ${x.kind} ${x.address}: on chain`;
    const reason = declared.get(`${x.kind} ${x.address}`);
    if (reason !== undefined)
      out.push({
        name,
        ok: true,
        notCheckable: true,
        detail: `not checkable: not in the release, named known-missing (${reason})`,
      });
    else if (chainSlot !== null && x.submittedSlot !== undefined && BigInt(x.submittedSlot) > chainSlot) {
      out.push({
        name,
        ok: true,
        notCheckable: true,
        detail:
          `not checkable: submitted at slot ${x.submittedSlot}, after the ` +
          `release listed the chain (slot ${chainSlot}); a later revision holds it`,
      });
    } else
      out.push({
        name,
        ok: false,
        detail: `the ${x.kind} account is on chain for epoch ${m.epoch}, ${NOT_HELD}`,
      });
  }
  const n = accounts.batches.length + accounts.challenges.length + accounts.negotiations.length;
  if (missing.length === 0)
    out.push({
      name: `${tag}: every account of the epoch on chain is in the release`,
      ok: true,
      detail: `${n} account(s)`,
    });
  return out;
}
