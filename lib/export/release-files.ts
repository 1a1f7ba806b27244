/**
 * Which file of the release folder a download asks for (docs/datasets.md "Releases"). Only the
 * names a release writes are served — `<table>/epoch-<n>/<table>-epoch<n>.parquet` (revision 0),
 * `revisions/<table>/epoch-<n>/<table>-epoch<n>.r<k>.parquet`, `context/epoch-<n>/context-epoch<n>[.r<k>].parquet`,
 * `latest/<table|context>/<name>-epoch<n>.parquet` (the newest revision's copy), `epoch=<n>[.r<k>].manifest.json`,
 * its `.manifest.sig.json` and the card (`.README.md`, `.datapackage.json`, `.CITATION.cff`) — and
 * only once that release's manifest exists (a release being written is not served). Anything else
 * is a 400 before the file system is touched; the resolved path is checked to stay inside the
 * folder, and symlinks are refused, so no request can read a file outside it.
 */
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { RELEASE_TABLE_NAMES } from './schema';

const T = RELEASE_TABLE_NAMES.join('|');
const N = '0|[1-9]\\d{0,9}';
const R = '[1-9]\\d{0,3}';
/** Each pattern: the whole relative path; groups `e` (epoch) and `r` (revision, absent for 0). */
const FILES: RegExp[] = [
  new RegExp(`^(?<t>${T})/epoch-(?<e>${N})/\\k<t>-epoch\\k<e>\\.parquet$`),
  new RegExp(`^revisions/(?<t>${T})/epoch-(?<e>${N})/\\k<t>-epoch\\k<e>\\.r(?<r>${R})\\.parquet$`),
  new RegExp(`^context/epoch-(?<e>${N})/context-epoch\\k<e>(?:\\.r(?<r>${R}))?\\.parquet$`),
  new RegExp(
    `^epoch=(?<e>${N})(?:\\.r(?<r>${R}` +
      `))?\\.(?:manifest\\.json|manifest\\.sig\\.json|README\\.md|datapackage\\.json|CITATION\\.cff)$`,
  ),
];
/** The newest revision's copies: served once the epoch has a release, and replaced by each revision. */
const LATEST = new RegExp(`^latest/(?<t>${T}|context)/\\k<t>-epoch(?<e>${N})\\.parquet$`);
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9_.=-]{0,99}$/;

export type ReleaseFile =
  | { ok: true; path: string; size: number; name: string; contentType: string; latest: boolean }
  | { ok: false; status: 400 | 404; error: string };

/** Resolves the URL path segments of a release file under `dir`. */
export function releaseFile(dir: string, segments: string[]): ReleaseFile {
  if (segments.length === 0 || segments.length > 4 || !segments.every((s) => SEGMENT.test(s))) {
    return { ok: false, status: 400, error: 'not a release file name' };
  }
  const rel = segments.join('/');
  const latest = LATEST.exec(rel);
  const m = latest ?? FILES.map((re) => re.exec(rel)).find((x) => x !== null);
  if (!m?.groups) return { ok: false, status: 400, error: 'not a release file name' };
  const epoch = m.groups.e;
  const revision = m.groups.r ? `.r${m.groups.r}` : '';
  const root = resolve(dir);
  const path = resolve(root, ...segments);
  if (!path.startsWith(root + sep)) return { ok: false, status: 400, error: 'not a release file name' };
  const manifest = join(root, `epoch=${epoch}${revision}.manifest.json`);
  if (!existsSync(manifest) || !existsSync(path)) return { ok: false, status: 404, error: `no released file ${rel}` };
  const st = lstatSync(path);
  if (!st.isFile() || !realpathSync(path).startsWith(realpathSync(root) + sep))
    return { ok: false, status: 404, error: `no released file ${rel}` };
  const name = segments[segments.length - 1];
  const contentType = name.endsWith('.json')
    ? 'application/json'
    : name.endsWith('.md')
      ? 'text/markdown; charset=utf-8'
      : name.endsWith('.cff')
        ? 'application/x-yaml; charset=utf-8'
        : 'application/vnd.apache.parquet';
  return { ok: true, path, size: st.size, name, contentType, latest: latest !== null };
}
