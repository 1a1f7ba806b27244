/**
 * Uploads (`POST /api/ingest/envelopes`): a CBOR array of encoded envelopes, validated in archive
 * mode and stored through the same ingest queue as the mesh, with one result per item. One bad
 * item never costs the good ones; every refused item is a counted drop with source `upload`.
 */
import { toHex } from '../protocol/hex';
import type { ValidationResult } from '../protocol/types';
import type { IngestQueue } from '../store';
import type { DropRecorder } from './drops';
import type { UploadItemResult } from './types';
import { parseUploadBody } from './upload';
import type { Validation } from './validation';

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

export interface UploadIngestParams {
  validation: Pick<Validation, 'archive'>;
  queue: Pick<IngestQueue, 'push'>;
  drops: Pick<DropRecorder, 'count'>;
  clock: () => number;
  /**
   * The outage guard: while the database is unreachable an upload is refused whole (503: the
   * uploader still has its envelopes, and an HTTP request should not hang through an outage);
   * an item that does not fit the ingest buffer gets `store_backlog`/`store_unavailable`.
   */
  gate?: { readonly ok: boolean; admit(bytes: number): string | undefined };
}

/** Returns `ingestUpload(body)`: resolves once every item is stored or refused. */
export function createUploadIngest(params: UploadIngestParams): (body: Uint8Array) => Promise<UploadOutcome> {
  const { validation, queue, drops, clock, gate } = params;
  return async function ingestUpload(body) {
    const parsed = parseUploadBody(body);
    if (!parsed.ok) return { status: parsed.status, results: [], error: parsed.message };
    if (gate && !gate.ok) return { status: 503, results: [], error: 'the database is unreachable: nothing was stored, upload again later' };
    const results: UploadItemResult[] = new Array(parsed.items.length);
    const pushes: Promise<void>[] = [];
    const store1 = (index: number, bytes: Uint8Array, r: ValidationResult): Promise<void> | undefined => {
      if (!r.ok) {
        drops.count(r.reason, undefined, 'upload', r.detail);
        results[index] = r.detail === undefined ? { index, ok: false, reason: r.reason } : { index, ok: false, reason: r.reason, detail: r.detail };
        return undefined;
      }
      const id = toHex(r.id);
      const shed = gate?.admit(bytes.byteLength);
      if (shed !== undefined) {
        drops.count(shed, undefined, 'upload');
        results[index] = { index, ok: false, reason: shed };
        return undefined;
      }
      return queue.push({ id: r.id, envelope: r.envelope, raw: bytes, source: 'upload', receivedAt: new Date(clock()) }).then(
        (p) => { results[index] = { index, ok: true, id, duplicate: !p.inserted }; },
        (e) => { results[index] = { index, ok: false, reason: 'store_error', detail: String((e as Error)?.message ?? e) }; },
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
