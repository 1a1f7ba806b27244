/**
 * The demo agent's entry as one plain JavaScript file, so agent processes start without
 * compiling TypeScript. Loading agent-main.ts through tsx's loader costs each process 2–3
 * CPU-seconds (every module of libp2p and web3.js passes through the loader hooks); eight of
 * them on two cores were most of the demo's start-up. esbuild bundles the entry with its
 * dependencies into `node_modules/.cache/zerox1/agent-main.mjs` (native addons stay external
 * and load from node_modules); a process then loads it in a few hundred ms.
 *
 * The bundle is rebuilt when any of its repository sources or package-lock.json is newer than
 * it (the list of sources is kept beside it); otherwise reused. Concurrent builders (parallel
 * tests) write to a temporary name and rename, so a reader never sees half a file.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ENTRY = fileURLToPath(new URL('./agent-main.ts', import.meta.url));
/** Native addons (and their optional speed-ups) load from node_modules at run time. */
const EXTERNAL = ['sodium-native', 'cbor-extract', 'bufferutil', 'utf-8-validate', 'bigint-buffer'];

export interface AgentEntry {
  /** The file to fork. */
  file: string;
  /** Node flags the file needs (the TypeScript entry needs tsx). */
  execArgv: string[];
  /** 'bundle' (plain JS) or 'tsx' (the TypeScript entry, when bundling is unavailable). */
  kind: 'bundle' | 'tsx';
}

const mtime = (p: string) => {
  try {
    return statSync(p).mtimeMs;
  } catch {
    return Infinity;
  }
};

/** True when `file` exists and none of its recorded sources (nor package-lock.json) is newer. */
function fresh(file: string, inputsFile: string): boolean {
  if (!existsSync(file) || !existsSync(inputsFile)) return false;
  const built = mtime(file);
  let inputs: string[];
  try {
    inputs = JSON.parse(readFileSync(inputsFile, 'utf8')) as string[];
  } catch {
    return false;
  }
  return [...inputs, 'package-lock.json'].every((p) => mtime(join(ROOT, p)) <= built);
}

/**
 * Builds the bundle when stale and returns how to start an agent. `setup` is the preload every
 * process of the project runs (scripts/setup-node.mjs). Falls back to the TypeScript entry under
 * tsx, with `onFallback` told why, when esbuild is unavailable or fails.
 */
export async function agentEntry(
  setup: string,
  opts: { cacheDir?: string; onFallback?: (why: unknown) => void } = {},
): Promise<AgentEntry> {
  const dir = opts.cacheDir ?? join(ROOT, 'node_modules', '.cache', 'zerox1');
  const file = join(dir, 'agent-main.mjs');
  const inputsFile = join(dir, 'agent-main.inputs.json');
  const bundled: AgentEntry = { file, execArgv: ['--import', setup], kind: 'bundle' };
  if (fresh(file, inputsFile)) return bundled;
  try {
    const { build } = await import('esbuild');
    const r = await build({
      entryPoints: [ENTRY],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      write: false,
      metafile: true,
      outfile: file,
      external: EXTERNAL,
      logLevel: 'silent',
      absWorkingDir: ROOT,
      // CommonJS packages inside an ES module bundle still call require() for Node builtins.
      banner: {
        js:
          'import { createRequire as __zxCreateRequire } from ' +
          "'node:module'; const require = __zxCreateRequire(import.meta.url);",
      },
    });
    const out = r.outputFiles.find((f) => f.path.endsWith('.mjs'));
    if (!out) throw new Error('esbuild wrote no bundle');
    const inputs = Object.keys(r.metafile.inputs)
      .filter((p) => !p.startsWith('node_modules/'))
      .map((p) => relative(ROOT, join(ROOT, p)));
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    writeFileSync(tmp, out.contents);
    renameSync(tmp, file);
    const tmpInputs = `${inputsFile}.${process.pid}.tmp`;
    writeFileSync(tmpInputs, JSON.stringify(inputs));
    renameSync(tmpInputs, inputsFile);
    return bundled;
  } catch (e) {
    opts.onFallback?.(e);
    return { file: ENTRY, execArgv: ['--import', 'tsx', '--import', setup], kind: 'tsx' };
  }
}
