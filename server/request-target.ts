/**
 * A first look at the request target, before Next sees it.
 *
 * - Next decodes dynamic path segments with decodeURIComponent and answers a malformed
 *   percent-encoding (`/agents/%ff%fe`) with a 500; a bad URL is bad input like any other, so it
 *   is refused here with a 400 naming the problem.
 * - {@link servedPath} is the path Next actually routes a target to. Limits must be keyed on it,
 *   not on the raw target: `/x/../api/stats` and `/x/%2e%2e/api/stats` are served as
 *   `/api/stats` (WHATWG URL parsing resolves dot segments, percent-encoded dots included), and
 *   `//api//stats`, `/api\stats` and `/api/stats/` are answered with a 308 to `/api/stats`.
 *   Other percent-encodings are not decoded for routing (`/%61pi/stats` is a 404), so they are
 *   left as they are.
 * - {@link clientKey} is who a request is counted against: the socket's address, with IPv4-mapped
 *   IPv6 addresses folded to IPv4 and IPv6 addresses grouped by their /64 (one host usually
 *   holds a whole /64, so counting single IPv6 addresses would let it take any number of slots).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isIPv6 } from 'node:net';
import { textProblem } from '../lib/wire/input-limits';

/** An absolute-form target (`GET http://host/path HTTP/1.1`), as sent to proxies. */
const ABSOLUTE = /^https?:\/\//i;

/** What is wrong with a request target's path, or null when it decodes. */
export function requestTargetProblem(target: string | undefined): string | null {
  if (!target) return 'the request has no target';
  // Next answers `*` (OPTIONS * HTTP/1.1) and other targets that are neither a path nor an
  // absolute URL with a 500.
  if (!target.startsWith('/') && !ABSOLUTE.test(target))
    return 'the request target must be a path starting with / (or an absolute http URL)';
  const q = target.search(/[?#]/);
  const path = q < 0 ? target : target.slice(0, q);
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return 'malformed percent-encoding in the path (each % must start a UTF-8 byte sequence such as %20)';
  }
  if (decoded.includes('\u0000')) return 'the path holds a NUL character (%00)';
  return q < 0 || target[q] === '#' ? null : queryProblem(target.slice(q + 1).split('#')[0]);
}

/**
 * What is wrong with a query string's encoding, naming the parameter: a malformed or non-UTF-8
 * percent-encoding (URL parsing would turn it into U+FFFD without a word) or a NUL or lone
 * surrogate (lib/wire/input-limits.ts). Checked here once for every route and page; the routes'
 * own query parsing (app/_lib/http.ts parseQuery) says the same for callers that skip this server.
 */
export function queryProblem(query: string): string | null {
  for (const part of query.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const rawName = eq < 0 ? part : part.slice(0, eq);
    let name: string;
    let value: string;
    try {
      name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      value = eq < 0 ? '' : decodeURIComponent(part.slice(eq + 1).replace(/\+/g, ' '));
    } catch {
      return (
        `query string: malformed percent-encoding in "${rawName.slice(0, 40)}` +
        `" (each % must start a UTF-8 byte sequence such as %20)`
      );
    }
    const badName = textProblem(name);
    if (badName) return `a query parameter name ${badName}`;
    const bad = textProblem(value);
    if (bad) return `query parameter "${name.slice(0, 40)}": ${bad}`;
  }
  return null;
}

/**
 * The path Next serves for `target` (see the module comment): dot segments resolved as URL
 * parsing does (`.`, `..`, `%2e`, `.%2E` …), backslashes as slashes, repeated slashes collapsed
 * and a trailing slash dropped (Next redirects both to this form). Never throws; a target URL
 * parsing refuses maps to itself.
 */
export function servedPath(target: string | undefined): string {
  let raw = target ?? '/';
  if (ABSOLUTE.test(raw)) {
    try {
      raw = new URL(raw).pathname;
    } catch {
      /* classified as written */
    }
  }
  const q = raw.search(/[?#]/);
  let path = q < 0 ? raw : raw.slice(0, q);
  if (!path.startsWith('/') && !path.startsWith('\\')) path = `/${path}`;
  let out: string;
  try {
    // The origin is a placeholder: only the path is read back. A target starting `//` would be
    // read as a network-path reference (host and all), so repeated slashes go first.
    out = new URL(path.replace(/[\\/]+/g, '/'), 'http://observatory.invalid').pathname;
  } catch {
    out = path;
  }
  // Resolving `..` can leave repeated slashes behind (`/a/..//b`); collapse again.
  out = out.replace(/\/{2,}/g, '/');
  if (out.length > 1 && out.endsWith('/')) out = out.slice(0, -1);
  return out;
}

/** Expands an IPv6 address to its eight 16-bit groups (null when it is not one). */
function ipv6Groups(addr: string): number[] | null {
  const zone = addr.indexOf('%');
  let a = (zone < 0 ? addr : addr.slice(0, zone)).toLowerCase();
  // An embedded IPv4 tail (::ffff:1.2.3.4) is two groups.
  a = a.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_m, b0, b1, b2, b3) => `${((+b0 << 8) | +b1).toString(16)}:${((+b2 << 8) | +b3).toString(16)}`,
  );
  const halves = a.split('::');
  if (halves.length > 2) return null;
  const parse = (s: string) =>
    s === '' ? [] : s.split(':').map((h) => (/^[0-9a-f]{1,4}$/.test(h) ? parseInt(h, 16) : NaN));
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  const fill = 8 - head.length - rest.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return null;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? fill : 0).fill(0), ...rest];
  return groups.every((g) => Number.isInteger(g)) ? groups : null;
}

/** The key a client is counted under (see the module comment); 'unknown' when the socket has no address. */
export function clientKey(remoteAddress: string | undefined): string {
  if (!remoteAddress) return 'unknown';
  if (!isIPv6(remoteAddress)) return remoteAddress;
  const g = ipv6Groups(remoteAddress);
  if (!g) return remoteAddress;
  // IPv4-mapped (::ffff:a.b.c.d): the IPv4 client it is.
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff)
    return `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
  // Loopback stays itself (tests and the demo agents).
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return '::1';
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`;
}

/** Answers 400 with a JSON `{ error }` body (the API's error shape) when the target is bad; true if it did. */
export function refuseBadTarget(req: IncomingMessage, res: ServerResponse): boolean {
  const problem = requestTargetProblem(req.url);
  if (problem === null) return false;
  res.writeHead(400, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify({ error: problem }));
  return true;
}
