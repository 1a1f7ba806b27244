/**
 * POST /api/ingest/envelopes: an agent uploads its bilateral envelopes as one CBOR
 * array of byte strings (Content-Type application/cbor). Archive-mode validation and storage are
 * the observer's (ingestUpload); this route only bounds the body: 413 past the cap, read without
 * buffering more than the cap. Response: `{ results: UploadItemResult[] }`, or `{ error }` with
 * 400/413, or 503 (with Retry-After) while the database is unreachable.
 */
import { MAX_UPLOAD_BYTES } from '../../../../lib/observer/upload';
import { readUpload } from '../../../_lib/body';
import { handle, json, problem, runtime } from '../../../_lib/http';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  return handle(async () => {
    const o = runtime();
    const body = await readUpload(req, MAX_UPLOAD_BYTES);
    if ('tooLarge' in body) return problem(413, body.tooLarge);
    const { status, results, error } = await o.observatory.ingestUpload(body);
    if (status === 503) return json({ error: error ?? 'the database is unreachable' }, 503, { 'retry-after': '5' });
    if (status >= 400) return problem(status, error ?? 'upload rejected');
    return json({ results }, status);
  });
}
