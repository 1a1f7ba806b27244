/**
 * What changed between two revisions of an epoch's release (docs/datasets.md "Final states:
 * revisions"): per table, rows added, removed and changed, rows matched by the table's key and
 * compared cell by cell, and the reasons the revision was written. A reader ordering revisions
 * reads from `changes` what the newer one altered without diffing the files.
 */

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readParquetExact } from './parquet-read';
import { cellText } from './rederive';
import type { TableSchema } from './schema';
import { CONTEXT_SCHEMA, TABLES } from './tables';

/** The column naming a row of each table (and of the context file). */
export const ROW_KEYS: Record<string, string> = {
  envelopes: 'id',
  context: 'id',
  offers: 'envelope_id',
  negotiations: 'conversation_id',
  feedback: 'envelope_id',
  batches: 'agent_id',
  challenges: 'address',
  reconciliation: 'agent_id',
  disputes: 'dispute_id',
};

export interface TableChange {
  added: number;
  removed: number;
  changed: number;
}

/** A revision's `changes`: the release id it differs from, why it was written, and the row changes per table. */
export interface RevisionChanges {
  since: string | null;
  reasons: string[];
  tables: Record<string, TableChange>;
}

/** Each row of a release file as key → digest of its cells. */
async function digests(path: string, schema: TableSchema, key: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!existsSync(path)) return out;
  for (const r of await readParquetExact(readFileSync(path), { exactTimes: true })) {
    const cells = schema.columns.map((c) => cellText(c.type, r[c.name], c));
    out.set(
      cellText(schema.columns.find((c) => c.name === key)!.type, r[key]) ?? '',
      createHash('sha256').update(JSON.stringify(cells)).digest('hex'),
    );
  }
  return out;
}

/**
 * The row changes from the files `before` to the files `after` (table → file relative to `dir`,
 * with its sha256): equal hashes change nothing and are not read.
 */
export async function tableChanges(
  dir: string,
  before: Record<string, { file: string; sha256: string }>,
  after: Record<string, { file: string; sha256: string }>,
): Promise<Record<string, TableChange>> {
  const out: Record<string, TableChange> = {};
  for (const [t, a] of Object.entries(after)) {
    const b = before[t];
    if (b && b.sha256 === a.sha256) {
      out[t] = { added: 0, removed: 0, changed: 0 };
      continue;
    }
    const schema = t === 'context' ? CONTEXT_SCHEMA : TABLES[t as keyof typeof TABLES];
    const old = b ? await digests(join(dir, b.file), schema, ROW_KEYS[t]) : new Map<string, string>();
    const now = await digests(join(dir, a.file), schema, ROW_KEYS[t]);
    const c: TableChange = { added: 0, removed: 0, changed: 0 };
    for (const [k, d] of now) {
      const o = old.get(k);
      if (o === undefined) c.added++;
      else if (o !== d) c.changed++;
    }
    for (const k of old.keys()) if (!now.has(k)) c.removed++;
    out[t] = c;
  }
  return out;
}
