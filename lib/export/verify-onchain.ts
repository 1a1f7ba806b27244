/**
 * A release's on-chain columns held against the chain (verify-dataset --rpc; docs/datasets.md
 * "Verifying a release"):
 *
 * - each challenges row against its Challenge account: agent, epoch, challenger and status; a
 *   row still `pending` whose account was resolved after the slot the release listed the chain at
 *   (`chainSlot`) is a later revision's, not a forgery; offline, its status and slots against its
 *   own `transitions`;
 * - each negotiations row on chain against its Haggle account's whole history re-read from the
 *   chain (every transaction of the address, lib/indexer/haggle-history.ts) and folded as the
 *   indexer folds it (lib/store/haggle-fold.ts): the row must be what the exporter writes for the
 *   conversation's envelopes and some prefix of that history (the indexer may not have seen the
 *   newest transactions when the release was written), every column compared, the analytics
 *   that read the account included. Block times are allowed to be up to 5 minutes late: an
 *   indexer that learns a transaction from a live log subscription records its arrival time.
 */
import { foldHaggleEvents } from '../store/haggle-fold';
import type { HaggleNegotiationRow } from '../store/types';
import { negotiationRecord } from './negotiation';
import { onChainColumns } from './negotiation-onchain';
import { cellText } from './rederive';
import { transitionsOf, type EnvelopeRecord } from './rows';
import { hex } from './schema';
import { TABLES } from './tables';
import type { EpochAccounts, ReleaseChain, SignerEvidence } from './chain-evidence';
import type { CheckResult } from './verify-chain';

type FileRow = Record<string, unknown>;

const idText = (v: unknown) => (typeof v === 'string' ? v : v instanceof Uint8Array ? hex(v) : String(v));
const TIME_COLUMNS = new Set(['onchain_created_at', 'onchain_last_at', 'onchain_closed_at']);
const LATE_US = 300_000_000n;

/** Offline: a challenge row's status and slots agree with its own transitions. */
export function challengeRowChecks(tag: string, rows: readonly FileRow[]): CheckResult[] {
  const out: CheckResult[] = [];
  rows.forEach((r, i) => {
    const name = `${tag} challenges row ${i} (${String(r.address)})`;
    const t = transitionsOf(r.transitions);
    if (!t) { out.push({ name: `${name} column transitions`, ok: false, detail: 'not a list of {status, slot, signature}' }); return; }
    const last = t[t.length - 1];
    if (!last) { out.push({ name: `${name} column transitions`, ok: false, detail: 'no transition' }); return; }
    const bad: string[] = [];
    if (last.status !== r.status) bad.push(`status ${String(r.status)}, the latest transition says ${last.status}`);
    if (String(last.slot) !== String(r.slot)) bad.push(`slot ${String(r.slot)}, the latest transition's ${last.slot}`);
    if (String(t[0].slot) !== String(r.opened_slot)) bad.push(`opened_slot ${String(r.opened_slot)}, the first transition's ${t[0].slot}`);
    out.push(bad.length ? { name: `${name} column status`, ok: false, detail: bad.join('; ') } : { name: `${name}: agrees with its transitions`, ok: true });
  });
  return out;
}

/** With the chain: each challenges row against its Challenge account. */
export function challengeChainChecks(tag: string, rows: readonly FileRow[], accounts: EpochAccounts['challenges'], chainSlot: bigint | null): CheckResult[] {
  const byAddress = new Map(accounts.map((a) => [a.address, a]));
  return rows.map((r, i) => {
    const name = `${tag} challenges row ${i} (${String(r.address)}) column status on chain`;
    const a = byAddress.get(String(r.address));
    if (!a) return { name, ok: false, detail: 'no Challenge account of this epoch at that address on chain' };
    const bad: string[] = [];
    if (a.agent !== idText(r.agent_id)) bad.push(`agent ${idText(r.agent_id)}, on chain ${a.agent}`);
    if (a.challenger && a.challenger !== idText(r.challenger)) bad.push(`challenger ${idText(r.challenger)}, on chain ${a.challenger}`);
    if (a.status !== undefined && a.status !== r.status) {
      const later = r.status === 'pending' && chainSlot !== null && a.resolvedSlot !== undefined && BigInt(a.resolvedSlot) > chainSlot;
      if (!later) bad.push(`status ${String(r.status)}, on chain ${a.status}${a.resolvedSlot && a.resolvedSlot !== '0' ? ` since slot ${a.resolvedSlot}` : ''}`);
    }
    return bad.length ? { name, ok: false, detail: bad.join('; ') } : { name, ok: true };
  });
}

