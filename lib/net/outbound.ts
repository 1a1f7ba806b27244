/**
 * The one way the server makes an HTTP request on someone else's behalf (webhooks, SATI
 * registration files): a URL a stranger chose must not reach this machine or its network, and
 * must not hold the caller.
 *
 * - The host is resolved once (every A and AAAA answer) and every address is checked
 *   (lib/net/addresses.ts); the socket then connects to those checked addresses only (a `lookup`
 *   that answers from the checked list, never the resolver again), so a name that re-resolves to
 *   127.0.0.1 between check and connect (DNS rebinding) cannot switch the target.
 * - Redirects are refused, or followed up to a limit with each new URL checked like the first.
 * - One deadline covers everything (resolve, connect, TLS, headers, body, every redirect hop);
 *   when it passes the socket is destroyed.
 * - At most `maxBodyBytes` of the answer are read; past that the socket is destroyed.
 *
 * A failure is an {@link OutboundError} whose message is a generic class ("could not connect",
 * "timed out", "refused: private address" …): what callers may show. The system's own error text
 * (which would tell a stranger which ports are open inside) is kept in `detail` for logs only.
 * `allowPrivate` lifts the address check (local demo), nothing else.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { type ClientRequest, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { BaseError } from '../protocol/errors';
import { refusedAddress } from './addresses';

/** The failure classes callers show; nothing else of a failed request is shown. */
export const FAILURES = {
  scheme: 'refused: not an http(s) URL',
  unsupported: 'refused: unsupported address',
  private_address: 'refused: private address',
  unresolved: 'could not connect: the name does not resolve',
  connect: 'could not connect',
  timeout: 'timed out',
  too_large: 'too large',
  redirect: 'refused: redirect',
  redirects: 'too many redirects',
  broken: 'broken answer',
} as const;
export type FailureKind = keyof typeof FAILURES;

export class OutboundError extends BaseError {
  override name = 'OutboundError';
  constructor(
    readonly kind: FailureKind,
    readonly detail: string = '',
  ) {
    super(FAILURES[kind]);
  }
}

/** The generic class of any error a request (or a dial) ended with: never the error's own text. */
export function failureClass(e: unknown): string {
  if (e instanceof OutboundError) return e.message;
  const err = e as { name?: string; code?: string } | null;
  if (
    err?.name === 'TimeoutError' ||
    err?.name === 'AbortError' ||
    err?.code === 'ETIMEDOUT' ||
    err?.code === 'ABORT_ERR'
  )
    return FAILURES.timeout;
  return FAILURES.connect;
}

/** Every address a host name resolves to (A and AAAA, as the OS resolver answers). */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (err, addrs: LookupAddress[]) =>
      err ? reject(err) : resolve(addrs.map((a) => a.address)),
    );
  });

/**
 * The addresses `host` (a name or an IP literal, brackets allowed) may be contacted at: all of
 * them checked. Throws {@link OutboundError} `unresolved` or `private_address` (one non-public
 * answer refuses the name: a resolver that mixes them is not trusted with the choice).
 */
