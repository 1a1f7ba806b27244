/**
 * `POST /api/ingest/log`: an agent uploads the epoch log its
 * BehaviorBatch commits to, in log order (docs/protocol.md §5), as CBOR
 * `[agent_id bstr(32), epoch uint, [envelope bstr, ...]]`, optionally with a fourth item, the
 * batch itself as canonical CBOR (docs/protocol.md §6). The chain indexer verifies the agent's
 * on-chain batch against exactly this log (lib/indexer/verify.ts); the batch bytes let anyone
 * challenge an entry the batch leaves out (a challenge's evidence carries the batch, checked on
 * chain against its batch_hash). An uploaded batch must be of this agent and epoch and carry this
 * log's root; it counts only when its hash equals the one on chain (lib/store/batch-upload.ts).
 *
 * Checks, in order (400 naming the problem; 413 over the caps of upload.ts):
 * the body's shape (head read by hand, bounded, canonical); each envelope decodes, involves the
 * agent (its sender, its recipient, or a FEEDBACK whose target_agent is it) and appears once;
 * then every envelope goes through the observatory's normal upload path (archive-mode
 * validation against the signer registry, stored in `envelope`, drops counted) and must pass;
 * only then is the log stored (lib/store/epoch-log.ts: re-upload of the same log is a no-op, a
 * different one replaces it unless the batch is already verified: 409). Timestamps are not
 * checked against an epoch window: the log is whatever the agent committed to, and the root
 * check decides. Valid envelopes of a rejected log stay stored, as from any upload.
 */
import { decodeEnvelope, envelopeId } from '../protocol/envelope';
import { leafHash, logEntryOf, merkleRoot } from '../protocol/merkle';
import { decodeFeedback } from '../protocol/payloads';
import { MsgType, type Envelope } from '../protocol/types';
import { toHex } from '../protocol/hex';
import { batchHash, decodeBatch } from '../protocol/batch';
import { parseUploadBody, MAX_UPLOAD_BYTES } from './upload';
import type { UploadItemResult } from './types';
import type { EpochLogUploadView, Problem } from '../wire/views';

/** A parsed log upload. */
export interface LogUpload { agent: Uint8Array; epoch: bigint; envelopes: Uint8Array[]; /** The envelopes array as sent: a valid envelope-upload body. */ envelopesCbor: Uint8Array; /** The batch's CBOR (fourth item), when sent. */ batch?: Uint8Array }

export type ParseLogUploadResult = { ok: true; value: LogUpload } | { ok: false; status: 400 | 413; message: string };

const I64_MAX = (1n << 63n) - 1n;

/** Reads a canonical CBOR unsigned integer head at `off`: value and length, or an error message. */
function readUint(b: Uint8Array, off: number): { value: bigint; len: number } | string {
  if (off >= b.length) return 'truncated';
  const major = b[off] >> 5;
  const info = b[off] & 0x1f;
  if (major !== 0) return `major type ${major}, not an unsigned integer`;
  if (info < 24) return { value: BigInt(info), len: 1 };
  const n = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0;
  if (n === 0) return `malformed integer head (additional info ${info})`;
  if (off + 1 + n > b.length) return 'truncated';
  let v = 0n;
  for (let i = 1; i <= n; i++) v = (v << 8n) | BigInt(b[off + i]);
  const min = n === 1 ? 24n : n === 2 ? 0x100n : n === 4 ? 0x10000n : 0x100000000n;
  if (v < min) return 'non-canonical integer encoding';
  return { value: v, len: 1 + n };
}

/**
 * Parses a log-upload body (module comment for the format). Never throws: 413 over
 * MAX_UPLOAD_BYTES / MAX_UPLOAD_ITEMS, 400 with a message naming the problem otherwise.
 */
