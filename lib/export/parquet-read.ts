/**
 * Reads a whole Parquet file with hyparquet (an independent reader: not the writer's code) with
 * every value exact: hyparquet turns DECIMAL into a float64, so DECIMAL columns are read as their
 * stored two's-complement bytes and returned as bigints (u64 and int128 columns, writers.ts).
 * `exactTimes` keeps TIMESTAMP(MICROS) as bigint µs instead of a millisecond Date.
 */
import { parquetMetadata, parquetReadObjects } from 'hyparquet';

export async function readParquetExact(
  bytes: Uint8Array,
  o: { exactTimes?: boolean } = {},
): Promise<Record<string, unknown>[]> {
  const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const metadata = parquetMetadata(file);
  const decimals = new Set<string>();
  metadata.schema = metadata.schema.map((e) => {
    if (e.converted_type !== 'DECIMAL' && e.logical_type?.type !== 'DECIMAL') return e;
    decimals.add(e.name);
    const { converted_type: _c, logical_type: _l, scale: _s, precision: _p, ...plain } = e;
    return plain;
  });
  const rows = await parquetReadObjects({
    file,
    metadata,
    utf8: false,
    ...(o.exactTimes ? { parsers: { timestampFromMicroseconds: (us: bigint) => us as unknown as Date } } : {}),
  });
  if (decimals.size)
    for (const r of rows)
      for (const k of decimals) if (r[k] instanceof Uint8Array) r[k] = twosComplement(r[k] as Uint8Array);
  return rows;
}

/** A big-endian two's-complement integer. */
function twosComplement(b: Uint8Array): bigint {
  let v = 0n;
  for (const x of b) v = (v << 8n) | BigInt(x);
  return b.length && b[0] & 0x80 ? v - (1n << BigInt(8 * b.length)) : v;
}
