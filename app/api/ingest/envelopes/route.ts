/**
 * POST /api/ingest/envelopes (issue 3): an agent uploads its bilateral envelopes as one CBOR
 * array of byte strings (Content-Type application/cbor). Archive-mode validation and storage are
 * the observer's (ingestUpload); this route only bounds the body: 413 past the cap, read without
 * buffering more than the cap. Response: `{ results: UploadItemResult[] }`, or `{ error }` with
 * 400/413.
 */
import { MAX_UPLOAD_BYTES } from '../../../../lib/observer/upload';
import { handle, json, runtime, problem } from '../../../_lib/http';

export const dynamic = 'force-dynamic';

/** The body, or null when it is larger than `cap` (reading stops there). */
async function readCapped(req: Request, cap: number): Promise<Uint8Array | null> {
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}

export async function POST(req: Request): Promise<Response> {
  return handle(async () => {
    const o = runtime();
    const declared = Number(req.headers.get('content-length') ?? NaN);
    if (Number.isFinite(declared) && declared > MAX_UPLOAD_BYTES) {
      return problem(413, `body is ${declared} bytes, max ${MAX_UPLOAD_BYTES}`);
    }
    const body = await readCapped(req, MAX_UPLOAD_BYTES);
    if (!body) return problem(413, `body is larger than ${MAX_UPLOAD_BYTES} bytes`);
    const { status, results, error } = await o.observatory.ingestUpload(body);
    if (status >= 400) return problem(status, error ?? 'upload rejected');
    return json({ results }, status);
  });
}
