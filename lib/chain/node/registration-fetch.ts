/**
 * NODE-ONLY (server): reads a SATI registration file (lib/chain/registration-file.ts) from an
 * agent's metadata `uri`, treating it as hostile: only `data:`, `https:` and `http:` URIs, at most
 * {@link MAX_REGISTRATION_BYTES} read, a deadline for the whole read (redirects included, at
 * most three, each checked like the first), and optionally no private or loopback host (on a
 * cluster a registration file must not make the observer probe its own network). Every failure
 * is a named reason the caller counts.
 */
import { isIP } from 'node:net';
import { MAX_REGISTRATION_BYTES, parseRegistrationFile, type RegistrationProfile } from '../registration-file';

/** Why a registration file could not be read. */
export type RegistrationFailure = 'scheme' | 'private_host' | 'timeout' | 'too_large' | 'http_status' | 'network' | 'not_json' | 'redirects';

export type RegistrationRead = { ok: true; profile: RegistrationProfile } | { ok: false; reason: RegistrationFailure; detail: string };

export interface FetchRegistrationOptions {
  /** Deadline for the whole read, ms (default 5,000). */
  timeoutMs?: number;
  /** Refuse loopback, private, link-local and unspecified hosts (default false). */
  publicOnly?: boolean;
  /** Injected for tests. */
  fetch?: typeof fetch;
}

const MAX_REDIRECTS = 3;

/** Loopback, private (RFC 1918, ULA), link-local, CGNAT or unspecified, for an IP literal or `localhost`. */
export function isPrivateHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const v = isIP(h);
  if (v === 4) {
    const [a, b] = h.split('.').map(Number);
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (v === 6) {
    if (h === '::' || h === '::1') return true;
    if (/^(fc|fd)/.test(h) || /^fe[89ab]/.test(h)) return true;
    const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
    return m ? isPrivateHost(m[1]) : false;
  }
  return false;
}

/** The text of a data: URI (base64 or percent-encoded; raw JSON is tolerated). */
function dataUriText(uri: string): { ok: true; text: string } | { ok: false; reason: RegistrationFailure; detail: string } {
  const comma = uri.indexOf(',');
  if (comma < 0) return { ok: false, reason: 'not_json', detail: 'data: URI without a comma' };
  const meta = uri.slice(5, comma).toLowerCase();
  const body = uri.slice(comma + 1);
  let bytes: Uint8Array;
  if (meta.endsWith(';base64')) {
    if (body.length > Math.ceil((MAX_REGISTRATION_BYTES * 4) / 3) + 4) return { ok: false, reason: 'too_large', detail: `over ${MAX_REGISTRATION_BYTES} bytes` };
    bytes = Buffer.from(body, 'base64');
  } else {
    try {
      bytes = new TextEncoder().encode(decodeURIComponent(body));
    } catch {
      bytes = new TextEncoder().encode(body);
    }
  }
  if (bytes.length > MAX_REGISTRATION_BYTES) return { ok: false, reason: 'too_large', detail: `over ${MAX_REGISTRATION_BYTES} bytes` };
  return { ok: true, text: new TextDecoder().decode(bytes) };
}

/** Reads and parses the registration file at `uri` (module comment). Never throws. */
export async function fetchRegistrationFile(uri: string, o: FetchRegistrationOptions = {}): Promise<RegistrationRead> {
  const fetchFn = o.fetch ?? fetch;
  const parsed = (text: string): RegistrationRead => {
    const profile = parseRegistrationFile(text);
    return profile ? { ok: true, profile } : { ok: false, reason: 'not_json', detail: 'not a JSON object' };
  };
  if (typeof uri !== 'string' || uri.length === 0) return { ok: false, reason: 'scheme', detail: 'empty uri' };
  if (uri.slice(0, 5).toLowerCase() === 'data:') {
    const t = dataUriText(uri);
    return t.ok ? parsed(t.text) : t;
  }
  const signal = AbortSignal.timeout(o.timeoutMs ?? 5_000);
  let url = uri;
  try {
    for (let hop = 0; ; hop++) {
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        return { ok: false, reason: 'scheme', detail: `not a URL: ${url.slice(0, 100)}` };
      }
      if (u.protocol !== 'https:' && u.protocol !== 'http:') return { ok: false, reason: 'scheme', detail: `${u.protocol} is not http(s) or data:` };
      if (o.publicOnly && isPrivateHost(u.hostname)) return { ok: false, reason: 'private_host', detail: `${u.hostname} is a private or loopback host` };
      const res = await fetchFn(u, { redirect: 'manual', signal, headers: { accept: 'application/json' } });
      if (res.status >= 300 && res.status < 400 && res.headers.get('location')) {
        await res.body?.cancel().catch(() => undefined);
        if (hop >= MAX_REDIRECTS) return { ok: false, reason: 'redirects', detail: `more than ${MAX_REDIRECTS} redirects` };
        url = new URL(res.headers.get('location') as string, u).toString();
        continue;
      }
      if (!res.ok) {
        await res.body?.cancel().catch(() => undefined);
        return { ok: false, reason: 'http_status', detail: `HTTP ${res.status}` };
      }
      const declared = Number(res.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > MAX_REGISTRATION_BYTES) {
        await res.body?.cancel().catch(() => undefined);
        return { ok: false, reason: 'too_large', detail: `content-length ${declared}` };
      }
      const chunks: Uint8Array[] = [];
      let n = 0;
      if (res.body) {
        const reader = res.body.getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          n += value.byteLength;
          if (n > MAX_REGISTRATION_BYTES) {
            await reader.cancel().catch(() => undefined);
            return { ok: false, reason: 'too_large', detail: `over ${MAX_REGISTRATION_BYTES} bytes` };
          }
          chunks.push(value);
        }
      }
      return parsed(Buffer.concat(chunks).toString('utf8'));
    }
  } catch (e) {
    const name = (e as Error)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') return { ok: false, reason: 'timeout', detail: `no answer in ${o.timeoutMs ?? 5_000} ms` };
    return { ok: false, reason: 'network', detail: String((e as Error)?.message ?? e).slice(0, 200) };
  }
}
