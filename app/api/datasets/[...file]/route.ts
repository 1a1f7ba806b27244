/**
 * GET /api/datasets/{file} : one file of a dataset release in `<DATA_DIR>/datasets`, e.g.
 * `/api/datasets/envelopes/epoch-5/envelopes-epoch5.parquet` or `/api/datasets/epoch=5.manifest.json`
 * (docs/datasets.md "Releases"). Names other than those a release writes get 400, a missing or
 * unreleased file 404 (lib/export/release-files.ts); nothing outside the folder is ever read.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { releaseFile } from '../../../../lib/export/release-files';
import { NoQuerySchema } from '../../../../lib/wire';
import { datasetsDir } from '../../../_lib/datasets';
import { HttpError, handle, parseQuery } from '../../../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ file: string[] }> }): Promise<Response> {
  return handle(async () => {
    parseQuery(req.url, NoQuerySchema);
    const { file } = await ctx.params;
    // Segments may arrive still percent-encoded; one that does not decode is simply not a name.
    const decoded = file.map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return '%';
      }
    });
    const f = releaseFile(datasetsDir(), decoded);
    if (!f.ok) throw new HttpError(f.status, f.error);
    return new Response(Readable.toWeb(createReadStream(f.path)) as ReadableStream<Uint8Array>, {
      headers: {
        'content-type': f.contentType,
        'content-length': String(f.size),
        'content-disposition': `attachment; filename="${f.name}"`,
        // A release is never rewritten (docs/datasets.md "Releases"); `latest/` copies are replaced by each revision.
        'cache-control': f.latest ? 'no-cache' : 'public, max-age=31536000, immutable',
      },
    });
  });
}
