/**
 * Which file of the release folder a download asks for (docs/datasets.md "Releases"). Only the
 * names a release writes are served — `<table>/epoch=<n>/<table>-epoch<n>[.r<k>][-context].parquet`,
 * `epoch=<n>[.r<k>].manifest.json`, its `.manifest.sig.json` and the card (`.README.md`,
 * `.datapackage.json`, `.CITATION.cff`) — and only once that release's
 * manifest exists (a release being written is not served). Anything else is a 400 before the file system is touched; the resolved
 * path is checked to stay inside the folder, and symlinks are refused, so no request can read a
 * file outside it.
 */
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { TABLE_NAMES } from './schema';

const FILE = new RegExp(`^(?:(${TABLE_NAMES.join('|')})/epoch=(0|[1-9]\\d{0,9})/\\1-epoch\\2(\\.r[1-9]\\d{0,3})?(?:-context)?\\.parquet|epoch=(0|[1-9]\\d{0,9})(\\.r[1-9]\\d{0,3})?\\.(?:manifest\\.json|manifest\\.sig\\.json|README\\.md|datapackage\\.json|CITATION\\.cff))$`);
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.=-]{0,99}$/;

export type ReleaseFile =
  | { ok: true; path: string; size: number; name: string; contentType: string }
  | { ok: false; status: 400 | 404; error: string };

/** Resolves the URL path segments of a release file under `dir`. */
export function releaseFile(dir: string, segments: string[]): ReleaseFile {
  if (segments.length === 0 || segments.length > 3 || !segments.every((s) => SEGMENT.test(s))) {
    return { ok: false, status: 400, error: 'not a release file name' };
  }
  const rel = segments.join('/');
  const m = FILE.exec(rel);
  if (!m) return { ok: false, status: 400, error: 'not a release file name' };
  const epoch = m[2] ?? m[4];
  const revision = (m[2] !== undefined ? m[3] : m[5]) ?? '';
  const root = resolve(dir);
  const path = resolve(root, ...segments);
  if (!path.startsWith(root + sep)) return { ok: false, status: 400, error: 'not a release file name' };
  const manifest = join(root, `epoch=${epoch}${revision}.manifest.json`);
  if (!existsSync(manifest) || !existsSync(path)) return { ok: false, status: 404, error: `no released file ${rel}` };
  const st = lstatSync(path);
  if (!st.isFile() || !realpathSync(path).startsWith(realpathSync(root) + sep)) return { ok: false, status: 404, error: `no released file ${rel}` };
  const name = segments[segments.length - 1];
  const contentType = name.endsWith('.json') ? 'application/json' : name.endsWith('.md') ? 'text/markdown; charset=utf-8' : name.endsWith('.cff') ? 'application/x-yaml; charset=utf-8' : 'application/vnd.apache.parquet';
  return { ok: true, path, size: st.size, name, contentType };
}
