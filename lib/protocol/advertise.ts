/**
 * ADVERTISE capabilities (docs/protocol.md §8, "ADVERTISE format hints"): the protocol leaves the
 * payload opaque; an agent that wants its capabilities readable starts it with `JSON` (then one
 * UTF-8 JSON object) or `CBOR` (then one canonical CBOR map or array). Anything else stays
 * opaque. The decoder reads hostile bytes from the mesh: size is checked first, nesting and item
 * counts are bounded, and it never throws.
 */

/** A decoded capability value: JSON's data model (CBOR byte strings become `0x…` hex text). */
export type AdvertValue = null | boolean | number | string | AdvertValue[] | { [key: string]: AdvertValue };

export type AdvertiseResult = { ok: true; format: 'JSON' | 'CBOR'; value: AdvertValue } | { ok: false; detail: string };

/** Largest hinted body the observatory decodes; a capability list is a few hundred bytes. */
export const ADVERTISE_MAX_BODY = 8192;
/** Deepest nesting and most items (all levels together) a decoded value may have. */
export const ADVERTISE_MAX_DEPTH = 8;
export const ADVERTISE_MAX_ITEMS = 512;

const JSON_HINT = [0x4a, 0x53, 0x4f, 0x4e]; // 'JSON'
const CBOR_HINT = [0x43, 0x42, 0x4f, 0x52]; // 'CBOR'

const hinted = (b: Uint8Array, hint: number[]) => b.length >= 4 && hint.every((c, i) => b[i] === c);

/** `JSON` + the UTF-8 text of `value` (an object), the form the demo agents advertise with. */
export function encodeAdvertiseJson(value: { [key: string]: AdvertValue }): Uint8Array {
  const body = new TextEncoder().encode(JSON.stringify(value));
  const out = new Uint8Array(4 + body.length);
  out.set(JSON_HINT);
  out.set(body, 4);
  return out;
}

/** The capabilities an ADVERTISE payload carries, or why it is opaque. Never throws. */
export function decodeAdvertise(payload: Uint8Array): AdvertiseResult {
  try {
    if (!(payload instanceof Uint8Array)) return { ok: false, detail: 'not bytes' };
    const isJson = hinted(payload, JSON_HINT);
    if (!isJson && !hinted(payload, CBOR_HINT)) return { ok: false, detail: 'no JSON or CBOR format hint' };
    const body = payload.subarray(4);
    if (body.length > ADVERTISE_MAX_BODY) return { ok: false, detail: `body larger than ${ADVERTISE_MAX_BODY} bytes` };
    return isJson ? fromJson(body) : fromCbor(body);
  } catch (e) {
    // Belt and braces: a bug above must not take the caller down with hostile input.
    return { ok: false, detail: `undecodable: ${(e as Error)?.message ?? String(e)}` };
  }
}

class Bounded {
  items = 0;
  count(depth: number): void {
    if (depth > ADVERTISE_MAX_DEPTH) throw new Error(`nested deeper than ${ADVERTISE_MAX_DEPTH}`);
    if (++this.items > ADVERTISE_MAX_ITEMS) throw new Error(`more than ${ADVERTISE_MAX_ITEMS} items`);
  }
}

function fromJson(body: Uint8Array): AdvertiseResult {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(body);
  } catch {
    return { ok: false, detail: 'JSON body is not UTF-8' };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, detail: `JSON: ${(e as Error).message}` };
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    return { ok: false, detail: 'JSON body is not an object' };
  const b = new Bounded();
  const walk = (v: unknown, depth: number): AdvertValue => {
    b.count(depth);
    if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    // Object.fromEntries defines own properties: a `__proto__` key stays a key, not a prototype.
    return Object.fromEntries(Object.entries(v as object).map(([k, x]) => [k, walk(x, depth + 1)]));
  };
  try {
    return { ok: true, format: 'JSON', value: walk(raw, 0) };
  } catch (e) {
    return { ok: false, detail: `JSON: ${(e as Error).message}` };
  }
}

