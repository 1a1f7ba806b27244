/**
 * Measures the Parquet writer candidates on our envelopes table (docs/decisions/parquet-writer.md):
 * rows/s, peak RSS above the process's RSS once the rows are built, file size, and whether
 * hyparquet (and DuckDB's own reader) read the file back with the right row count and one exact
 * value. Each candidate runs in its own process so RSS figures do not mix.
 *
 * DuckDB, parquet-wasm and apache-arrow are not project dependencies (only hyparquet-writer was
 * kept); install them without saving to re-run the measurement:
 *   npm install --no-save @duckdb/node-api@1.5.6-r.1 parquet-wasm@0.8.0 apache-arrow@21.2.0
 *   node --import tsx --import ./scripts/setup-node.mjs scripts/bench-export-parquet-writers.ts [ROWS]
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { makeDeals } from '../lib/export/deals-testing';
import { envelopeRow } from '../lib/export/rows';
import type { Row } from '../lib/export/schema';
import { TABLES } from '../lib/export/tables';
import { writeFormat } from '../lib/export/writers';

/** A candidate installed by hand (module comment); a clear message when it is not. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function optional(name: string): Promise<any> {
  try {
    return await import(name);
  } catch {
    throw new Error(`${name} is not installed: npm install --no-save ${name} (see this file's comment)`);
  }
}

const schema = TABLES.envelopes;

function buildRows(n: number): Row[] {
  const fx = makeDeals({ deals: Math.ceil(n / 11), seed: 3 });
  return fx.items.slice(0, n).map((it, i) => {
    const e = it.envelope;
    return envelopeRow({
      id: it.id,
      seq: String(i + 1),
      version: e.version,
      msg_type: e.msgType,
      sender: e.sender,
      recipient: e.recipient,
      ts: e.timestamp.toString(),
      block_ref: e.blockRef.toString(),
      nonce: e.nonce.toString(),
      conversation_id: e.conversationId,
      payload_hash: e.payloadHash,
      payload_len: e.payloadLen,
      signature: e.signature,
      raw: it.raw,
      source: it.source,
      topic: it.topic ?? null,
      received_at: it.receivedAt,
      epoch: Number(e.timestamp / 3_600_000_000n),
    });
  });
}

async function hyparquetWriter(rows: Row[], file: string) {
  const out = createWriteStream(file);
  for await (const c of writeFormat(
    'parquet',
    schema,
    (async function* () {
      for (let i = 0; i < rows.length; i += 5000) yield rows.slice(i, i + 5000);
    })(),
  )) {
    if (!out.write(c)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  await new Promise<void>((r) => out.end(() => r()));
}

const DUCK: Record<string, string> = {
  string: 'VARCHAR',
  u64: 'VARCHAR',
  i128: 'VARCHAR',
  int32: 'INTEGER',
  int64: 'BIGINT',
  double: 'DOUBLE',
  bool: 'BOOLEAN',
  bytes: 'BLOB',
  timestamp: 'TIMESTAMPTZ',
  u64_timestamp: 'UBIGINT',
};

async function duckdb(rows: Row[], file: string) {
  const { DuckDBInstance, DuckDBTimestampTZValue } = await optional('@duckdb/node-api');
  const inst = await DuckDBInstance.create(':memory:');
  const con = await inst.connect();
  await con.run(`CREATE TABLE t (${schema.columns.map((c) => `"${c.name}" ${DUCK[c.type]}`).join(', ')})`);
  const app = await con.createAppender('t');
  for (const r of rows) {
    for (const c of schema.columns) {
      const v = r[c.name];
      if (v === null || v === undefined) {
        app.appendNull();
        continue;
      }
      switch (c.type) {
        case 'string':
        case 'u64':
        case 'i128':
          app.appendVarchar(String(v));
          break;
        case 'int32':
          app.appendInteger(v as number);
          break;
        case 'int64':
          app.appendBigInt(v as bigint);
          break;
        case 'double':
          app.appendDouble(v as number);
          break;
        case 'bool':
          app.appendBoolean(v as boolean);
          break;
        case 'bytes':
          app.appendBlob(v as Uint8Array);
          break;
        case 'timestamp':
          app.appendTimestampTZ(new DuckDBTimestampTZValue(v as bigint));
          break;
        case 'u64_timestamp':
          app.appendUBigInt(v as bigint);
          break;
      }
    }
    app.endRow();
  }
  app.closeSync();
  await con.run(`COPY t TO '${file}' (FORMAT parquet, COMPRESSION snappy)`);
  con.closeSync();
}

async function parquetWasm(rows: Row[], file: string) {
  const arrow = await optional('apache-arrow');
  const pw = await optional('parquet-wasm');
  const types: Record<string, () => unknown> = {
    string: () => new arrow.Utf8(),
    u64: () => new arrow.Utf8(),
    i128: () => new arrow.Utf8(),
    int32: () => new arrow.Int32(),
    int64: () => new arrow.Int64(),
    double: () => new arrow.Float64(),
    bool: () => new arrow.Bool(),
    bytes: () => new arrow.Binary(),
    timestamp: () => new arrow.TimestampMicrosecond('UTC'),
    u64_timestamp: () => new arrow.Uint64(),
  };
  const cols: Record<string, unknown> = {};
  // Arrow's microsecond builder takes milliseconds (it multiplies by 1000).
  const val = (t: string, v: unknown) => (v == null ? null : t === 'timestamp' ? Number(v as bigint) / 1000 : v);
  for (const c of schema.columns)
    cols[c.name] = arrow.vectorFromArray(
      rows.map((r) => val(c.type, r[c.name])),
      types[c.type](),
    );
  const table = new arrow.Table(cols);
  const wasmTable = pw.Table.fromIPCStream(arrow.tableToIPC(table, 'stream'));
  const props = new pw.WriterPropertiesBuilder().setCompression(pw.Compression.SNAPPY).build();
  const bytes = pw.writeParquet(wasmTable, props);
  await import('node:fs/promises').then((f) => f.writeFile(file, bytes));
}

const CANDIDATES = {
  'hyparquet-writer': hyparquetWriter,
  '@duckdb/node-api': duckdb,
  'parquet-wasm': parquetWasm,
} as const;

async function child(name: keyof typeof CANDIDATES, n: number, file: string) {
  const rows = buildRows(n);
  globalThis.gc?.();
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const t0 = performance.now();
  await CANDIDATES[name](rows, file);
  const s = (performance.now() - t0) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  const buf = readFileSync(file);
  const back = await parquetReadObjects({
    file: buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer,
    utf8: false,
  });
  const i = Math.floor(n / 2);
  const same =
    back.length === n &&
    Buffer.from(back[i].raw as Uint8Array).equals(Buffer.from(rows[i].raw as Uint8Array)) &&
    String(back[i].nonce) === String(rows[i].nonce);
  console.log(
    JSON.stringify({
      name,
      rows: n,
      seconds: s,
      rowsPerSec: Math.round(n / s),
      peakAboveIdleMB: Math.round((peak - idle) / 1e6),
      bytes: statSync(file).size,
      hyparquetReadsBack: same,
    }),
  );
}

const [arg, name, file] = process.argv.slice(2);
if (name) await child(name as keyof typeof CANDIDATES, Number(arg), file);
else {
  const n = Number(arg ?? 50_000);
  for (const c of Object.keys(CANDIDATES)) {
    const f = join(tmpdir(), `zx-pq-${process.pid}-${c.replace(/\W/g, '')}.parquet`);
    const r = spawnSync(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        '--import',
        './scripts/setup-node.mjs',
        'scripts/bench-export-parquet-writers.ts',
        String(n),
        c,
        f,
      ],
      { encoding: 'utf8' },
    );
    process.stdout.write(r.stdout || `${c}: failed\n${r.stderr.slice(-2000)}\n`);
    // DuckDB's own reader as a second, independent check of each file.
    if (r.status === 0) {
      const { DuckDBInstance } = await optional('@duckdb/node-api');
      const con = await (await DuckDBInstance.create(':memory:')).connect();
      const res = await con.runAndReadAll(
        `SELECT count(*)::INT AS n, count(DISTINCT id)::INT AS ids FROM read_parquet('${f}')`,
      );
      console.log(`  duckdb reads ${c}: ${JSON.stringify(res.getRowObjects()[0])}`);
      con.closeSync();
    }
    rmSync(f, { force: true });
  }
}
