/**
 * Upload body of `POST /api/ingest/envelopes`: a CBOR array of encoded envelopes,
 * each a CBOR byte string. The head is checked by hand first (size, array, item count) so a
 * hostile length cannot make the decoder allocate; the items are then decoded with cbor-x.
 */
import { Decoder } from 'cbor-x';

/** Largest accepted body, bytes. */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;
/** Most envelopes in one upload. */
export const MAX_UPLOAD_ITEMS = 10_000;

/** One array element: the envelope bytes, or why the element is not a byte string. */
export type UploadElement = { ok: true; bytes: Uint8Array } | { ok: false; detail: string };

export type ParseUploadResult =
  | { ok: true; items: UploadElement[] }
  | { ok: false; status: 400 | 413; message: string };

const decoder = new Decoder({ mapsAsObjects: false, useRecords: false, sequential: false } as never);

/** Reads the definite-length array head: item count and head length, or an error message. */
function arrayHead(b: Uint8Array): { count: number; headLen: number } | string {
  if (b.length === 0) return 'empty body: expected a CBOR array of byte strings';
  const major = b[0] >> 5;
  const info = b[0] & 0x1f;
  if (major !== 4) return `body is not a CBOR array (major type ${major})`;
  if (info < 24) return { count: info, headLen: 1 };
  if (info === 31) return 'indefinite-length arrays are not accepted';
  const n = info === 24 ? 1 : info === 25 ? 2 : info === 26 ? 4 : info === 27 ? 8 : 0;
  if (n === 0) return `malformed array head (additional info ${info})`;
  if (b.length < 1 + n) return 'truncated array head';
  let count = 0;
  for (let i = 1; i <= n; i++) count = count * 256 + b[i];
  return { count, headLen: 1 + n };
}

/**
 * Parses an upload body. 413 over {@link MAX_UPLOAD_BYTES} or {@link MAX_UPLOAD_ITEMS}; 400
 * with a message naming the problem when the body is not a CBOR array; an element that is not
 * a byte string becomes a per-item failure. Never throws.
 */
export function parseUploadBody(body: Uint8Array): ParseUploadResult {
  if (!(body instanceof Uint8Array))
    return { ok: false, status: 400, message: 'body must be bytes (application/cbor)' };
  if (body.length > MAX_UPLOAD_BYTES) {
    return { ok: false, status: 413, message: `body is ${body.length} bytes, max ${MAX_UPLOAD_BYTES}` };
  }
  const head = arrayHead(body);
  if (typeof head === 'string') return { ok: false, status: 400, message: head };
  if (head.count > MAX_UPLOAD_ITEMS) {
    return { ok: false, status: 413, message: `${head.count} items, max ${MAX_UPLOAD_ITEMS} per upload` };
  }
  // Every item needs at least one byte: a count the body cannot hold is malformed.
  if (head.count > body.length - head.headLen)
    return { ok: false, status: 400, message: `array claims ${head.count} items but the body is too short` };
  let value: unknown;
  try {
    value = decoder.decode(body);
  } catch (e) {
    return { ok: false, status: 400, message: `malformed CBOR: ${(e as Error)?.message ?? String(e)}` };
  }
  if (!Array.isArray(value)) return { ok: false, status: 400, message: 'body is not a CBOR array' };
  const items: UploadElement[] = value.map((v, i) =>
    v instanceof Uint8Array
      ? { ok: true, bytes: Uint8Array.from(v) }
      : { ok: false, detail: `item ${i} is not a byte string` },
  );
  return { ok: true, items };
}