/**
 * A small strict CBOR reader for the capability subset: unsigned and negative integers, byte and
 * text strings, arrays, maps with text keys, false/true/null. Definite lengths and shortest heads
 * only, map keys in canonical order (RFC 8949 §4.2.1: bytewise order of the encoded keys) with no
 * duplicates, no tags or floats, nothing after the item.
 */
function fromCbor(body: Uint8Array): AdvertiseResult {
  let pos = 0;
  const b = new Bounded();
  const fail = (why: string): never => {
    throw new Error(why);
  };
  const byte = () => (pos < body.length ? body[pos++] : fail('truncated'));
  const head = (): { major: number; arg: bigint } => {
    const ib = byte();
    const major = ib >> 5;
    const info = ib & 31;
    if (info < 24) return { major, arg: BigInt(info) };
    if (info > 27) return fail(info === 31 ? 'indefinite length' : 'reserved additional info');
    const n = 1 << (info - 24);
    let arg = 0n;
    for (let i = 0; i < n; i++) arg = (arg << 8n) | BigInt(byte());
    const min = info === 24 ? 24n : 1n << BigInt(4 * n);
    if (arg < min) fail('not the shortest head');
    return { major, arg };
  };
  const take = (len: bigint): Uint8Array => {
    if (len > BigInt(body.length - pos)) fail('truncated');
    const out = body.subarray(pos, pos + Number(len));
    pos += Number(len);
    return out;
  };
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  const item = (depth: number): AdvertValue => {
    b.count(depth);
    const start = pos;
    const { major, arg } = head();
    switch (major) {
      case 0:
        return arg <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(arg) : arg.toString();
      case 1:
        return -1n - arg >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(-1n - arg) : (-1n - arg).toString();
      case 2:
        return `0x${Array.from(take(arg), (x) => x.toString(16).padStart(2, '0')).join('')}`;
      case 3:
        try {
          return utf8.decode(take(arg));
        } catch {
          return fail('text is not UTF-8');
        }
      case 4: {
        if (arg > BigInt(ADVERTISE_MAX_ITEMS)) fail(`more than ${ADVERTISE_MAX_ITEMS} items`);
        const out: AdvertValue[] = [];
        for (let i = 0n; i < arg; i++) out.push(item(depth + 1));
        return out;
      }
      case 5: {
        if (arg > BigInt(ADVERTISE_MAX_ITEMS)) fail(`more than ${ADVERTISE_MAX_ITEMS} items`);
        const entries: [string, AdvertValue][] = [];
        let prev: Uint8Array | null = null;
        for (let i = 0n; i < arg; i++) {
          const keyStart = pos;
          const key = item(depth + 1);
          if (typeof key !== 'string' || body[keyStart] >> 5 !== 3) fail('map key is not text');
          const enc = body.subarray(keyStart, pos);
          if (prev && compareBytes(prev, enc) >= 0) fail('map keys not in canonical order (or duplicated)');
          prev = enc;
          entries.push([key as string, item(depth + 1)]);
        }
        return Object.fromEntries(entries);
      }
      case 7:
        if (arg === 20n && body[start] === 0xf4) return false;
        if (arg === 21n && body[start] === 0xf5) return true;
        if (arg === 22n && body[start] === 0xf6) return null;
        return fail('float or simple value');
      default:
        return fail('tag');
    }
  };
  try {
    if (body.length === 0) return { ok: false, detail: 'CBOR: empty body' };
    const first = body[0] >> 5;
    if (first !== 4 && first !== 5) return { ok: false, detail: 'CBOR body is not a map or an array' };
    const value = item(0);
    if (pos !== body.length) return { ok: false, detail: 'CBOR: trailing bytes' };
    return { ok: true, format: 'CBOR', value };
  } catch (e) {
    return { ok: false, detail: `CBOR: ${(e as Error).message}` };
  }
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}
