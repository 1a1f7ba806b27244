/**
 * Query parameters of GET /api/export/{table} and the CLI flags (docs/datasets.md "API"), checked
 * by lib/wire's ExportQuerySchema, the schema the API document is generated from: every bad value
 * is a ParamError naming the parameter, which the route answers with 400.
 */

import { BaseError } from '../protocol/errors';
import type { ExportFilter } from '../store/export';
import { ExportQuerySchema, ExportTablePathSchema } from '../wire/params';
import type { TableName } from './schema';
import type { Format } from './writers';

export class ParamError extends BaseError {
  override name = 'ParamError';
  constructor(
    readonly param: string,
    message: string,
  ) {
    super(`parameter "${param}": ${message}`);
  }
}

export interface ExportRequest {
  table: TableName;
  format: Format;
  filter: ExportFilter;
  limit?: number;
  job?: string;
}

const ALLOWED = Object.keys(ExportQuerySchema.shape);

/** Parses the table name and query; `parseAgent` also accepts base58 addresses when a chain runs. */
export function parseExportRequest(
  table: string,
  q: URLSearchParams,
  parseAgent?: ((s: string) => Uint8Array | null) | null,
): ExportRequest {
  const t = ExportTablePathSchema.safeParse({ table });
  if (!t.success)
    throw new ParamError(
      'table',
      `unknown table "${table}"; ${t.error.issues[0].message.replace(/^unknown table; /, '')}`,
    );
  const raw: Record<string, string> = {};
  for (const [k, v] of q) {
    if (!ALLOWED.includes(k)) throw new ParamError(k, `unknown parameter; allowed: ${ALLOWED.join(', ')}`);
    if (k in raw) throw new ParamError(k, 'given more than once');
    raw[k] = v;
  }
  const r = ExportQuerySchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new ParamError(String(issue.path[0] ?? 'query'), issue.message);
  }
  const o = r.data;
  if (o.type !== undefined && t.data.table !== 'envelopes')
    throw new ParamError('type', 'only applies to the envelopes table');
  const filter: ExportFilter = {};
  if (o.from !== undefined) filter.fromUs = o.from;
  if (o.to !== undefined) filter.toUs = o.to;
  if (o.agent !== undefined) {
    const a = o.agent.toLowerCase().replace(/^0x/, '');
    const bytes = /^[0-9a-f]{64}$/.test(a) ? Uint8Array.from(Buffer.from(a, 'hex')) : (parseAgent?.(o.agent) ?? null);
    if (!bytes) throw new ParamError('agent', 'must be 64 hex characters or a base58 agent address');
    filter.agent = bytes;
  }
  if (o.type !== undefined) filter.types = o.type;
  return { table: t.data.table, format: o.format, filter, limit: o.limit, job: o.job };
}
