/**
 * POST /api/ingest/log: an agent uploads the epoch log its on-chain batch commits to, signed,
 * CBOR `[agent_id bstr(32), epoch uint, [envelope bstr, ...], (batch bstr,) signer bstr(32),
 * signature bstr(64)]` (Content-Type application/cbor; unsigned forms count only when their root
 * is the on-chain one). Checks, ingest and storage are lib/observer/log-upload.ts over the running
 * observatory's upload path, signer registry and store; this route only bounds the body (413 past
 * the cap, read without buffering more). Response: `{ agent, epoch, entries, logMerkleRoot,
 * stored }`, or `{ error }` with 400 (naming the problem), 403 (missing or wrong signature),
 * 409 (a different log is kept) or 413.
 */
import { ingestEpochLog, logUploadDeps } from '../../../../lib/observer/log-upload';
import { MAX_UPLOAD_BYTES } from '../../../../lib/observer/upload';
import { readUpload } from '../../../_lib/body';
import { handle, json, problem, runtime } from '../../../_lib/http';

export const dynamic = 'force-dynamic';

export async function POST(req: Request): Promise<Response> {
  return handle(async () => {
    const o = runtime();
    const body = await readUpload(req, MAX_UPLOAD_BYTES);
    if ('tooLarge' in body) return problem(413, body.tooLarge);
    const obs = o.observatory;
    const r = await ingestEpochLog(body, logUploadDeps(obs));
    return json(r.body, r.status);
  });
}