/**
 * A row stated off chain: no Haggle negotiation of the conversation at the accounts its parties'
 * SATI owners would open (the demo agents mirror deals with their owner wallets). A negotiation
 * opened with other wallets is not found this way (docs/datasets.md "Limits").
 */
async function offChainCheck(tag: string, i: number, r: FileRow, chain: ReleaseChain, signers: ReadonlyMap<string, SignerEvidence>): Promise<CheckResult[]> {
  if (!chain.negotiationAddresses || !chain.haggleEvents || !r.responder) return [];
  const owner = (agent: unknown) => { const e = signers.get(idText(agent)); return e && 'owner' in e ? e.owner : null; };
  const a = owner(r.proposer);
  const b = owner(r.responder);
  if (!a || !b) return [];
  const conv = idText(r.conversation_id);
  const name = `${tag} negotiations row ${i} (${conv}) column onchain on chain`;
  for (const address of chain.negotiationAddresses(a, b, conv)) {
    const events = await chain.haggleEvents(address);
    if ('error' in events) return [{ name, ok: false, detail: events.error }];
    if (events.some((e) => hex(e.conversationId) === conv)) return [{ name, ok: false, detail: `stated off chain, but the parties' owners negotiated it on chain at ${address}` }];
  }
  return [{ name, ok: true }];
}

/** The file row's cells that differ from `exp` (block times allowed up to LATE_US late). */
function differing(file: FileRow, exp: Record<string, unknown>): { column: string; file: string | null; expected: string | null }[] {
  const out: { column: string; file: string | null; expected: string | null }[] = [];
  for (const c of TABLES.negotiations.columns) {
    const a = cellText(c.type, file[c.name], c);
    const b = cellText(c.type, exp[c.name], c);
    if (a === b) continue;
    if (TIME_COLUMNS.has(c.name) && a !== null && b !== null && BigInt(a) >= BigInt(b) && BigInt(a) - BigInt(b) <= LATE_US) continue;
    out.push({ column: c.name, file: a, expected: b });
  }
  return out;
}

/**
 * With the chain: each negotiations row stated on chain against its account's history.
 * `convs` are the epoch's negotiation conversations (rederive.ts negotiationConversations).
 */
export async function haggleChainChecks(tag: string, rows: readonly FileRow[], convs: readonly EnvelopeRecord[][], asOfUs: bigint, chain: ReleaseChain,
  signers: ReadonlyMap<string, SignerEvidence>): Promise<CheckResult[]> {
  if (!chain.haggleEvents) return [];
  const out: CheckResult[] = [];
  const byConv = new Map(convs.map((c) => [hex(c[0].conversationId), c]));
  for (const [i, r] of rows.entries()) {
    if (r.onchain !== true) { out.push(...await offChainCheck(tag, i, r, chain, signers)); continue; }
    const conv = idText(r.conversation_id);
    const name = `${tag} negotiations row ${i} (${conv})`;
    const envs = byConv.get(conv);
    const address = r.onchain_address === null || r.onchain_address === undefined ? null : String(r.onchain_address);
    if (!envs || !address) continue; // the row fails the offline re-derivation already
    const events = await chain.haggleEvents(address);
    if ('error' in events) { out.push({ name: `${name} column onchain_address on chain`, ok: false, detail: events.error }); continue; }
    let best: ReturnType<typeof differing> | null = null;
    for (let k = events.length; k >= 1; k--) {
      const negs: HaggleNegotiationRow[] = foldHaggleEvents(events.slice(0, k)).filter((n) => hex(n.conversationId) === conv);
      if (negs.length === 0) continue;
      const rec = negotiationRecord(envs, asOfUs, negs);
      if (!rec) break;
      const d = differing(r, { ...rec.row, ...onChainColumns(negs, rec.gossip) });
      if (best === null) best = d;
      if (d.length === 0) { best = d; break; }
    }
    if (best === null) out.push({ name: `${name} column onchain_address on chain`, ok: false, detail: `no Haggle negotiation of this conversation in the history of ${address}` });
    else if (best.length === 0) out.push({ name: `${name}: on-chain columns re-derived from the chain`, ok: true });
    else for (const d of best.slice(0, 10)) out.push({ name: `${name} column ${d.column} on chain`, ok: false, detail: `file ${d.file ?? 'null'}, derived from the chain's history of ${address} ${d.expected ?? 'null'}` });
  }
  return out;
}
