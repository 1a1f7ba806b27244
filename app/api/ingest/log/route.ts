/**
 * POST /api/ingest/log: an agent uploads the epoch log its on-chain batch commits to,
 * CBOR `[agent_id bstr(32), epoch uint, [envelope bstr, ...]]` (Content-Type application/cbor).
 * Checks, ingest and storage are lib/observer/log-upload.ts over the running observatory's
 * upload path and store; this route only bounds the body (413 past the cap, read without
 * buffering more). Response: `{ agent, epoch, entries, logMerkleRoot, stored }`, or `{ error }`
 * with 400 (naming the problem), 409 (a different log of a verified batch) or 413.
 */
import { ingestEpochLog } from '../../../../lib/observer/log-upload';
import { MAX_UPLOAD_BYTES } from '../../../../lib/observer/upload';
import { readUpload } from '../../../_lib/body';
import { handle, json, runtime, problem } from '../../../_lib/http';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  return handle(async () => {
    const o = runtime();
    const body = await readUpload(req, MAX_UPLOAD_BYTES);
    if ('tooLarge' in body) return problem(413, body.tooLarge);
    const obs = o.observatory;
    const r = await ingestEpochLog(body, { ingest: (b) => obs.ingestUpload(b), store: obs.store });
    return json(r.body, r.status);
  });
}
