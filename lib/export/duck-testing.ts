/**
 * DuckDB for the reader tests (a dev dependency, package.json): one in-memory database per call,
 * rows as JSON-safe objects (DuckDB's own text of wide integers and decimals). `null` when the
 * package is not installed, so a test can say why it skips.
 */
type Result = { getRowObjectsJson(): Record<string, unknown>[] };
type Con = { runAndReadAll(sql: string): Promise<Result>; closeSync(): void };
type Duck = { DuckDBInstance: { create(path: string): Promise<{ connect(): Promise<Con> }> } };

let duck: Duck | null = null;
try {
  duck = (await import('@duckdb/node-api')) as unknown as Duck;
} catch {
  duck = null;
}

export const duckSkip = duck ? false : '@duckdb/node-api is not installed (npm ci installs it)';

/** Runs each query in one fresh database and returns each one's rows. */
export async function duckQuery(...sql: string[]): Promise<Record<string, unknown>[][]> {
  const con = await (await duck!.DuckDBInstance.create(':memory:')).connect();
  try {
    const out: Record<string, unknown>[][] = [];
    for (const q of sql) out.push((await con.runAndReadAll(q)).getRowObjectsJson());
    return out;
  } finally {
    con.closeSync();
  }
}

/** A path as a DuckDB string literal. */
export const sqlPath = (p: string) => `'${p.replace(/'/g, "''")}'`;