export function parseLogUploadBody(body: Uint8Array): ParseLogUploadResult {
  if (!(body instanceof Uint8Array)) return { ok: false, status: 400, message: 'body must be bytes (application/cbor)' };
  if (body.length > MAX_UPLOAD_BYTES) return { ok: false, status: 413, message: `body is ${body.length} bytes, max ${MAX_UPLOAD_BYTES}` };
  if (body.length === 0) return { ok: false, status: 400, message: 'empty body: expected CBOR [agent_id, epoch, [envelope, ...]]' };
  if (body[0] !== 0x83 && body[0] !== 0x84) return { ok: false, status: 400, message: 'body is not a CBOR array of 3 items [agent_id, epoch, [envelope, ...]] (or 4, with the batch)' };
  if (body.length < 35 || body[1] !== 0x58 || body[2] !== 0x20) return { ok: false, status: 400, message: 'agent_id (item 0) must be a 32-byte byte string' };
  const agent = body.slice(3, 35);
  const epoch = readUint(body, 35);
  if (typeof epoch === 'string') return { ok: false, status: 400, message: `epoch (item 1) must be an unsigned integer: ${epoch}` };
  if (epoch.value > I64_MAX) return { ok: false, status: 400, message: 'epoch (item 1) is larger than 2^63-1' };
  let envelopesCbor = body.subarray(35 + epoch.len);
  let batch: Uint8Array | undefined;
  if (body[0] === 0x84) {
    const end = bstrArrayEnd(body, 35 + epoch.len);
    if (typeof end === 'string') return { ok: false, status: 400, message: `envelopes (item 2): ${end}` };
    const b = bstrAt(body, end);
    if (typeof b === 'string') return { ok: false, status: 400, message: `batch (item 3) must be a byte string: ${b}` };
    if (b.end !== body.length) return { ok: false, status: 400, message: 'trailing bytes after batch (item 3)' };
    envelopesCbor = body.subarray(35 + epoch.len, end);
    batch = body.slice(b.start, b.end);
  }
  const list = parseUploadBody(envelopesCbor);
  if (!list.ok) return { ok: false, status: list.status, message: `envelopes (item 2): ${list.message}` };
  const envelopes: Uint8Array[] = [];
  for (const [i, el] of list.items.entries()) {
    if (!el.ok) return { ok: false, status: 400, message: `envelope ${i} is not a byte string` };
    envelopes.push(el.bytes);
  }
  if (envelopes.length === 0) return { ok: false, status: 400, message: 'envelopes (item 2) is empty: a log has at least one entry' };
  return { ok: true, value: { agent, epoch: epoch.value, envelopes, envelopesCbor, batch } };
}

/** A definite-length head of major type `major` at `off`: its argument and length, or an error message. */
function headOf(b: Uint8Array, off: number, major: number, what: string): { value: number; len: number } | string {
  if (off >= b.length) return 'truncated';
  if (b[off] >> 5 !== major) return `not ${what} (major type ${b[off] >> 5})`;
  const r = readUint(Uint8Array.of(b[off] & 0x1f, ...b.subarray(off + 1, off + 9)), 0);
  if (typeof r === 'string') return r;
  if (r.value > BigInt(MAX_UPLOAD_BYTES)) return `${what} is too long`;
  return { value: Number(r.value), len: r.len };
}

/** The byte string at `off`: where its content starts and ends. */
function bstrAt(b: Uint8Array, off: number): { start: number; end: number } | string {
  const h = headOf(b, off, 2, 'a byte string');
  if (typeof h === 'string') return h;
  const start = off + h.len;
  if (start + h.value > b.length) return 'truncated byte string';
  return { start, end: start + h.value };
}

/** The end offset of the array of byte strings starting at `off`. */
function bstrArrayEnd(b: Uint8Array, off: number): number | string {
  const h = headOf(b, off, 4, 'an array');
  if (typeof h === 'string') return h;
  let at = off + h.len;
  for (let i = 0; i < h.value; i++) {
    const s = bstrAt(b, at);
    if (typeof s === 'string') return `item ${i}: ${s}`;
    at = s.end;
  }
  return at;
}

/** True when `e` belongs in `agent`'s log (docs/protocol.md §5: sent, received, or FEEDBACK about it). */
function involves(e: Envelope, agent: Uint8Array): boolean {
  if (Buffer.compare(e.sender, agent) === 0 || Buffer.compare(e.recipient, agent) === 0) return true;
  if (e.msgType !== MsgType.FEEDBACK) return false;
  const f = decodeFeedback(e.payload);
  return f.ok && Buffer.compare(f.value.targetAgent, agent) === 0;
}

