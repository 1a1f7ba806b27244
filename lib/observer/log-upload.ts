/**
 * `POST /api/ingest/log`: an agent uploads the epoch log its BehaviorBatch commits to, in log
 * order (docs/protocol.md §5 and "Signed epoch logs"). Body, canonical CBOR, one of:
 *
 *   [agent_id bstr(32), epoch uint, [envelope bstr, ...]]                                  unsigned
 *   [agent_id, epoch, [envelope, ...], batch bstr]                                          unsigned, with the batch
 *   [agent_id, epoch, [envelope, ...], signer bstr(32), signature bstr(64)]                signed
 *   [agent_id, epoch, [envelope, ...], batch bstr, signer bstr(32), signature bstr(64)]    signed, with the batch
 *
 * The signature is Ed25519 by `signer` over {@link epochLogStatement}: keccak256 of the ASCII
 * domain "zerox1/epoch-log/v1", the agent id, the epoch as u64 big-endian and the log's §5
 * merkle root. The verdict on a batch is the chain's word against the agent's own, so a log
 * counts only when the agent vouches for it (the signer is one of the keys the signer registry
 * allows for the agent, the same rule as for its envelopes) or when it cannot contradict the
 * chain (an unsigned log whose root equals the on-chain batch root). Anything else is refused
 * before a byte of it is stored: 403 naming the missing or wrong signature.
 *
 * Checks, in order (400 naming the problem; 413 over the caps of upload.ts): the body's shape
 * (head read by hand, bounded, canonical); each envelope decodes, involves the agent (sender,
 * recipient, or FEEDBACK target) and appears once; the batch (if sent) is of this agent, epoch
 * and root; the signature, or for an unsigned log the on-chain root (and an unsigned upload's
 * batch must be the on-chain one: a stranger cannot fill the agent's batch slots); then every
 * envelope goes through the observatory's upload path (archive validation, stored, drops
 * counted) with the epoch's time window ({@link epochLogWindowUs}) and must pass; only then is the
 * log stored (lib/store/logs/epoch-log.ts). A signed log replaces the stored one until the batch is
 * verified (409 after); an unsigned one never replaces anything (409 when a different log is
 * stored). Valid envelopes of a log refused at the ingest step stay stored, as from any upload.
 */

import { batchHash, decodeBatch } from '../protocol/batch';
import { TIMESTAMP_TOLERANCE_US } from '../protocol/constants';
import { ed25519Verify } from '../protocol/crypto';
import { decodeEnvelope, envelopeId } from '../protocol/envelope';
import { epochLogStatement } from '../protocol/epoch-log';
import { toHex } from '../protocol/hex';
import { leafHash, logEntryOf, merkleRoot } from '../protocol/merkle';
import { decodeFeedback } from '../protocol/payloads';
import { type Envelope, MsgType } from '../protocol/types';
import type { EpochLogUploadView, Problem } from '../wire/views';
import type { UploadItemResult } from './types';
import { MAX_UPLOAD_BYTES, parseUploadBody } from './upload';

/** A parsed log upload. */
export interface LogUpload {
  agent: Uint8Array;
  epoch: bigint;
  envelopes: Uint8Array[];
  /** The envelopes array as sent: a valid envelope-upload body. */
  envelopesCbor: Uint8Array;
  /** The batch's CBOR, when sent. */
  batch?: Uint8Array;
  /** The signer's public key and its signature over {@link epochLogStatement}, when signed. */
  signer?: Uint8Array;
  signature?: Uint8Array;
}

export type ParseLogUploadResult = { ok: true; value: LogUpload } | { ok: false; status: 400 | 413; message: string };

const I64_MAX = (1n << 63n) - 1n;

/**
 * Timestamps (unix µs, inclusive) an envelope of `epoch`'s log may carry: the epoch's own
 * [epoch × L, (epoch + 1) × L) widened by the live timestamp tolerance on both sides, so an agent
 * whose clock is as far off as the mesh allows still files its envelopes under the right epoch.
 */
