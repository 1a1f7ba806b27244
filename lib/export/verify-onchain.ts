/**
 * A release's on-chain columns held against the chain (verify-dataset --rpc; docs/datasets.md
 * "Verifying a release"):
 *
 * - each challenges row against its Challenge account: agent, epoch, challenger and status; a
 *   row still `pending` whose account was resolved after the slot the release listed the chain at
 *   (`chainSlot`) is a later revision's, not a forgery; offline, its status and slots against its
 *   own `transitions`;
 * - each challenges row's latest transition at or before `chainSlot`: a release cannot hold
 *   what happened after the slot it states the chain at;
 * - each negotiations row on chain against its Haggle account's history re-read from the chain
 *   (every transaction of the address, lib/indexer/haggle-history.ts) up to the release's
 *   `chainSlot` and folded as the indexer folds it (lib/store/chain/haggle-fold.ts): the row must be
 *   exactly what the exporter writes for the conversation's envelopes and that state, every
 *   column compared (block times to the microsecond: the release carries the chain's own), the
 *   analytics that read the account included. What moved after `chainSlot` is a later
 *   revision's (release-late.ts), not a failure; a release with no `chainSlot` (written without
 *   the chain) is held against the whole history.
 */

import { toHex } from '../protocol/hex';
import type { HaggleNegotiationRow } from '../store';
import { foldHaggleEvents } from '../store/chain';
import type { EpochAccounts, ReleaseChain, SignerEvidence } from './chain-evidence';
import { negotiationRecord } from './negotiation';
import { onChainColumns } from './negotiation-onchain';
import { cellText } from './rederive';
import { eventsAt } from './release-asof';
import { type EnvelopeRecord, transitionsOf } from './rows';
import { TABLES } from './tables';
import type { CheckResult } from './verify-chain';

type FileRow = Record<string, unknown>;

const idText = (v: unknown) => (typeof v === 'string' ? v : v instanceof Uint8Array ? toHex(v) : String(v));

/** Offline: a challenge row's status and slots agree with its own transitions. */
export function challengeRowChecks(tag: string, rows: readonly FileRow[]): CheckResult[] {
  const out: CheckResult[] = [];
  rows.forEach((r, i) => {
    const name = `${tag} challenges row ${i} (${String(r.address)})`;
    const t = transitionsOf(r.transitions);
    if (!t) {
      out.push({ name: `${name} column transitions`, ok: false, detail: 'not a list of {status, slot, signature}' });
      return;
    }
    const last = t[t.length - 1];
    if (!last) {
      out.push({ name: `${name} column transitions`, ok: false, detail: 'no transition' });
      return;
    }
    const bad: string[] = [];
    if (last.status !== r.status) bad.push(`status ${String(r.status)}, the latest transition says ${last.status}`);
    if (String(last.slot) !== String(r.slot)) bad.push(`slot ${String(r.slot)}, the latest transition's ${last.slot}`);
    if (String(t[0].slot) !== String(r.opened_slot))
      bad.push(`opened_slot ${String(r.opened_slot)}, the first transition's ${t[0].slot}`);
    out.push(
      bad.length
        ? { name: `${name} column status`, ok: false, detail: bad.join('; ') }
        : { name: `${name}: agrees with its transitions`, ok: true },
    );
  });
  return out;
}

/** With the chain: each challenges row against its Challenge account. */
export function challengeChainChecks(
  tag: string,
  rows: readonly FileRow[],
  accounts: EpochAccounts['challenges'],
  chainSlot: bigint | null,
): CheckResult[] {
  const byAddress = new Map(accounts.map((a) => [a.address, a]));
  return rows.map((r, i) => {
    const name = `${tag} challenges row ${i} (${String(r.address)}) column status on chain`;
    const a = byAddress.get(String(r.address));
    if (!a) return { name, ok: false, detail: 'no Challenge account of this epoch at that address on chain' };
    const bad: string[] = [];
    if (chainSlot !== null && r.slot !== null && r.slot !== undefined && BigInt(String(r.slot)) > chainSlot)
      bad.push(`latest transition at slot ${String(r.slot)}, after the release's chainSlot ${chainSlot}`);
    if (a.agent !== idText(r.agent_id)) bad.push(`agent ${idText(r.agent_id)}, on chain ${a.agent}`);
    if (a.challenger && a.challenger !== idText(r.challenger))
      bad.push(`challenger ${idText(r.challenger)}, on chain ${a.challenger}`);
    if (a.status !== undefined && a.status !== r.status) {
      const later =
        r.status === 'pending' &&
        chainSlot !== null &&
        a.resolvedSlot !== undefined &&
        BigInt(a.resolvedSlot) > chainSlot;
      if (!later)
        bad.push(
          `status ${String(r.status)}, on chain ${a.status}` +
            (a.resolvedSlot && a.resolvedSlot !== '0' ? ` since slot ${a.resolvedSlot}` : ''),
        );
    }
    return bad.length ? { name, ok: false, detail: bad.join('; ') } : { name, ok: true };
  });
}

