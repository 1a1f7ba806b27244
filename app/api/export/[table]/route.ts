/**
 * GET /api/export/{table}?format=csv|jsonl|parquet&from=&to=&agent=&type=&limit=&job=
 * (docs/datasets.md "API"): the table streamed as a download. `X-Total-Rows` (and the schema
 * version) go out in the headers before the first row; a client that goes away aborts the
 * export, which ends the database read. Bad parameters get 400 naming the parameter. The first
 * rows are read before the headers go out (lib/export/prime.ts): an export that fails there is a
 * 500 naming it, never a 200 with an empty body. Rows a Parquet file cannot hold are set aside
 * (writers.ts parquetMisfit) and logged with their count.
 */

import { exportTable, fileName } from '../../../../lib/export/export';
import { ParamError, parseExportRequest } from '../../../../lib/export/params';
import { ExportFailedError, primeExport } from '../../../../lib/export/prime';
import { CONTENT_TYPES } from '../../../../lib/export/writers';
import { isStoreUnavailable } from '../../../../lib/store/engine';
import { agentParser, exportSource } from '../../../_lib/datasets';
import { setProgress } from '../../../_lib/export-progress';
import { HttpError, handle } from '../../../_lib/http';

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
    let setAside = 0;
    let firstReason = '';
    const out = await exportTable({
      source: exportSource(),
      table: r.table,
      format: r.format,
      filter: r.filter,
      limit: r.limit,
      signal: abort.signal,
      onRows: job
        ? (n) => {
            written = n;
            setProgress(job, { rows: n, total: out.total, done: false });
          }
        : undefined,
      onSetAside: (why) => {
        if (setAside++ === 0) firstReason = why;
      },
    });
    if (job) setProgress(job, { rows: 0, total: out.total, done: false });
    const finish = () => {
      if (job) setProgress(job, { rows: Math.min(written, out.total), total: out.total, done: true });
      if (setAside)
        console.warn(`[api/export] ${r.table} as ${r.format}: ${setAside} row(s) set aside, first: ${firstReason}`);
    };
    let primed;
    try {
      primed = await primeExport(out.bytes, `the ${r.table} export as ${r.format}`);
    } catch (e) {
      finish();
      // A database that is down is the usual 503 (handle); anything else a 500 naming the export.
      if (e instanceof ExportFailedError && !isStoreUnavailable(e.cause)) {
        console.error('[api/export]', e.message, e.cause);
        throw new HttpError(500, e.message);
      }
      throw e instanceof ExportFailedError ? e.cause : e;
    }
    const { head, it } = primed;
    const ended = primed.done;
    const body = new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          try {
            const h = head.shift();
            if (h) {
              controller.enqueue(h);
              return;
            }
            if (ended) {
              finish();
              controller.close();
              return;
            }
            const n = await it.next();
            if (n.done) {
              finish();
              controller.close();
            } else controller.enqueue(n.value);
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
      },
      { highWaterMark: 0 },
    );
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
