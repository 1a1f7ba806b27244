/**
 * Bad parameters for every documented GET route, from the API's own OpenAPI document (so a route
 * added later is probed too): a NUL, a lone surrogate and a non-UTF-8 percent-encoding in every
 * query and path parameter, and a time past year 9999 in every time parameter. Each must be
 * answered 4xx, never 500; a query parameter's 400 names it. Used by the tests
 * (server/params.integration.test.ts), `npm run abuse` (m) and `npm run fuzz`.
 */
import { MAX_TIME_MS } from '../lib/wire/input-limits';

export interface ParamProbe {
  method: 'GET';
  /** The request target, percent-encoded as sent. */
  target: string;
  /** The parameter probed (`path:<name>` for a path parameter). */
  param: string;
  kind: 'nul' | 'surrogate' | 'bad-utf8' | 'year-10000' | 'huge-time';
  /** True when the answer's error must name `param` (query parameters of routes whose path is filled validly). */
  named: boolean;
}

interface Doc {
  paths: Record<
    string,
    Record<string, { parameters?: Array<{ in: string; name: string; schema?: { pattern?: string } }> }>
  >;
}

/** Time parameters by name: every `from`/`to` of the API is a time. */
const TIME_PARAMS = new Set(['from', 'to']);

/** The first millisecond of year 10000, and a 20-digit time. */
export const YEAR_10000_MS = String(MAX_TIME_MS + 1);
const VALUES: Record<Exclude<ParamProbe['kind'], 'year-10000' | 'huge-time'>, string> = {
  nul: 'a%00b',
  // U+D800 written as UTF-8 bytes: decodes to nothing valid.
  surrogate: '%ED%A0%80',
  'bad-utf8': '%FF%FE',
};

/** A value a path parameter's documented pattern accepts (enough to reach the query parsing). */
function validPathValue(pattern: string | undefined): string {
  if (!pattern) return 'x';
  const hex = /\[0-9a-f(?:A-F)?\]\{(\d+)\}/.exec(pattern);
  if (hex) return 'ab'.repeat(Number(hex[1]) / 2).slice(0, Number(hex[1]));
  if (pattern.includes('\\d')) return '1';
  return 'x';
}

export function paramProbes(doc: Doc): ParamProbe[] {
  const out: ParamProbe[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    const op = ops.get;
    if (!op) continue;
    const params = op.parameters ?? [];
    const pathParams = params.filter((p) => p.in === 'path');
    const fill = (bad?: { name: string; value: string }) =>
      path.replace(/\{([^}]+)\}/g, (_m, n: string) =>
        bad?.name === n
          ? bad.value
          : encodeURIComponent(validPathValue(pathParams.find((p) => p.name === n)?.schema?.pattern)),
      );
    for (const p of pathParams) {
      for (const [kind, value] of Object.entries(VALUES))
        out.push({
          method: 'GET',
          target: fill({ name: p.name, value }),
          param: `path:${p.name}`,
          kind: kind as ParamProbe['kind'],
          named: false,
        });
    }
    const base = fill();
    for (const p of params.filter((x) => x.in === 'query')) {
      const named = pathParams.length === 0;
      for (const [kind, value] of Object.entries(VALUES))
        out.push({
          method: 'GET',
          target: `${base}?${p.name}=${value}`,
          param: p.name,
          kind: kind as ParamProbe['kind'],
          named,
        });
      if (TIME_PARAMS.has(p.name)) {
        const other = p.name === 'from' ? '' : 'from=0&';
        out.push({
          method: 'GET',
          target: `${base}?${other}${p.name}=${YEAR_10000_MS}`,
          param: p.name,
          kind: 'year-10000',
          named,
        });
        out.push({
          method: 'GET',
          target: `${base}?${other}${p.name}=99999999999999999999`,
          param: p.name,
          kind: 'huge-time',
          named,
        });
      }
    }
  }
  return out;
}

/** What is wrong with an answer to `probe` (null when it is right): a 5xx, or a 400 not naming a query parameter. */
export function probeFailure(probe: ParamProbe, status: number, body: string): string | null {
  if (status >= 500 || status < 400)
    return `${probe.target} (${probe.kind} in ${probe.param}) answered ${status}: ${body.slice(0, 200)}`;
  if (probe.named && status === 400 && !body.includes(probe.param))
    return `${probe.target}: the 400 does not name "${probe.param}": ${body.slice(0, 200)}`;
  return null;
}