/**
 * A row stated off chain: no Haggle negotiation of the conversation at the accounts its parties'
 * SATI owners would open (the demo agents mirror deals with their owner wallets). A negotiation
 * opened with other wallets is not found this way (docs/datasets.md "Limits").
 */
async function offChainCheck(
  tag: string,
  i: number,
  r: FileRow,
  chain: ReleaseChain,
  signers: ReadonlyMap<string, SignerEvidence>,
  chainSlot: bigint | null,
): Promise<CheckResult[]> {
  if (!chain.negotiationAddresses || !chain.haggleEvents || !r.responder) return [];
  const owner = (agent: unknown) => {
    const e = signers.get(idText(agent));
    return e && 'owner' in e ? e.owner : null;
  };
  const a = owner(r.proposer);
  const b = owner(r.responder);
  if (!a || !b) return [];
  const conv = idText(r.conversation_id);
  const name = `${tag} negotiations row ${i} (${conv}) column onchain on chain`;
  for (const address of chain.negotiationAddresses(a, b, conv)) {
    const events = await chain.haggleEvents(address);
    if ('error' in events) return [{ name, ok: false, detail: events.error }];
    if (eventsAt(events, chainSlot).some((e) => toHex(e.conversationId) === conv))
      return [
        { name, ok: false, detail: `stated off chain, but the parties' owners negotiated it on chain at ${address}` },
      ];
  }
  return [{ name, ok: true }];
}

/** The file row's cells that differ from `exp`. */
function differing(
  file: FileRow,
  exp: Record<string, unknown>,
): { column: string; file: string | null; expected: string | null }[] {
  const out: { column: string; file: string | null; expected: string | null }[] = [];
  for (const c of TABLES.negotiations.columns) {
    const a = cellText(c.type, file[c.name], c);
    const b = cellText(c.type, exp[c.name], c);
    if (a !== b) out.push({ column: c.name, file: a, expected: b });
  }
  return out;
}

/**
 * With the chain: each negotiations row against its account's history up to `chainSlot` (null:
 * all of it). `convs` are the epoch's negotiation conversations (rederive.ts negotiationConversations).
 */
export async function haggleChainChecks(
  tag: string,
  rows: readonly FileRow[],
  convs: readonly EnvelopeRecord[][],
  asOfUs: bigint,
  chain: ReleaseChain,
  signers: ReadonlyMap<string, SignerEvidence>,
  chainSlot: bigint | null,
): Promise<CheckResult[]> {
  if (!chain.haggleEvents) return [];
  const out: CheckResult[] = [];
  const byConv = new Map(convs.map((c) => [toHex(c[0].conversationId), c]));
  for (const [i, r] of rows.entries()) {
    if (r.onchain !== true) {
      out.push(...(await offChainCheck(tag, i, r, chain, signers, chainSlot)));
      continue;
    }
    const conv = idText(r.conversation_id);
    const name = `${tag} negotiations row ${i} (${conv})`;
    const envs = byConv.get(conv);
    const address = r.onchain_address === null || r.onchain_address === undefined ? null : String(r.onchain_address);
    if (!envs || !address) continue; // the row fails the offline re-derivation already
    const events = await chain.haggleEvents(address);
    if ('error' in events) {
      out.push({ name: `${name} column onchain_address on chain`, ok: false, detail: events.error });
      continue;
    }
    const at = chainSlot === null ? '' : ` up to slot ${chainSlot}`;
    const negs: HaggleNegotiationRow[] = foldHaggleEvents(eventsAt(events, chainSlot)).filter(
      (n) => toHex(n.conversationId) === conv,
    );
    const rec = negs.length ? negotiationRecord(envs, asOfUs, negs) : null;
    const d = rec ? differing(r, { ...rec.row, ...onChainColumns(negs, rec.gossip) }) : null;
    if (d === null)
      out.push({
        name: `${name} column onchain_address on chain`,
        ok: false,
        detail: `no Haggle negotiation of this conversation in the history of ${address}${at}`,
      });
    else if (d.length === 0) out.push({ name: `${name}: on-chain columns re-derived from the chain${at}`, ok: true });
    else
      for (const x of d.slice(0, 10))
        out.push({
          name: `${name} column ${x.column} on chain`,
          ok: false,
          detail:
            `file ${x.file ?? 'null'}, derived from the chain's ` +
            `history of ${address}${at} ${x.expected ?? 'null'}`,
        });
  }
  return out;
}
