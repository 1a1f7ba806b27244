/**
 * `npm run vectors -- DIR`: runs every docs/protocol.md vector file (*.json, format of
 * lib/protocol/vectors/README.md) in DIR against lib/protocol, prints per-file results and ends with
 * `N passed, N failed`. Exit code 0 only when none failed. DIR defaults to lib/protocol/vectors.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runVectorFile } from '../lib/protocol/vectors';

const dir = resolve(process.argv[2] ?? join(import.meta.dirname ?? '.', '../lib/protocol/vectors'));
let passed = 0;
let failed = 0;
let files: string[] = [];
try {
  if (!statSync(dir).isDirectory()) throw new Error('not a directory');
  files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
} catch (e) {
  console.error(`cannot read ${dir}: ${(e as Error).message}`);
  failed++;
}
if (files.length === 0 && failed === 0) {
  console.error(`no *.json vector files in ${dir}`);
  failed++;
}
for (const f of files) {
  let data: unknown;
  try {
    const text = readFileSync(join(dir, f), 'utf8');
    if (text.trim() === '') throw new Error('empty file');
    data = JSON.parse(text);
  } catch (e) {
    console.log(`${f}: FAIL (${(e as Error).message})`);
    failed++;
    continue;
  }
  const r = runVectorFile(data);
  const ok = r.cases.filter((c) => c.ok).length;
  const bad = r.cases.filter((c) => !c.ok);
  passed += ok;
  failed += bad.length;
  console.log(`${f} [${r.kind}]: ${ok} passed, ${bad.length} failed`);
  for (const c of bad) console.log(`  FAIL ${c.name}: ${c.detail ?? ''}`);
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
