// When the Next.js build in .next is missing or older than its sources, and the build itself.
// Shared by `npm start` (builds before serving) and `npm test` (builds once before the
// end-to-end files, so no test spends its own time budget on a build).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const buildId = join(root, '.next', 'BUILD_ID');
// patches/: patch-package fixes to dependencies the browser bundle includes (postinstall applies them).
const sources = [
  'app',
  'components',
  'lib',
  'public',
  'patches',
  'next.config.ts',
  'tsconfig.json',
  'tsconfig.next.json',
  'package-lock.json',
];
const skip = new Set(['node_modules', '.next', '.data', 'generated']);

/** Newest mtime (ms) of the files the web build depends on. */
function newestSource() {
  let newest = 0;
  const visit = (p) => {
    let st;
    try {
      st = statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of readdirSync(p)) if (!skip.has(name) && !/\.test\.tsx?$/.test(name)) visit(join(p, name));
    } else if (st.mtimeMs > newest) newest = st.mtimeMs;
  };
  for (const s of sources) visit(join(root, s));
  return newest;
}

/** Why the app needs building, or null when .next is up to date. */
export function needsBuild() {
  if (!existsSync(buildId)) return 'no build in .next';
  const built = statSync(buildId).mtimeMs;
  return newestSource() > built ? 'sources changed since the last build' : null;
}

/** Runs `next build` in the foreground; true when it succeeded. */
export function buildWebApp(env) {
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'next', 'dist', 'bin', 'next'), 'build'], {
    cwd: root,
    env,
    stdio: 'inherit',
  });
  return r.status === 0;
}
