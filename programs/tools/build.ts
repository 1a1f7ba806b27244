/**
 * Builds every program folder (one with a program.json and *.c files) into programs/bin/<name>.so:
 * clang-19 → bitcode per file → llvm-link-19 → one relocatable object → tools/link (SBPF v0).
 *
 *   build.ts                 build all into programs/bin
 *   build.ts --out DIR       build all into DIR
 *   build.ts --check         build into a temp dir; fail if any differs from programs/bin/*.so
 *   build.ts NAME...         only these programs
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { link } from './link/link';

/** programs/: the program folders, include/ and bin/ (this file is in programs/tools). */
export const PROGRAMS_DIR = fileURLToPath(new URL('..', import.meta.url));
export const CLANG = process.env.CLANG ?? 'clang-19';
export const LLVM_LINK = process.env.LLVM_LINK ?? 'llvm-link-19';

const CFLAGS = [
  '-target',
  'bpf',
  '-mcpu=v2',
  '-O2',
  '-std=c11',
  '-fno-builtin',
  '-ffreestanding',
  '-fno-stack-protector',
  '-nostdinc',
  '-Wall',
  '-Wextra',
  '-Werror',
  '-Wno-unused-parameter',
  '-Wno-unused-function',
  '-mllvm',
  '-bpf-stack-size=4096',
  '-I',
  'include',
  '-I',
  'include/gen',
];

/** True when clang-19 and llvm-link-19 are on PATH (tests skip the compile paths otherwise). */
export function toolchainAvailable(): boolean {
  try {
    execFileSync(CLANG, ['--version'], { stdio: 'ignore' });
    execFileSync(LLVM_LINK, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Program folders: direct children of programs/ holding a program.json and at least one .c file. */
export function programNames(): string[] {
  return readdirSync(PROGRAMS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(PROGRAMS_DIR, d.name, 'program.json')))
    .filter((d) => readdirSync(join(PROGRAMS_DIR, d.name)).some((f) => f.endsWith('.c')))
    .map((d) => d.name)
    .sort();
}

/**
 * Compiles C sources (paths relative to programs/) to one SBPF v0 shared object. Paths stay
 * relative and the working directory fixed so that the output is byte-identical across machines.
 */
export function compileSources(sources: string[]): { so: Uint8Array; syscalls: string[] } {
  const tmp = mkdtempSync(join(tmpdir(), 'zx-build-'));
  try {
    const bcs = sources.sort().map((src, i) => {
      const bc = join(tmp, `${i}.bc`);
      execFileSync(CLANG, [...CFLAGS, '-emit-llvm', '-c', src, '-o', bc], {
        cwd: PROGRAMS_DIR,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      return bc;
    });
    const merged = join(tmp, 'merged.bc');
    execFileSync(LLVM_LINK, [...bcs, '-o', merged], { stdio: ['ignore', 'inherit', 'inherit'] });
    const obj = join(tmp, 'merged.o');
    execFileSync(
      CLANG,
      ['-target', 'bpf', '-mcpu=v2', '-O2', '-mllvm', '-bpf-stack-size=4096', '-c', merged, '-o', obj],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    const { so, syscalls } = link(readFileSync(obj));
    return { so, syscalls };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Builds one program folder. */
export function buildProgram(name: string): { so: Uint8Array; syscalls: string[] } {
  const dir = join(PROGRAMS_DIR, name);
  const sources = readdirSync(dir)
    .filter((f) => f.endsWith('.c'))
    .map((f) => relative(PROGRAMS_DIR, join(dir, f)));
  return compileSources(sources);
}

function main(argv: string[]): number {
  let out = join(PROGRAMS_DIR, 'bin');
  let check = false;
  const names: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out = argv[++i];
    else if (argv[i] === '--check') check = true;
    else names.push(argv[i]);
  }
  const selected = names.length ? names : programNames();
  const target = check ? mkdtempSync(join(tmpdir(), 'zx-check-')) : out;
  mkdirSync(target, { recursive: true });
  let failed = 0;
  for (const name of selected) {
    try {
      const { so, syscalls } = buildProgram(name);
      writeFileSync(join(target, `${name}.so`), so);
      if (check) {
        const committed = join(PROGRAMS_DIR, 'bin', `${name}.so`);
        const same = existsSync(committed) && Buffer.compare(readFileSync(committed), Buffer.from(so)) === 0;
        console.log(`${same ? 'same     ' : 'DIFFERENT'} ${name}.so (${so.length} bytes)`);
        if (!same) failed++;
      } else {
        console.log(`built ${name}.so: ${so.length} bytes, syscalls: ${syscalls.join(', ')}`);
      }
    } catch (e) {
      console.error(`FAILED ${name}: ${(e as Error).message}`);
      failed++;
    }
  }
  if (check) rmSync(target, { recursive: true, force: true });
  return failed ? 1 : 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = main(process.argv.slice(2));
