// The Parquet footer every table writes: only logical types whose thrift encoding the writer gets
// right. hyparquet-writer encodes IntType.bitWidth as an i32 where the format says i8; hyparquet
// reads that back, but DuckDB refuses the whole footer ("TProtocolException: Invalid data"), so an
// INTEGER logical type anywhere makes the file unreadable to the most common independent reader.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parquetMetadata } from 'hyparquet';
import { TABLES } from './tables';
import { parquetEncoder, parquetSchema } from './writers';

const tables = Object.values(TABLES);

test('no table declares the INTEGER logical type; unsigned 64-bit columns are UINT_64 converted types', () => {
  assert.ok(tables.length >= 5);
  for (const t of tables) {
    for (const el of parquetSchema(t)) {
      assert.notEqual(
        (el as { logical_type?: { type?: string } }).logical_type?.type,
        'INTEGER',
        `${t.name}.${el.name}`,
      );
    }
  }
  const feedback = tables.find((t) => t.name === 'feedback')!;
  const ts = parquetSchema(feedback).find((e) => e.name === 'timestamp')!;
  assert.equal(ts.converted_type, 'UINT_64');
});

test('a u64 timestamp column reads back from the footer as UINT_64 with its value', () => {
  const feedback = tables.find((t) => t.name === 'feedback')!;
  const col = feedback.columns.find((c) => c.name === 'timestamp')!;
  const enc = parquetEncoder({ ...feedback, columns: [col] });
  const bytes = Buffer.concat(
    [enc.start(), enc.group([[18446744073709551615n]], 1), enc.finish()].map((b) => Buffer.from(b)),
  );
  const meta = parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
  const el = meta.schema.find((e) => e.name === 'timestamp')!;
  assert.equal(el.converted_type, 'UINT_64');
  assert.equal(el.logical_type, undefined);
});
