/**
 * Builds and drives host-test.c, the host harness of the portable C readers the programs share
 * (programs/include: zx_cbor.h, zx_batch.h, zx_merkle.h, zx_ed25519.h, zx_bytes.h) and of
 * challenge's zx_judge.h, plus what the host test files share. Test-only.
 */

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';

const here = fileURLToPath(new URL('.', import.meta.url));

function which(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;
}

/**
 * Compiles the harness with clang-19 (the programs' compiler), else cc, with AddressSanitizer and
 * UBSan when the compiler has them, so an out-of-bounds read on hostile bytes fails the test.
 * Returns the binary path, or null when no C compiler is installed.
 */
export function buildHost(): string | null {
  const cc = ['clang-19', 'clang', 'cc'].find(which);
  if (!cc) return null;
  const out = join(mkdtempSync(join(tmpdir(), 'zx-host-')), 'host-test');
  const base = [
    '-std=c11',
    '-D_DEFAULT_SOURCE',
    '-Wall',
    '-Wextra',
    '-Werror',
    '-O1',
    '-g',
    '-I',
    join(here, '..', '..', 'include'),
    '-o',
    out,
    join(here, 'host-test.c'),
  ];
  let r = spawnSync(cc, ['-fsanitize=address,undefined', '-fno-sanitize-recover=all', ...base], { encoding: 'utf8' });
  if (r.status !== 0) r = spawnSync(cc, base, { encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(out)) throw new Error(`host harness build failed:\n${r.stderr}`);
  return out;
}

/** Runs the harness over `lines` (one command each) and returns its answer lines. */
export function runHost(bin: string, lines: string[]): string[] {
  const r = spawnSync(bin, [], {
    input: `${lines.join('\n')}\n`,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0' },
  });
  if (r.status !== 0) throw new Error(`host harness exited ${r.status}: ${r.stderr}`);
  const out = r.stdout.split('\n');
  out.pop();
  if (out.length !== lines.length) throw new Error(`expected ${lines.length} answers, got ${out.length}: ${r.stderr}`);
  return out;
}

export const hex = (b: Uint8Array): string => (b.length ? Buffer.from(b).toString('hex') : '-');

/**
 * Builds the harness once before the file's tests and returns the runner they call
 * (`host(lines)` → answer lines). Fails the file when no C compiler is installed.
 */
export function useHost(): (lines: string[]) => string[] {
  let bin = '';
  before(() => {
    const b = buildHost();
    if (!b) throw new Error('no C compiler (clang-19 or cc): apt-get install clang-19');
    bin = b;
  });
  return (lines) => runHost(bin, lines);
}

/** A test vector file of the repo's own copy (lib/protocol/vectors), parsed. */
export const vec = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../lib/protocol/vectors/${name}`, import.meta.url), 'utf8'));

export const M64 = (1n << 64n) - 1n;
/** An int128 as the harness's "LO HI" hex halves (two's complement). */
export const lohi = (v: bigint) => {
  const u = BigInt.asUintN(128, v);
  return `${(u & M64).toString(16)} ${(u >> 64n).toString(16)}`;
};
/** The same, each half zero-padded to 16 digits, as the harness prints them. */
export const pad16 = (v: bigint) => {
  const u = BigInt.asUintN(128, v);
  return `${(u & M64).toString(16).padStart(16, '0')} ${(u >> 64n).toString(16).padStart(16, '0')}`;
};

/**
 * `runs` single-byte mutations of `base` (replace, delete, insert a byte, or truncate), drawn by
 * fast-check from `seed` so every run checks the same cases.
 */
export function mutations(base: Uint8Array, runs: number, seed: number): Uint8Array[] {
  const cases: Uint8Array[] = [];
  fc.assert(
    fc.property(
      fc.nat(base.length - 1),
      fc.integer({ min: 0, max: 255 }),
      fc.integer({ min: 0, max: 3 }),
      (pos, byte, kind) => {
        const b = Array.from(base);
        if (kind === 0) b[pos] = byte;
        else if (kind === 1) b.splice(pos, 1);
        else if (kind === 2) b.splice(pos, 0, byte);
        else b.length = pos;
        cases.push(Uint8Array.from(b));
      },
    ),
    { numRuns: runs, seed },
  );
  return cases;
}