export async function resolveChecked(
  host: string,
  o: { allowPrivate: boolean; resolve?: Resolver; refuse?: (ip: string) => string | null },
): Promise<LookupAddress[]> {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  let addrs: string[];
  if (isIP(bare)) addrs = [bare];
  else {
    try {
      addrs = await (o.resolve ?? systemResolver)(bare);
    } catch (e) {
      throw new OutboundError('unresolved', `${bare}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
    }
    if (addrs.length === 0) throw new OutboundError('unresolved', `${bare}: no address`);
  }
  if (!o.allowPrivate) {
    for (const a of addrs) {
      const why = (o.refuse ?? refusedAddress)(a);
      if (why) throw new OutboundError('private_address', isIP(bare) ? why : `${bare} resolves to ${a}: ${why}`);
    }
  }
  return addrs.map((address) => ({ address, family: isIP(address) }));
}

/** A socket `lookup` that answers from `addrs` only (the pinned, checked addresses). */
export function pinnedLookup(addrs: readonly LookupAddress[]) {
  return (
    _host: string,
    options: { family?: number | string; all?: boolean } | number,
    cb: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    const opts = typeof options === 'number' ? { family: options } : (options ?? {});
    const fam = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : Number(opts.family) || 0;
    const list = fam ? addrs.filter((a) => a.family === fam) : [...addrs];
    if (list.length === 0) {
      const e: NodeJS.ErrnoException = new Error('no checked address of that family');
      e.code = 'ENOTFOUND';
      return void cb(e, opts.all ? [] : '');
    }
    if (opts.all) cb(null, list);
    else cb(null, list[0].address, list[0].family);
  };
}

export interface OutboundOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** One deadline for the whole request, redirects included, ms. */
  deadlineMs: number;
  /** Most answer bytes read. */
  maxBodyBytes: number;
  /** `fail`: a longer answer is a `too_large` failure; `truncate`: the first bytes are kept and reading stops. */
  overflow: 'fail' | 'truncate';
  /** Redirects followed (each checked like the first URL); 0 answers a 3xx as it is. */
  maxRedirects?: number;
  allowPrivate: boolean;
  resolve?: Resolver;
  /** The address rule (tests stand a loopback address in for "outside"); lib/net/addresses.ts otherwise. */
  refuse?: (ip: string) => string | null;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Reading stopped at `maxBodyBytes` (overflow `truncate`). */
  truncated: boolean;
  /** The URL that answered (after redirects). */
  url: string;
}

/** Checks a URL's form: http(s), no credentials. */
export function checkUrlForm(raw: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new OutboundError('scheme', `not a URL: ${raw.slice(0, 100)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new OutboundError('scheme', `${u.protocol} is not http(s)`);
  if (u.username || u.password) throw new OutboundError('scheme', 'credentials in the URL');
  return u;
}

/** Makes the request (module comment). Rejects with {@link OutboundError} only. */
export async function outboundRequest(url: string, o: OutboundOptions): Promise<OutboundResponse> {
  let current: ClientRequest | null = null;
  let expired = false;
  let onExpire: (() => void) | null = null;
  const timer = setTimeout(() => {
    expired = true;
    current?.destroy(new OutboundError('timeout', `no answer within ${o.deadlineMs} ms`));
    onExpire?.();
  }, o.deadlineMs);
  const deadline = new Promise<never>((_, reject) => {
    onExpire = () => reject(new OutboundError('timeout', `no answer within ${o.deadlineMs} ms`));
  });
  deadline.catch(() => undefined);
  try {
    let u = checkUrlForm(url);
    for (let hop = 0; ; hop++) {
      // Resolution counts against the deadline too (a resolver can be made slow).
      const addrs = await Promise.race([resolveChecked(u.hostname, o), deadline]);
      if (expired) throw new OutboundError('timeout');
      const res = await Promise.race([
        once(u, addrs, o, (r) => {
          current = r;
        }),
        deadline,
      ]);
      const location = res.headers.location;
      if (res.status >= 300 && res.status < 400 && location && (o.maxRedirects ?? 0) > 0) {
        if (hop >= (o.maxRedirects ?? 0)) throw new OutboundError('redirects', `more than ${o.maxRedirects} redirects`);
        u = checkUrlForm(new URL(location, u).toString());
        continue;
      }
      return res;
    }
  } catch (e) {
    if (expired) throw new OutboundError('timeout', `no answer within ${o.deadlineMs} ms`);
    if (e instanceof OutboundError) throw e;
    throw new OutboundError(expired ? 'timeout' : 'connect', String((e as Error)?.message ?? e).slice(0, 300));
  } finally {
    clearTimeout(timer);
    (current as ClientRequest | null)?.destroy();
    current = null;
  }
}

/** One request to the pinned addresses; resolves with the status and the capped body. */
function once(
  u: URL,
  addrs: LookupAddress[],
  o: OutboundOptions,
  started: (r: ClientRequest) => void,
): Promise<OutboundResponse> {
  return new Promise((resolvePromise, rejectPromise) => {
    // The first verdict stands: destroying the socket ourselves (cap reached) must not turn into an error.
    let settled = false;
    const resolve = (r: OutboundResponse) => {
      if (!settled) {
        settled = true;
        resolvePromise(r);
      }
    };
    const reject = (e: OutboundError) => {
      if (!settled) {
        settled = true;
        rejectPromise(e);
      }
    };
    const headers: Record<string, string> = { ...o.headers };
    if (o.body !== undefined) headers['content-length'] = String(Buffer.byteLength(o.body));
    let answered = false;
    // agent: false: a fresh socket per request, so no pooled socket outlives its check.
    const req = (u.protocol === 'https:' ? httpsRequest : httpRequest)(
      u,
      { method: o.method ?? 'GET', headers, agent: false, lookup: pinnedLookup(addrs) as never },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        let n = 0;
        const done = (truncated: boolean) =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks),
            truncated,
            url: u.toString(),
          });
        const over = () => {
          if (o.overflow === 'fail') reject(new OutboundError('too_large', `over ${o.maxBodyBytes} bytes`));
          else done(true);
          res.destroy();
          req.destroy();
        };
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > o.maxBodyBytes && o.overflow === 'fail') return over();
        res.on('data', (c: Buffer) => {
          if (n + c.length > o.maxBodyBytes) {
            chunks.push(c.subarray(0, o.maxBodyBytes - n));
            n = o.maxBodyBytes;
            return over();
          }
          n += c.length;
          chunks.push(c);
        });
        res.on('end', () => done(false));
        res.on('error', (e) => reject(e instanceof OutboundError ? e : new OutboundError('broken', e.message)));
        res.on('aborted', () => reject(new OutboundError('broken', 'answer cut off')));
      },
    );
    started(req);
    req.on('error', (e: NodeJS.ErrnoException) => {
      if (e instanceof OutboundError) return reject(e);
      reject(
        new OutboundError(
          answered || e.code?.startsWith('HPE_') ? 'broken' : 'connect',
          `${e.code ?? ''} ${e.message}`.trim(),
        ),
      );
    });
    req.end(o.body);
  });
}
