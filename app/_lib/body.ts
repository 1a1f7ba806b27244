/**
 * Request bodies with a size cap (size first, then structure): reading stops as
 * soon as the cap is passed, so a huge body is never buffered.
 */

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
