/**
 * Builds and drives host/host-test.c, the host harness of the portable C readers the programs share
 * (zx_cbor.h, zx_batch.h, zx_merkle.h, ../behavior_log/zx_ed25519.h). Test-only.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
  const base = ['-std=c11', '-D_DEFAULT_SOURCE', '-Wall', '-Wextra', '-Werror', '-O1', '-g', '-o', out, join(here, 'host', 'host-test.c')];
  let r = spawnSync(cc, ['-fsanitize=address,undefined', '-fno-sanitize-recover=all', ...base], { encoding: 'utf8' });
  if (r.status !== 0) r = spawnSync(cc, base, { encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(out)) throw new Error(`host harness build failed:\n${r.stderr}`);
  return out;
}

/** Runs the harness over `lines` (one command each) and returns its answer lines. */
export function runHost(bin: string, lines: string[]): string[] {
  const r = spawnSync(bin, [], {
    input: lines.join('\n') + '\n',
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
