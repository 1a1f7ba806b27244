/**
 * SATI registration files (docs/chain.md "Registration file"): the JSON an agent's TokenMetadata
 * `uri` points at (ERC-8004 merged with the Metaplex/Phantom fields). Untrusted input, read into
 * a bounded, sanitised profile: strings cut to size, at most {@link MAX_SERVICES} services, an
 * image only as an http(s) URL or a raster `data:image/…` URI (no SVG: it can carry script), and
 * the 0x01 mesh endpoint (`zerox1-mesh`) only when it looks like a multiaddr. Pure and
 * browser-safe; fetching the file is lib/chain/node/registration-fetch.ts.
 */

/** Largest registration file read (bytes). */
export const MAX_REGISTRATION_BYTES = 64 * 1024;
/** Most services kept from one file. */
export const MAX_SERVICES = 32;
/** The service name the 0x01 spec gives an agent's libp2p multiaddr. */
export const MESH_SERVICE = 'zerox1-mesh';

/** One advertised service: `{name, endpoint, version}`. */
export interface RegistrationService {
  name: string;
  endpoint: string;
  version?: string;
}

/** What the observatory keeps of a registration file. */
export interface RegistrationProfile {
  name?: string;
  description?: string;
  /** Sanitised: an http(s) URL or a data:image/(png|jpeg|gif|webp) URI. */
  image?: string;
  services: RegistrationService[];
  /** The `zerox1-mesh` endpoint, a multiaddr. */
  meshEndpoint?: string;
}

const cut = (v: unknown, max: number): string | undefined => {
  if (typeof v !== 'string') return undefined;
  // Control characters are dropped: the text is shown, never interpreted.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this pattern's job
  const s = v.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return s ? s.slice(0, max) : undefined;
};

const MULTIADDR = /^(\/[A-Za-z0-9._~:%+-]+){2,}$/;

/** An image reference safe to put in an <img src>: http(s) URL or raster data URI; else undefined. */
export function sanitiseImage(v: unknown): string | undefined {
  const s = cut(v, 4096);
  if (!s) return undefined;
  if (/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(s)) return s;
  try {
    const u = new URL(s);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}

/** Parses a registration file's text; null when it is not a JSON object. Never throws. */
export function parseRegistrationFile(text: string): RegistrationProfile | null {
  if (typeof text !== 'string' || text.length > MAX_REGISTRATION_BYTES) return null;
  let j: unknown;
  try {
    j = JSON.parse(text);
  } catch {
    return null;
  }
  if (!j || typeof j !== 'object' || Array.isArray(j)) return null;
  const o = j as Record<string, unknown>;
  const list = [...(Array.isArray(o.services) ? o.services : []), ...(Array.isArray(o.endpoints) ? o.endpoints : [])];
  const services: RegistrationService[] = [];
  for (const x of list) {
    if (services.length >= MAX_SERVICES) break;
    if (!x || typeof x !== 'object') continue;
    const r = x as Record<string, unknown>;
    const name = cut(r.name, 64);
    const endpoint = cut(r.endpoint, 512);
    if (!name || !endpoint) continue;
    const version = cut(r.version, 32);
    services.push(version ? { name, endpoint, version } : { name, endpoint });
  }
  const mesh = services.find((s) => s.name === MESH_SERVICE && MULTIADDR.test(s.endpoint));
  const p: RegistrationProfile = { services };
  const name = cut(o.name, 64);
  const description = cut(o.description, 1024);
  const image = sanitiseImage(o.image);
  if (name) p.name = name;
  if (description) p.description = description;
  if (image) p.image = image;
  if (mesh) p.meshEndpoint = mesh.endpoint;
  return p;
}

/** A `data:application/json` URI carrying `json` (what the demo agents register as their uri when it fits). */
export function registrationDataUri(json: unknown): string {
  const b = new TextEncoder().encode(JSON.stringify(json));
  let bin = '';
  for (const x of b) bin += String.fromCharCode(x);
  return `data:application/json;base64,${btoa(bin)}`;
}
