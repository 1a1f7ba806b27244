/**
 * Query parameters of GET /api/export/{table} and the CLI flags (docs/datasets.md "API"): every
 * bad value is a ParamError naming the parameter, which the route answers with 400.
 */
import { MsgType } from '../protocol/types';
import type { ExportFilter } from '../store/export';
import { TABLE_NAMES, type TableName } from './schema';
import { FORMATS, type Format } from './writers';

export class ParamError extends Error {
  override name = 'ParamError';
  constructor(readonly param: string, message: string) {
    super(`parameter "${param}": ${message}`);
  }
}

export interface ExportRequest { table: TableName; format: Format; filter: ExportFilter; limit?: number; job?: string }

const ALLOWED = new Set(['format', 'from', 'to', 'agent', 'type', 'limit', 'job']);

/** A time as unix µs: ISO-8601 (`2026-01-01T00:00:00Z`) or unix milliseconds. */
export function parseTime(name: string, s: string): bigint {
  const t = s.trim();
  if (/^\d{1,16}$/.test(t)) return BigInt(t) * 1000n;
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(t)) {
    const ms = Date.parse(t.length === 10 ? `${t}T00:00:00Z` : t);
    if (!Number.isNaN(ms)) {
      const frac = /\.(\d{1,6})/.exec(t)?.[1] ?? '';
      const extraUs = frac.length > 3 ? BigInt(frac.padEnd(6, '0').slice(3)) : 0n;
      return BigInt(ms) * 1000n + extraUs;
    }
  }
  throw new ParamError(name, 'must be an ISO-8601 time (2026-01-01T00:00:00Z) or unix milliseconds');
}

function parseTypes(s: string): number[] {
  return s.split(',').map((part) => {
    const p = part.trim();
    const up = p.toUpperCase();
    if (up in MsgType) return MsgType[up as keyof typeof MsgType] as number;
    const n = /^0x[0-9a-f]{1,2}$/i.test(p) ? parseInt(p, 16) : /^\d{1,3}$/.test(p) ? Number(p) : NaN;
    if (n >= 1 && n <= 13) return n;
    throw new ParamError('type', `unknown msg_type "${p}"; use names (${Object.keys(MsgType).join(', ')}) or codes 1..13, comma-separated`);
  });
}

/** Parses the table name and query; `parseAgent` also accepts base58 addresses when a chain runs. */
export function parseExportRequest(table: string, q: URLSearchParams, parseAgent?: ((s: string) => Uint8Array | null) | null): ExportRequest {
  if (!(TABLE_NAMES as readonly string[]).includes(table)) throw new ParamError('table', `unknown table "${table}"; one of ${TABLE_NAMES.join(', ')}`);
  const seen = new Set<string>();
  for (const k of q.keys()) {
    if (!ALLOWED.has(k)) throw new ParamError(k, `unknown parameter; allowed: ${[...ALLOWED].join(', ')}`);
    if (seen.has(k)) throw new ParamError(k, 'given more than once');
    seen.add(k);
  }
  const format = (q.get('format') ?? 'csv').trim().toLowerCase();
  if (!(FORMATS as readonly string[]).includes(format)) throw new ParamError('format', `must be one of ${FORMATS.join(', ')}`);
  const filter: ExportFilter = {};
  if (q.has('from')) filter.fromUs = parseTime('from', q.get('from')!);
  if (q.has('to')) filter.toUs = parseTime('to', q.get('to')!);
  if (filter.fromUs !== undefined && filter.toUs !== undefined && filter.toUs <= filter.fromUs) throw new ParamError('to', 'must be after "from"');
  if (q.has('agent')) {
    const a = q.get('agent')!.trim().toLowerCase().replace(/^0x/, '');
    if (/^[0-9a-f]{64}$/.test(a)) filter.agent = Uint8Array.from(Buffer.from(a, 'hex'));
    else {
      const b = parseAgent?.(q.get('agent')!.trim()) ?? null;
      if (!b) throw new ParamError('agent', 'must be 64 hex characters or a base58 agent address');
      filter.agent = b;
    }
  }
  if (q.has('type')) {
    if (table !== 'envelopes') throw new ParamError('type', 'only applies to the envelopes table');
    filter.types = parseTypes(q.get('type')!);
  }
  let limit: number | undefined;
  if (q.has('limit')) {
    const l = q.get('limit')!.trim();
    if (!/^\d{1,9}$/.test(l) || Number(l) < 1) throw new ParamError('limit', 'must be a positive integer');
    limit = Number(l);
  }
  const job = q.get('job') ?? undefined;
  if (job !== undefined && !/^[A-Za-z0-9-]{8,64}$/.test(job)) throw new ParamError('job', 'must be 8..64 letters, digits or dashes');
  return { table: table as TableName, format: format as Format, filter, limit, job };
}
