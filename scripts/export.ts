/**
 * npm run export -- --table negotiations|negmas|… [--from T] [--to T] [--agent HEX] [--type PROPOSE,COUNTER]
 *                   [--format csv|jsonl|parquet] [--limit N] --out FILE
 * Exports one dataset table (docs/datasets.md) from DATABASE_URL, or from the embedded PGlite in
 * <DATA_DIR>/pglite (default .data; stop the server first: PGlite is single-process). A progress
 * bar goes to stderr on a TTY. Bad flags exit 2 naming the flag. `--docs` prints the columns
 * section of docs/datasets.md.
 */
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { columnsMarkdown } from '../lib/export/docs';
import { exportTable } from '../lib/export/export';
import { ParamError, parseExportRequest } from '../lib/export/params';
import { openStore } from '../lib/store';

function flags(argv: string[]): Map<string, string> {
  const m = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--') || i + 1 >= argv.length) throw new ParamError(a, 'expected --name value pairs');
    m.set(a.slice(2), argv[++i]);
  }
  return m;
}

function bar(done: number, total: number, t0: number): string {
  const frac = total ? Math.min(1, done / total) : 1;
  const rate = done / Math.max(0.001, (Date.now() - t0) / 1000);
  const eta = rate > 0 && total > done ? `${Math.ceil((total - done) / rate)} s` : '-';
  const w = 30;
  return (
    `[${'#'.repeat(Math.round(frac * w)).padEnd(w, '.')}] ${done.toLocaleString()}/` +
    `${total.toLocaleString()} rows ${Math.round(rate).toLocaleString()}/s ETA ${eta}`
  );
}

async function main(): Promise<number> {
  if (process.argv[2] === '--docs') {
    console.log(columnsMarkdown());
    return 0;
  }
  let f: Map<string, string>;
  let req;
  try {
    f = flags(process.argv.slice(2));
    const out = f.get('out');
    if (!out) throw new ParamError('--out', 'is required');
    const table = f.get('table');
    if (!table) throw new ParamError('--table', 'is required');
    const q = new URLSearchParams();
    for (const [k, v] of f) if (k !== 'out' && k !== 'table') q.set(k, v);
    req = { ...parseExportRequest(table, q), out };
  } catch (e) {
    if (e instanceof ParamError) {
      console.error(`export: ${e.message}`);
      return 2;
    }
    throw e;
  }
  const epochSeconds = Number(process.env.EPOCH_SECONDS ?? 86_400);
  const store = await openStore({
    databaseUrl: process.env.DATABASE_URL || undefined,
    dataDir: join(process.env.DATA_DIR ?? '.data', 'pglite'),
    epochSeconds,
  });
  try {
    const tty = process.stderr.isTTY;
    const t0 = Date.now();
    let rows = 0;
    let total = 0;
    const res = await exportTable({
      source: store.exportSource(),
      table: req.table,
      format: req.format,
      filter: req.filter,
      limit: req.limit,
      onRows: (n) => {
        rows = n;
      },
    });
    total = res.total;
    const timer = tty ? setInterval(() => process.stderr.write(`\r${bar(rows, total, t0)}`), 200) : undefined;
    // A large buffer lets the file writes overlap the export instead of pausing it per chunk.
    const file = createWriteStream(req.out, { highWaterMark: 8 << 20 });
    for await (const chunk of res.bytes)
      if (!file.write(chunk)) await new Promise<void>((r) => file.once('drain', () => r()));
    await new Promise<void>((r, j) => file.end((e?: Error | null) => (e ? j(e) : r())));
    if (timer) {
      clearInterval(timer);
      process.stderr.write(`\r${bar(rows, total, t0)}\n`);
    }
    console.log(`${req.table}: ${rows} rows → ${req.out} (${req.format}, ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    return 0;
  } finally {
    await store.close();
  }
}

process.exitCode = await main();
