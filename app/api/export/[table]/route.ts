/**
 * GET /api/export/{table}?format=csv|jsonl|parquet&from=&to=&agent=&type=&limit=&job=
 * (docs/datasets.md "API"): the table streamed as a download. `X-Total-Rows` (and the schema
 * version) go out in the headers before the first row; a client that goes away aborts the
 * export, which ends the database read. Bad parameters get 400 naming the parameter.
 */
import { HttpError, handle } from '../../../_lib/http';
import { exportTable, fileName } from '../../../../lib/export/export';
import { ParamError, parseExportRequest } from '../../../../lib/export/params';
import { CONTENT_TYPES } from '../../../../lib/export/writers';
import { agentParser, exportSource } from '../../../_lib/datasets';
import { setProgress } from '../../../_lib/export-progress';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<{ table: string }> }): Promise<Response> {
  return handle(async () => {
    const { table } = await ctx.params;
    let r;
    try {
      r = parseExportRequest(table, new URL(req.url).searchParams, agentParser());
    } catch (e) {
      if (e instanceof ParamError) throw new HttpError(400, e.message);
      throw e;
    }
    const abort = new AbortController();
    req.signal.addEventListener('abort', () => abort.abort(new Error('client went away')), { once: true });
    const job = r.job;
    let written = 0;
    const out = await exportTable({
      source: exportSource(), table: r.table, format: r.format, filter: r.filter, limit: r.limit, signal: abort.signal,
      onRows: job ? (n) => { written = n; setProgress(job, { rows: n, total: out.total, done: false }); } : undefined,
    });
    if (job) setProgress(job, { rows: 0, total: out.total, done: false });
    const it = out.bytes[Symbol.asyncIterator]();
    const finish = () => { if (job) setProgress(job, { rows: Math.min(written, out.total), total: out.total, done: true }); };
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const n = await it.next();
          if (n.done) { finish(); controller.close(); } else controller.enqueue(n.value);
        } catch (e) {
          finish();
          if (!abort.signal.aborted) console.error('[api/export] stream failed', e);
          controller.error(e);
        }
      },
      async cancel() {
        abort.abort(new Error('download cancelled'));
        finish();
        await it.return?.();
      },
    }, { highWaterMark: 0 });
    return new Response(body, {
      headers: {
        'content-type': CONTENT_TYPES[r.format],
        'content-disposition': `attachment; filename="${fileName(r.table, r.format)}"`,
        'cache-control': 'no-store',
        'x-total-rows': String(out.total),
        'x-matching-rows': String(out.matching),
        'x-schema-version': String(out.schema.version),
        'access-control-expose-headers': 'x-total-rows, x-matching-rows, x-schema-version',
      },
    });
  });
}