export function epochLogWindowUs(epoch: bigint, epochSeconds: number): { fromUs: bigint; toUs: bigint } {
  const len = BigInt(epochSeconds) * 1_000_000n;
  const from = epoch * len - TIMESTAMP_TOLERANCE_US;
  return { fromUs: from < 0n ? 0n : from, toUs: (epoch + 1n) * len - 1n + TIMESTAMP_TOLERANCE_US };
}

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

const SHAPE =
  'body is not a CBOR array of 3 items [agent_id, epoch, [envelope, ' +
  '...]] (4 with the batch; 5 or 6 when signed: [..., signer, signature])';

/**
 * Parses a log-upload body (module comment for the forms). Never throws: 413 over
 * MAX_UPLOAD_BYTES / MAX_UPLOAD_ITEMS, 400 with a message naming the problem otherwise.
 */
export function parseLogUploadBody(body: Uint8Array): ParseLogUploadResult {
  if (!(body instanceof Uint8Array))
    return { ok: false, status: 400, message: 'body must be bytes (application/cbor)' };
  if (body.length > MAX_UPLOAD_BYTES)
    return { ok: false, status: 413, message: `body is ${body.length} bytes, max ${MAX_UPLOAD_BYTES}` };
  if (body.length === 0)
    return { ok: false, status: 400, message: 'empty body: expected CBOR [agent_id, epoch, [envelope, ...]]' };
  if (body[0] < 0x83 || body[0] > 0x86) return { ok: false, status: 400, message: SHAPE };
  const arity = body[0] - 0x80;
  if (body.length < 35 || body[1] !== 0x58 || body[2] !== 0x20)
    return { ok: false, status: 400, message: 'agent_id (item 0) must be a 32-byte byte string' };
  const agent = body.slice(3, 35);
  const epoch = readUint(body, 35);
  if (typeof epoch === 'string')
    return { ok: false, status: 400, message: `epoch (item 1) must be an unsigned integer: ${epoch}` };
  if (epoch.value > I64_MAX) return { ok: false, status: 400, message: 'epoch (item 1) is larger than 2^63-1' };
  let envelopesCbor = body.subarray(35 + epoch.len);
  const out: LogUpload = { agent, epoch: epoch.value, envelopes: [], envelopesCbor };
  if (arity > 3) {
    const end = bstrArrayEnd(body, 35 + epoch.len);
    if (typeof end === 'string') return { ok: false, status: 400, message: `envelopes (item 2): ${end}` };
    envelopesCbor = body.subarray(35 + epoch.len, end);
    // Items 3.. : [batch] (4), [signer, signature] (5), [batch, signer, signature] (6).
    const names = arity === 4 ? ['batch'] : arity === 5 ? ['signer', 'signature'] : ['batch', 'signer', 'signature'];
    let at = end;
    for (const [k, name] of names.entries()) {
      const b = bstrAt(body, at);
      if (typeof b === 'string')
        return { ok: false, status: 400, message: `${name} (item ${3 + k}) must be a byte string: ${b}` };
      const v = body.slice(b.start, b.end);
      if (name === 'signer' && v.length !== 32)
        return {
          ok: false,
          status: 400,
          message: `signer (item ${3 + k}) must be a 32-byte Ed25519 public key, got ${v.length} bytes`,
        };
      if (name === 'signature' && v.length !== 64)
        return {
          ok: false,
          status: 400,
          message: `signature (item ${3 + k}) must be a 64-byte Ed25519 signature, got ${v.length} bytes`,
        };
      out[name as 'batch' | 'signer' | 'signature'] = v;
      at = b.end;
    }
    if (at !== body.length)
      return { ok: false, status: 400, message: `trailing bytes after ${names[names.length - 1]} (item ${arity - 1})` };
  }
  out.envelopesCbor = envelopesCbor;
  const list = parseUploadBody(envelopesCbor);
  if (!list.ok) return { ok: false, status: list.status, message: `envelopes (item 2): ${list.message}` };
  for (const [i, el] of list.items.entries()) {
    if (!el.ok) return { ok: false, status: 400, message: `envelope ${i} is not a byte string` };
    out.envelopes.push(el.bytes);
  }
  if (out.envelopes.length === 0)
    return { ok: false, status: 400, message: 'envelopes (item 2) is empty: a log has at least one entry' };
  return { ok: true, value: out };
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

/** What {@link ingestEpochLog} needs: the observatory's upload path, store and signer registry. */
export interface IngestEpochLogDeps {
  /**
   * The observatory's envelope upload (archive mode, stored, drops counted):
   * Observatory.ingestUpload, given the log's time window.
   */
  ingest(
    body: Uint8Array,
    opts: { window: { fromUs: bigint; toUs: bigint } },
  ): Promise<{ status: number; results: UploadItemResult[]; error?: string }>;
  /** The keys allowed to sign for an agent (lib/observer/registry.ts, as for its envelopes). */
  keysFor(agent: Uint8Array): readonly Uint8Array[] | Promise<readonly Uint8Array[]>;
  /** Epoch length, seconds (EPOCH_SECONDS). */
  epochSeconds: number;
  store: {
    /** lib/store Store.saveEpochLog (replace: a signed log may replace an unverified one). */
    saveEpochLog(
      agent: Uint8Array,
      epoch: bigint,
      ids: readonly Uint8Array[],
      opts: { replace: boolean },
    ): Promise<'saved' | 'unchanged' | 'replaced' | 'conflict' | 'kept'>;
    /** lib/store Store.saveBatchUpload (the batch item). */
    saveBatchUpload?(agent: Uint8Array, epoch: bigint, hash: Uint8Array, cbor: Uint8Array): Promise<unknown>;
    /** lib/store Store.listBatches: the on-chain batch of (agent, epoch), if indexed. */
    listBatches(p: {
      agent: Uint8Array;
      epoch: bigint;
    }): Promise<readonly { root: Uint8Array; batchHash: Uint8Array }[]>;
  };
}

/** The JSON answer of POST /api/ingest/log. */
export type IngestEpochLogResult =
  | { status: 200; body: EpochLogUploadView }
  | { status: 400 | 403 | 409 | 413 | 503; body: Problem };

/** Handles one log upload end to end (module comment). Hostile bodies never throw; a store failure does. */
export async function ingestEpochLog(body: Uint8Array, deps: IngestEpochLogDeps): Promise<IngestEpochLogResult> {
  if (
    !deps ||
    typeof deps.ingest !== 'function' ||
    typeof deps.keysFor !== 'function' ||
    typeof deps.store?.saveEpochLog !== 'function' ||
    typeof deps.store.listBatches !== 'function'
  ) {
    throw new TypeError('deps must provide ingest(), keysFor(), epochSeconds and store.saveEpochLog()/listBatches()');
  }
  if (!Number.isInteger(deps.epochSeconds) || deps.epochSeconds < 1)
    throw new TypeError('deps.epochSeconds must be a positive integer');
  const bad = (message: string, status: 400 | 403 | 409 | 413 = 400): IngestEpochLogResult => ({
    status,
    body: { error: message },
  });
  const p = parseLogUploadBody(body);
  if (!p.ok) return bad(p.message, p.status);
  const { agent, epoch, envelopes } = p.value;
  const log: Envelope[] = [];
  const ids: Uint8Array[] = [];
  const seen = new Map<string, number>();
  for (const [i, bytes] of envelopes.entries()) {
    const d = decodeEnvelope(bytes);
    if (!d.ok) return bad(`envelope ${i} does not decode: ${d.detail ?? d.reason}`);
    if (!involves(d.envelope, agent))
      return bad(`envelope ${i} does not involve the agent (not its sender, recipient or FEEDBACK target)`);
    const id = envelopeId(bytes);
    const first = seen.get(toHex(id));
    if (first !== undefined) return bad(`envelope ${i} repeats envelope ${first}`);
    seen.set(toHex(id), i);
    log.push(d.envelope);
    ids.push(id);
  }
  const root = merkleRoot(log.map((e) => leafHash(logEntryOf(e))));
  let hash: Uint8Array | null = null;
  if (p.value.batch) {
    const d = decodeBatch(p.value.batch);
    if (!d.ok) return bad(`batch (item 3) does not decode: ${d.detail}`);
    if (Buffer.compare(d.value.agentId, agent) !== 0 || d.value.epochNumber !== epoch)
      return bad('batch (item 3) is not of this agent and epoch');
    if (Buffer.compare(d.value.logMerkleRoot, root) !== 0)
      return bad('batch (item 3) does not carry the merkle root of this log');
    hash = batchHash(d.value);
  }

  // Who vouches for this log: the agent (signature) or the chain (root).
  const signed = p.value.signer !== undefined;
  if (signed) {
    const signer = p.value.signer!;
    const keys = await deps.keysFor(agent);
    if (!keys.some((k) => Buffer.compare(k, signer) === 0)) {
      return bad(
        `signer ${toHex(signer)} is not a key registered for agent ` +
          `${toHex(agent)}: only the agent's own keys may sign its log`,
        403,
      );
    }
    if (!ed25519Verify(p.value.signature!, epochLogStatement(agent, epoch, root), signer)) {
      return bad(
        `signature (item ${p.value.batch ? 5 : 4}) does not verify: it must be the signer's Ed25519 ` +
          `signature over keccak256("zerox1/epoch-log/v1" ‖ agent_id ‖ epoch u64 BE ‖ log root ${toHex(root)})`,
        403,
      );
    }
  } else {
    const [onChain] = await deps.store.listBatches({ agent, epoch });
    if (!onChain || Buffer.compare(onChain.root, root) !== 0) {
      const why = onChain
        ? `its root ${toHex(root)} is not the on-chain batch root ${toHex(onChain.root)}`
        : 'no batch of this agent and epoch is on chain to compare its root with';
      return bad(
        `missing signature: an unsigned log counts only when its root is the on-chain batch root, and ` +
          `${why}; the agent signs its log upload ([agent_id, epoch, [envelope, ...], signer, signature])`,
        403,
      );
    }
    // The batch slots of an (agent, epoch) are the agent's: an unsigned upload may add only the on-chain batch.
    if (hash && Buffer.compare(hash, onChain.batchHash) !== 0)
      return bad(
        'batch (item 3) of an unsigned upload must be the on-chain batch: its hash is not the on-chain batch_hash',
        403,
      );
  }

  const r = await deps.ingest(p.value.envelopesCbor, { window: epochLogWindowUs(epoch, deps.epochSeconds) });
  if (r.status === 503) return { status: 503, body: { error: r.error ?? 'the database is unreachable' } };
  if (r.status >= 400) return bad(`envelopes (item 2): ${r.error ?? 'rejected'}`, r.status === 413 ? 413 : 400);
  for (let i = 0; i < envelopes.length; i++) {
    const x = r.results[i];
    if (x?.ok) continue;
    if (x?.reason === 'store_error') throw new Error(`storing envelope ${i} failed: ${x.detail ?? ''}`);
    return bad(
      `envelope ${i} failed archive validation: ${x ? x.reason + (x.detail ? ` (${x.detail})` : '') : 'no result'}`,
    );
  }
  const stored = await deps.store.saveEpochLog(agent, epoch, ids, { replace: signed });
  if (stored === 'conflict')
    return bad(
      `a different log for agent ${toHex(agent)} epoch ${epoch} is stored and its batch is already verified`,
      409,
    );
  if (stored === 'kept')
    return bad(
      `a different log for agent ${toHex(agent)} epoch ${epoch} is stored; an ` +
        `unsigned upload never replaces it (only the agent's signed upload does)`,
      409,
    );
  if (hash && p.value.batch) await deps.store.saveBatchUpload?.(agent, epoch, hash, p.value.batch);
  return {
    status: 200,
    body: { agent: toHex(agent), epoch: epoch.toString(), entries: ids.length, logMerkleRoot: toHex(root), stored },
  };
}

/** {@link ingestEpochLog}'s dependencies from a running observatory (the route, the demo mesh, tests). */
export function logUploadDeps(obs: {
  ingestUpload: IngestEpochLogDeps['ingest'];
  registry: { keysFor: IngestEpochLogDeps['keysFor'] };
  config: { epochSeconds: number };
  store: IngestEpochLogDeps['store'];
}): IngestEpochLogDeps {
  return {
    ingest: (b, o) => obs.ingestUpload(b, o),
    keysFor: (a) => obs.registry.keysFor(a),
    epochSeconds: obs.config.epochSeconds,
    store: obs.store,
  };
}
