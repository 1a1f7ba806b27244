/**
 * NODE-ONLY (server): reads a SATI registration file (lib/chain/registration-file.ts) from an
 * agent's metadata `uri`, treating it as hostile: only `data:`, `https:` and `http:` URIs, at most
 * {@link MAX_REGISTRATION_BYTES} read, a deadline for the whole read (redirects included, at
 * most three), and optionally (`publicOnly`, on a cluster) only public addresses: the request
 * goes through lib/net/outbound.ts, which resolves the name, checks every address (IPv4 written
 * inside IPv6 included), connects to the checked address only and checks every redirect again,
 * so a registration file cannot make the observer probe its own network. Every failure is a
 * named reason the caller counts, and {@link REGISTRATION_FAILURES} is what may be shown of it.
 */

import { type FailureKind, OutboundError, outboundRequest, type Resolver } from '../../net/outbound';
import { MAX_REGISTRATION_BYTES, parseRegistrationFile, type RegistrationProfile } from '../registration-file';

/** Why a registration file could not be read. */
export type RegistrationFailure =
  | 'scheme'
  | 'private_host'
  | 'timeout'
  | 'too_large'
  | 'http_status'
  | 'network'
  | 'not_json'
  | 'redirects';

/** The generic sentence of each failure: what pages and APIs show (never the system's error text). */
export const REGISTRATION_FAILURES: Record<RegistrationFailure, string> = {
  scheme: 'refused: not an http(s) or data: URI',
  private_host: 'refused: private address',
  timeout: 'timed out',
  too_large: 'too large',
  http_status: 'answered with an error status',
  network: 'could not connect',
  not_json: 'not a registration file',
  redirects: 'too many redirects',
};

export type RegistrationRead =
  | { ok: true; profile: RegistrationProfile }
  | { ok: false; reason: RegistrationFailure; detail: string };

export interface FetchRegistrationOptions {
  /** Deadline for the whole read, ms (default 5,000). */
  timeoutMs?: number;
  /** Refuse every address that is not public unicast (default false). */
  publicOnly?: boolean;
  /** Injected resolver (tests); the system's otherwise. */
  resolve?: Resolver;
}

const MAX_REDIRECTS = 3;

const REASON: Record<FailureKind, RegistrationFailure> = {
  scheme: 'scheme',
  unsupported: 'scheme',
  private_address: 'private_host',
  unresolved: 'network',
  connect: 'network',
  timeout: 'timeout',
  too_large: 'too_large',
  redirect: 'redirects',
  redirects: 'redirects',
  broken: 'network',
};

/** The text of a data: URI (base64 or percent-encoded; raw JSON is tolerated). */
function dataUriText(
  uri: string,
): { ok: true; text: string } | { ok: false; reason: RegistrationFailure; detail: string } {
  const comma = uri.indexOf(',');
  if (comma < 0) return { ok: false, reason: 'not_json', detail: 'data: URI without a comma' };
  const meta = uri.slice(5, comma).toLowerCase();
  const body = uri.slice(comma + 1);
  let bytes: Uint8Array;
  if (meta.endsWith(';base64')) {
    if (body.length > Math.ceil((MAX_REGISTRATION_BYTES * 4) / 3) + 4)
      return { ok: false, reason: 'too_large', detail: `over ${MAX_REGISTRATION_BYTES} bytes` };
    bytes = Buffer.from(body, 'base64');
  } else {
    try {
      bytes = new TextEncoder().encode(decodeURIComponent(body));
    } catch {
      bytes = new TextEncoder().encode(body);
    }
  }
  if (bytes.length > MAX_REGISTRATION_BYTES)
    return { ok: false, reason: 'too_large', detail: `over ${MAX_REGISTRATION_BYTES} bytes` };
  return { ok: true, text: new TextDecoder().decode(bytes) };
}

/** Reads and parses the registration file at `uri` (module comment). Never throws. */
export async function fetchRegistrationFile(uri: string, o: FetchRegistrationOptions = {}): Promise<RegistrationRead> {
  const parsed = (text: string): RegistrationRead => {
    const profile = parseRegistrationFile(text);
    return profile ? { ok: true, profile } : { ok: false, reason: 'not_json', detail: 'not a JSON object' };
  };
  if (typeof uri !== 'string' || uri.length === 0) return { ok: false, reason: 'scheme', detail: 'empty uri' };
  if (uri.slice(0, 5).toLowerCase() === 'data:') {
    const t = dataUriText(uri);
    return t.ok ? parsed(t.text) : t;
  }
  try {
    const res = await outboundRequest(uri, {
      method: 'GET',
      headers: { accept: 'application/json' },
      deadlineMs: o.timeoutMs ?? 5_000,
      maxBodyBytes: MAX_REGISTRATION_BYTES,
      overflow: 'fail',
      maxRedirects: MAX_REDIRECTS,
      allowPrivate: !o.publicOnly,
      resolve: o.resolve,
    });
    if (res.status < 200 || res.status >= 300)
      return { ok: false, reason: 'http_status', detail: `HTTP ${res.status}` };
    return parsed(res.body.toString('utf8'));
  } catch (e) {
    if (e instanceof OutboundError) return { ok: false, reason: REASON[e.kind], detail: e.detail || e.message };
    return { ok: false, reason: 'network', detail: String((e as Error)?.message ?? e).slice(0, 200) };
  }
}
