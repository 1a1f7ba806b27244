/**
 * An export's first bytes, read before the HTTP answer commits to 200. Every writer yields a
 * fixed head first (the CSV header line, Parquet's magic) before it reads a row, so one chunk
 * proves nothing: the first two are read (or the whole stream, when shorter). A read or write
 * that fails there becomes an error answer naming the export instead of a 200 with an empty
 * or cut body; one that fails later can only abort the body, which clients see as a broken
 * download, never as a complete file.
 */
import { BaseError } from '../protocol/errors';

export interface PrimedExport {
  /** The chunks read ahead, in order. */
  head: Uint8Array[];
  /** True when the stream ended within the head. */
  done: boolean;
  /** The rest of the stream (continue with next() after the head). */
  it: AsyncIterator<Uint8Array>;
}

/** Thrown when an export fails before its first rows were written. */
export class ExportFailedError extends BaseError {
  override name = 'ExportFailedError';
}

export async function primeExport(bytes: AsyncIterable<Uint8Array>, what: string, chunks = 2): Promise<PrimedExport> {
  const it = bytes[Symbol.asyncIterator]();
  const head: Uint8Array[] = [];
  try {
    while (head.length < chunks) {
      const n = await it.next();
      if (n.done) return { head, done: true, it };
      head.push(n.value);
    }
  } catch (e) {
    await it.return?.().catch(() => undefined);
    throw new ExportFailedError(`${what} failed before its first rows: ${e instanceof Error ? e.message : String(e)}`, {
      cause: e,
    });
  }
  return { head, done: false, it };
}
