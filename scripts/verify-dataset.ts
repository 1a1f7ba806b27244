/**
 * npm run verify-dataset -- DIR [--epoch N]
 * Rechecks the dataset releases in DIR (a `<DATA_DIR>/datasets` folder) offline: file hashes and
 * row counts, every envelope's id and signature, and every agent-epoch's log root against the
 * on-chain batch root in the manifest (lib/export/verify.ts). Prints each failure and ends with
 * `N passed, N failed`; exits 1 when anything failed, 2 on bad arguments.
 */
import { existsSync } from 'node:fs';
import { readManifests, verifyRelease } from '../lib/export/verify';

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const dir = args.find((a) => !a.startsWith('--'));
  const ei = args.indexOf('--epoch');
  const epoch = ei >= 0 ? Number(args[ei + 1]) : undefined;
  if (!dir || !existsSync(dir)) { console.error('verify-dataset: DIR (a datasets folder with epoch=N.manifest.json files) is required'); return 2; }
  if (ei >= 0 && !Number.isInteger(epoch)) { console.error('verify-dataset: --epoch must be an integer'); return 2; }
  const manifests = readManifests(dir).filter((m) => epoch === undefined || m.epoch === epoch);
  if (manifests.length === 0) { console.error(`verify-dataset: no release manifest in ${dir}`); console.log('0 passed, 1 failed'); return 1; }
  let passed = 0;
  let failed = 0;
  for (const m of manifests) {
    for (const c of await verifyRelease(dir, m)) {
      if (c.ok) passed++;
      else { failed++; console.log(`FAIL ${c.name}: ${c.detail ?? ''}`); }
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed ? 1 : 0;
}

process.exitCode = await main();
