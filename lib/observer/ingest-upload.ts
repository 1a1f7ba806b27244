/**
 * Uploads (`POST /api/ingest/envelopes`): a CBOR array of encoded envelopes, validated in archive
 * mode and stored through the same ingest queue as the mesh, with one result per item. One bad
 * item never costs the good ones; every refused item is a counted drop with source `upload`.
 *
 * Time is bounded: an archive envelope is refused (`timestamp_out_of_window`) when its timestamp
 * is more than the live tolerance (30 s) ahead of now or older than the archive window
 * ({@link archiveWindowSeconds}: what a batch can still be submitted or challenged for). Nothing
 * else keeps a client from dating an envelope 1970 or 2^64−1 µs, and every later reader (the
 * epoch partitions, exports, releases) would carry that row.
 */

import { TIMESTAMP_TOLERANCE_US } from '../protocol/constants';
import { toHex } from '../protocol/hex';
import type { ValidationResult } from '../protocol/types';
import type { IngestQueue } from '../store';
import { archiveWindowSeconds } from '../store/engine';
import type { DropRecorder } from './drops';
import type { UploadItemResult } from './types';
import { parseUploadBody } from './upload';
import type { ObservedResult, Validation } from './validation';

/**
 * What an upload answers: 200 with per-item results, 400/413 naming what is wrong with the body,
 * or 503 while the database is unreachable (nothing of the body was taken: upload it again later).
 */
export interface UploadOutcome {
  status: 200 | 400 | 413 | 503;
  results: UploadItemResult[];
  /** Set for 400/413/503: what is wrong with the body, or why it cannot be taken now. */
  error?: string;
}

/** The drop reason of an archive envelope dated outside its window. */
export const TIMESTAMP_OUT_OF_WINDOW = 'timestamp_out_of_window';

/** An inclusive window of unix-µs timestamps. */
export interface TimeWindowUs {
  fromUs: bigint;
  toUs: bigint;
}

/** The window of a plain upload at `nowMs`: [now − archive window, now + the live tolerance]. */
export function uploadWindowUs(nowMs: number, epochSeconds: number): TimeWindowUs {
  const nowUs = BigInt(Math.floor(nowMs)) * 1000n;
  const from = nowUs - BigInt(archiveWindowSeconds(epochSeconds)) * 1_000_000n;
  return { fromUs: from < 0n ? 0n : from, toUs: nowUs + TIMESTAMP_TOLERANCE_US };
}

/** Why `ts` is outside `w` (named in the item's detail), or undefined when inside. */
function outside(ts: bigint, w: TimeWindowUs, what: string): string | undefined {
  if (ts >= w.fromUs && ts <= w.toUs) return undefined;
  return `timestamp ${ts} µs is ${ts < w.fromUs ? 'before' : 'after'} ${what} [${w.fromUs}, ${w.toUs}]`;
}

/** Options of one upload. */
export interface UploadOptions {
  /** A narrower window for this upload (an epoch log: its epoch's), checked besides the plain one. */
  window?: TimeWindowUs;
}

export interface UploadIngestParams {
  validation: Pick<Validation, 'archive'>;
  queue: Pick<IngestQueue, 'push'>;
  drops: Pick<DropRecorder, 'count'>;
  clock: () => number;
  /** Epoch length, seconds: sets the archive window. */
  epochSeconds: number;
  /**
   * The outage guard: while the database is unreachable an upload is refused whole (503: the
   * uploader still has its envelopes, and an HTTP request should not hang through an outage);
   * an item that does not fit the ingest buffer gets `store_backlog`/`store_unavailable`.
   */
  gate?: { readonly ok: boolean; admit(bytes: number): string | undefined };
}

/** Returns `ingestUpload(body)`: resolves once every item is stored or refused. */
export function createUploadIngest(
  params: UploadIngestParams,
): (body: Uint8Array, opts?: UploadOptions) => Promise<UploadOutcome> {
  const { validation, queue, drops, clock, gate, epochSeconds } = params;
  if (!Number.isInteger(epochSeconds) || epochSeconds < 1)
    throw new TypeError('params.epochSeconds must be a positive integer');
  return async function ingestUpload(body, opts = {}) {
    const parsed = parseUploadBody(body);
    if (!parsed.ok) return { status: parsed.status, results: [], error: parsed.message };
    if (gate && !gate.ok)
      return { status: 503, results: [], error: 'the database is unreachable: nothing was stored, upload again later' };
    const results: UploadItemResult[] = new Array(parsed.items.length);
    const plain = uploadWindowUs(clock(), epochSeconds);
    const pushes: Promise<void>[] = [];
    const store1 = (index: number, bytes: Uint8Array, v: ObservedResult): Promise<void> | undefined => {
      let r: ValidationResult | { ok: false; reason: string; detail?: string } = v;
      if (r.ok) {
        const ts = r.envelope.timestamp;
        const late =
          (opts.window && outside(ts, opts.window, "the log's epoch window")) ??
          outside(ts, plain, 'the archive window');
        if (late !== undefined) r = { ok: false, reason: TIMESTAMP_OUT_OF_WINDOW, detail: late };
      }
      if (!r.ok) {
        drops.count(r.reason, undefined, 'upload', r.detail);
        results[index] =
          r.detail === undefined
            ? { index, ok: false, reason: r.reason }
            : { index, ok: false, reason: r.reason, detail: r.detail };
        return undefined;
      }
      const id = toHex(r.id);
      const shed = gate?.admit(bytes.byteLength);
      if (shed !== undefined) {
        drops.count(shed, undefined, 'upload');
        results[index] = { index, ok: false, reason: shed };
        return undefined;
      }
      return queue
        .push({ id: r.id, envelope: r.envelope, raw: bytes, source: 'upload', receivedAt: new Date(clock()) })
        .then(
          (p) => {
            results[index] = { index, ok: true, id, duplicate: !p.inserted };
          },
          (e) => {
            results[index] = { index, ok: false, reason: 'store_error', detail: String((e as Error)?.message ?? e) };
          },
        );
    };
    for (let index = 0; index < parsed.items.length; index++) {
      const el = parsed.items[index];
      if (!el.ok) {
        drops.count('decode', undefined, 'upload', el.detail);
        results[index] = { index, ok: false, reason: 'decode', detail: el.detail };
        continue;
      }
      const c = await validation.archive(el.bytes);
      if ('ok' in c) {
        const push = store1(index, el.bytes, c);
        if (push) pushes.push(push);
      } else {
        const bytes = el.bytes;
        pushes.push(c.pending.then((r) => store1(index, bytes, r)));
      }
    }
    await Promise.all(pushes);
    return { status: 200, results };
  };
}
