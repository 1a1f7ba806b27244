/**
 * Request bodies with a size cap (size first, then structure): reading stops as
 * soon as the cap is passed, so a huge body is never buffered. {@link jsonBody} is the one way a
 * route reads a JSON body: cap (413), UTF-8 JSON, no NUL or lone surrogate, then its zod schema,
 * each refusal a 400 naming the field.
 */
import { z } from 'zod';
import { jsonTextProblem } from '../../lib/wire/input-limits';
import { HttpError } from './http';

/** The body, or null when it is larger than `cap` bytes (reading stops there). */
export async function readCapped(req: Request, cap: number): Promise<Uint8Array | null> {
  if (!req.body) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.byteLength;
  }
  return out;
}

/**
 * The body of an upload bounded by `cap`: `{ tooLarge }` (for a 413) when the declared Content-Length or
 * the bytes actually read pass the cap, else the bytes.
 */
export async function readUpload(req: Request, cap: number): Promise<Uint8Array | { tooLarge: string }> {
  const declared = Number(req.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > cap) return { tooLarge: `body is ${declared} bytes, max ${cap}` };
  const body = await readCapped(req, cap);
  return body ?? { tooLarge: `body is larger than ${cap} bytes` };
}

/** The cap of {@link jsonBody} when a route names none: request bodies of the API are small objects. */
export const JSON_BODY_CAP = 16 * 1024;

/** A refusal about one field (`path` like `rules.0.name`), or about the whole body when `path` is empty. */
const fieldProblem = (path: string, problem: string): string =>
  path ? `field "${path}": ${problem}` : `body: ${problem}`;

/** The first of zod's issues as a {@link fieldProblem} sentence; an unknown field lists the allowed ones. */
export function bodyIssue(schema: z.ZodType, error: z.ZodError): string {
  const i = error.issues[0];
  const at = i.path.map(String).join('.');
  if (i.code === 'unrecognized_keys') {
    const allowed =
      schema instanceof z.ZodObject && !i.path.length ? ` (allowed: ${Object.keys(schema.shape).join(', ')})` : '';
    return fieldProblem(i.keys.map((k) => (at ? `${at}.${k}` : k)).join(', '), `unknown field${allowed}`);
  }
  return fieldProblem(at, i.message);
}

/**
 * The JSON body of `req` checked with `schema`: 413 over `cap` bytes; 400 when it is not JSON in
 * UTF-8 (`example` shows the expected shape), when a string in it holds a NUL or a lone surrogate
 * (JSON escapes can spell what no stored text may hold), or when the schema refuses it, the
 * message naming the field. An empty body is `undefined` for the schema (so "expected object").
 */
export async function jsonBody<S extends z.ZodType>(
  req: Request,
  schema: S,
  opts: { cap?: number; example?: string } = {},
): Promise<z.output<S>> {
  const bytes = await readUpload(req, opts.cap ?? JSON_BODY_CAP);
  if (!(bytes instanceof Uint8Array)) throw new HttpError(413, bytes.tooLarge);
  let raw: unknown;
  try {
    raw = bytes.length ? JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) : undefined;
  } catch {
    throw new HttpError(
      400,
      `body must be JSON in UTF-8${opts.example ? `: ${opts.example}` : ''} (what came is not JSON)`,
    );
  }
  const bad = jsonTextProblem(raw);
  if (bad) throw new HttpError(400, fieldProblem(bad.path === '(body)' ? '' : bad.path, bad.problem));
  const r = schema.safeParse(raw);
  if (!r.success) throw new HttpError(400, bodyIssue(schema, r.error));
  return r.data as z.output<S>;
}
