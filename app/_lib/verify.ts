/**
 * What the verify-it-yourself pages and routes read from the running process: an envelope's raw
 * bytes, the merkle proofs of the uploaded epoch logs that hold it (docs/protocol.md §5), and a
 * conversation's Handshake receipt (lib/protocol/receipt.ts). The browser re-checks all of it;
 * these loaders only hand over bytes.
 */
import 'server-only';
import { decodeEnvelope } from '../../lib/protocol/envelope';
import { leafHash, logEntryOf, merkleProof, merkleRoot } from '../../lib/protocol/merkle';
import { decodeFeedback } from '../../lib/protocol/payloads';
import { buildReceipt, encodeReceipt } from '../../lib/protocol/receipt';
import { MsgType } from '../../lib/protocol/types';
import {
  type BatchLogView,
  type EnvelopeRawView,
  bytesToHex as hex,
  type InclusionProofView,
  type InclusionView,
} from '../../lib/wire';
import { HttpError } from './http';
import { receiptReadiness } from './receipt-ready';
import type { Services } from './services';

/** The stored raw bytes of an envelope, or null when unknown. */
export async function loadEnvelopeRaw(o: Services, id: Uint8Array): Promise<EnvelopeRawView | null> {
  const s = await o.reads.getEnvelope(id);
  return s ? { id: hex(s.id), raw: hex(s.raw) } : null;
}

/** Merkle proofs of every uploaded log holding the envelope; null when the envelope is unknown. */
export async function loadInclusion(o: Services, id: Uint8Array): Promise<InclusionView | null> {
  const store = o.reads;
  const s = await store.getEnvelope(id);
  if (!s) return null;
  const e = s.envelope;
  const agents = [e.sender, e.recipient];
  if (e.msgType === MsgType.FEEDBACK) {
    const f = decodeFeedback(e.payload);
    if (f.ok) agents.push(f.value.targetAgent);
  }
  const hits = await store.epochLogsWith(id, agents);
  const proofs: InclusionProofView[] = [];
  for (const h of hits) {
    const log = await store.epochLog(h.agent, h.epoch);
    const entries: Uint8Array[] = [];
    for (const row of log) {
      const d = row.raw ? decodeEnvelope(row.raw) : null;
      if (!d?.ok) break;
      entries.push(logEntryOf(d.envelope));
    }
    // A log with an envelope the store lacks cannot be proven here; the others still can.
    if (entries.length !== log.length) continue;
    const leaves = entries.map(leafHash);
    const p = merkleProof(leaves, h.position);
    proofs.push({
      agent: hex(h.agent),
      epoch: h.epoch.toString(),
      index: h.position,
      leafCount: leaves.length,
      entry: hex(entries[h.position]),
      siblings: p.siblings.map(hex),
      logRoot: hex(merkleRoot(leaves)),
      batchStatus: h.batchStatus,
    });
  }
  return { envelopeId: hex(id), proofs };
}

/**
 * The Handshake receipt of a finished conversation: the two negotiating parties' envelopes from
 * the first PROPOSE to the last VERDICT/FEEDBACK, with each party's signer keys from the
 * registry (the chain's identity holder). Throws HttpError 404/409.
 */
export async function loadReceipt(o: Services, conversationId: Uint8Array): Promise<Uint8Array> {
  const c = await o.reads.getConversation(conversationId);
  if (!c) throw new HttpError(404, `conversation ${hex(conversationId)} not found`);
  const notReady = receiptReadiness(c.envelopes.map((s) => s.envelope.msgType));
  if (notReady) throw new HttpError(409, `no receipt: ${notReady}`);
  const negotiators: Uint8Array[] = [];
  for (const s of c.envelopes) {
    const t = s.envelope.msgType;
    if (t >= MsgType.PROPOSE && t <= MsgType.REJECT && !negotiators.some((a) => hex(a) === hex(s.envelope.sender)))
      negotiators.push(s.envelope.sender);
  }
  if (negotiators.length !== 2)
    throw new HttpError(409, `no receipt: expected 2 negotiating parties, found ${negotiators.length}`);
  const parties = await Promise.all(
    negotiators.map(async (agentId) => ({ agentId, keys: [...(await o.observatory.registry.keysFor(agentId))] })),
  );
  const mine = new Set(negotiators.map(hex));
  const envelopes = c.envelopes.filter((s) => mine.has(hex(s.envelope.sender))).map((s) => s.raw);
  return encodeReceipt(buildReceipt({ conversationId, envelopes, parties }));
}

/** The uploaded epoch log of (agent, epoch) as bytes; null when none was uploaded. */
export async function loadBatchLog(o: Services, agent: Uint8Array, epoch: bigint): Promise<BatchLogView | null> {
  const rows = await o.reads.epochLog(agent, epoch);
  if (rows.length === 0) return null;
  return { agent: hex(agent), epoch: epoch.toString(), envelopes: rows.map((r) => (r.raw ? hex(r.raw) : null)) };
}