/** What {@link ingestEpochLog} needs: the observatory's upload path and store. */
export interface IngestEpochLogDeps {
  /** The observatory's envelope upload (archive mode, stored, drops counted): Observatory.ingestUpload. */
  ingest(body: Uint8Array): Promise<{ status: number; results: UploadItemResult[]; error?: string }>;
  /** lib/store Store.saveEpochLog. */
  store: {
    saveEpochLog(agent: Uint8Array, epoch: bigint, ids: readonly Uint8Array[]): Promise<'saved' | 'unchanged' | 'replaced' | 'conflict'>;
    /** lib/store Store.saveBatchUpload (the optional fourth item). */
    saveBatchUpload?(agent: Uint8Array, epoch: bigint, hash: Uint8Array, cbor: Uint8Array): Promise<unknown>;
  };
}

/** The JSON answer of POST /api/ingest/log. */
export type IngestEpochLogResult =
  | { status: 200; body: EpochLogUploadView }
  | { status: 400 | 409 | 413 | 503; body: Problem };

/** Handles one log upload end to end (module comment). Hostile bodies never throw; a store failure does. */
export async function ingestEpochLog(body: Uint8Array, deps: IngestEpochLogDeps): Promise<IngestEpochLogResult> {
  if (!deps || typeof deps.ingest !== 'function' || typeof deps.store?.saveEpochLog !== 'function') throw new TypeError('deps must provide ingest() and store.saveEpochLog()');
  const bad = (message: string, status: 400 | 409 | 413 = 400): IngestEpochLogResult => ({ status, body: { error: message } });
  const p = parseLogUploadBody(body);
  if (!p.ok) return bad(p.message, p.status);
  const { agent, epoch, envelopes } = p.value;
  const log: Envelope[] = [];
  const ids: Uint8Array[] = [];
  const seen = new Map<string, number>();
  for (const [i, bytes] of envelopes.entries()) {
    const d = decodeEnvelope(bytes);
    if (!d.ok) return bad(`envelope ${i} does not decode: ${d.detail ?? d.reason}`);
    if (!involves(d.envelope, agent)) return bad(`envelope ${i} does not involve the agent (not its sender, recipient or FEEDBACK target)`);
    const id = envelopeId(bytes);
    const first = seen.get(toHex(id));
    if (first !== undefined) return bad(`envelope ${i} repeats envelope ${first}`);
    seen.set(toHex(id), i);
    log.push(d.envelope);
    ids.push(id);
  }
  const r = await deps.ingest(p.value.envelopesCbor);
  if (r.status === 503) return { status: 503, body: { error: r.error ?? 'the database is unreachable' } };
  if (r.status >= 400) return bad(`envelopes (item 2): ${r.error ?? 'rejected'}`, r.status === 413 ? 413 : 400);
  for (let i = 0; i < envelopes.length; i++) {
    const x = r.results[i];
    if (x?.ok) continue;
    if (x?.reason === 'store_error') throw new Error(`storing envelope ${i} failed: ${x.detail ?? ''}`);
    return bad(`envelope ${i} failed archive validation: ${x ? x.reason + (x.detail ? ` (${x.detail})` : '') : 'no result'}`);
  }
  const root = merkleRoot(log.map((e) => leafHash(logEntryOf(e))));
  let hash: Uint8Array | null = null;
  if (p.value.batch) {
    const d = decodeBatch(p.value.batch);
    if (!d.ok) return bad(`batch (item 3) does not decode: ${d.detail}`);
    if (Buffer.compare(d.value.agentId, agent) !== 0 || d.value.epochNumber !== epoch) return bad('batch (item 3) is not of this agent and epoch');
    if (Buffer.compare(d.value.logMerkleRoot, root) !== 0) return bad('batch (item 3) does not carry the merkle root of this log');
    hash = batchHash(d.value);
  }
  const stored = await deps.store.saveEpochLog(agent, epoch, ids);
  if (stored === 'conflict') return bad(`a different log for agent ${toHex(agent)} epoch ${epoch} is stored and its batch is already verified`, 409);
  if (hash && p.value.batch) await deps.store.saveBatchUpload?.(agent, epoch, hash, p.value.batch);
  return { status: 200, body: { agent: toHex(agent), epoch: epoch.toString(), entries: ids.length, logMerkleRoot: toHex(root), stored } };
}
