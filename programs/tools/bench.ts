/**
 * `npm run bench:programs [-- name ...]`: compute units per instruction. Each program folder may
 * have a bench.ts whose default export returns rows { instruction, cu, target? }; without names,
 * every folder with a bench.ts runs. Prints each figure with its target (default 200,000 CU).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROGRAMS_DIR, programNames } from './build';

export interface BenchRow {
  instruction: string;
  cu: bigint;
  target?: bigint;
}
export const DEFAULT_TARGET = 200_000n;

async function main(names: string[]): Promise<number> {
  const selected = names.length ? names : programNames().filter((n) => existsSync(join(PROGRAMS_DIR, n, 'bench.ts')));
  let over = 0;
  console.log(
    `${'program'.padEnd(14)} ${'instruction'.padEnd(36)} ${'CU'.padStart(10)} ${'target'.padStart(10)}  ratio`,
  );
  for (const name of selected) {
    const file = join(PROGRAMS_DIR, name, 'bench.ts');
    if (!existsSync(file)) {
      console.error(`no ${file}`);
      over++;
      continue;
    }
    const mod = (await import(pathToFileURL(file).href)) as { default: () => BenchRow[] | Promise<BenchRow[]> };
    for (const row of await mod.default()) {
      const target = row.target ?? DEFAULT_TARGET;
      const ratio = Number(row.cu) / Number(target);
      if (row.cu > target) over++;
      console.log(
        `${name.padEnd(14)} ${row.instruction.padEnd(36)} ${row.cu.toString().padStart(10)} ` +
          `${target.toString().padStart(10)}  ${ratio.toFixed(3)}${row.cu > target ? '  OVER TARGET' : ''}`,
      );
    }
  }
  return over ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
