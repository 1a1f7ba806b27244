/**
 * Finds references in the sources and docs that point nowhere: a section of a Markdown file cited
 * by its heading (docs/app.md "Fair limits", programs/README.md "Haggle (decisions)"), a numbered
 * section (docs/protocol.md §8), a Markdown link or `file.md#anchor`, and a repository path
 * (lib/chain/node/economy.ts, `server/config.ts`). `scripts/doc-references.test.ts` runs it over the
 * tree in `npm test` and fails with one line per broken reference; the rules of what counts as
 * resolved are in docs/architecture.md "Docs checked by machine".
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';

/** Folders (and files) scanned, relative to the repository root. */
export const SCANNED = [
  'lib',
  'server',
  'app',
  'components',
  'scripts',
  'programs',
  'e2e',
  'docs',
  'prisma',
  'README.md',
] as const;
/** Folder names never entered: installed packages, build output, generated code. */
const SKIP_DIRS = new Set([
  'node_modules',
  '.next',
  '.data',
  'generated',
  'gen',
  'bin',
  'build',
  'vectors',
  'test-results',
]);
/** Files not read: this checker's own test, whose fixtures cite broken references on purpose. */
const SKIP_FILES = new Set(['scripts/doc-references.test.ts']);
/** Files read: source, C headers, Prisma schema, Markdown. */
const SCANNED_EXT = /\.(ts|tsx|mts|mjs|cjs|js|c|h|prisma|md)$/;
/** Top-level folders a bare path may start with. */
const TOP = ['lib', 'server', 'app', 'components', 'scripts', 'programs', 'e2e', 'docs', 'prisma', 'patches', 'public'];

export interface BrokenReference {
  /** Citing file, relative to the root. */
  file: string;
  line: number;
  /** The reference as written. */
  ref: string;
  /** Why it does not resolve. */
  why: string;
}

/** A Markdown file's places a reference can name: headings (and their GitHub anchors), bold and list labels. */
interface MdTargets {
  /** Heading texts, backticks removed. */
  headings: string[];
  /** GitHub's anchors of the headings. */
  anchors: Set<string>;
  /** Bold phrases (`**Label.**`) and list items' labels (`- Label:`). */
  labels: string[];
  /** Headings and labels in order, each with the anchor of its heading (a label's: the heading above it). */
  places: Array<{ text: string; anchor: string | null; heading: boolean }>;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
export function githubSlug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

const plain = (s: string) => s.replace(/`/g, '').replace(/\*\*/g, '').replace(/\s+/g, ' ').trim();

/** Reads a Markdown file's headings, anchors and labels (fenced code blocks skipped). */
export function markdownTargets(text: string): MdTargets {
  const headings: string[] = [];
  const labels: string[] = [];
  const anchors = new Set<string>();
  const places: MdTargets['places'] = [];
  const seen = new Map<string, number>();
  let current: string | null = null;
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const f = /^\s*(```|~~~)/.exec(line);
    if (f) {
      if (fence === null) fence = f[1];
      else if (f[1] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h) {
      const text = plain(h[1]);
      headings.push(text);
      const base = githubSlug(h[1].replace(/`/g, ''));
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      current = n === 0 ? base : `${base}-${n}`;
      anchors.add(current);
      places.push({ text, anchor: current, heading: true });
      continue;
    }
    const found = [...line.matchAll(/\*\*(.+?)\*\*/g)].map((b) => b[1]);
    const l = /^\s*[-*]\s+([^:\n]{1,80}):/.exec(line);
    if (l) found.push(l[1]);
    for (const f of found) {
      labels.push(plain(f));
      places.push({ text: plain(f), anchor: current, heading: false });
    }
  }
  return { headings, anchors, labels, places };
}

/** A test of a heading or label: it holds the cited words (case-insensitive, as whole words). */
function holds(cited: string): (text: string) => boolean {
  const want = plain(cited).toLowerCase();
  const esc = want.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(^|[^\\p{L}\\p{N}_])${esc}($|[^\\p{L}\\p{N}_])`, 'u');
  return (text) => want !== '' && re.test(text.toLowerCase());
}

/** A heading or label holds the cited words (case-insensitive, as whole words). */
export function namesSection(targets: MdTargets, cited: string): boolean {
  return [...targets.headings, ...targets.labels].some(holds(cited));
}

/**
 * The anchor a link to a cited section goes to: the first heading holding the words, else the
 * heading above the first label holding them; null when neither does.
 */
export function sectionAnchor(targets: MdTargets, cited: string): string | null {
  const test = holds(cited);
  const place =
    targets.places.find((p) => p.heading && test(p.text)) ?? targets.places.find((p) => !p.heading && test(p.text));
  return place?.anchor ?? null;
}

/** A numbered section: a heading that starts with `§N` (or `N.`). */
function hasNumbered(targets: MdTargets, n: string): boolean {
  return targets.headings.some((h) => h.startsWith(`§${n} `) || h.startsWith(`§${n}.`) || h.startsWith(`${n}. `));
}

/** Paths git ignores (build output), from the root .gitignore: a cited one need not exist. */
function ignoredPrefixes(root: string): string[] {
  let text = '';
  try {
    text = readFileSync(join(root, '.gitignore'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#') && !l.startsWith('!') && !l.includes('*'))
    .map((l) => l.replace(/^\//, ''));
}

function walk(root: string, rel: string, out: string[]): void {
  const abs = join(root, rel);
  let st;
  try {
    st = statSync(abs);
  } catch {
    return;
  }
  if (st.isFile()) {
    if (SCANNED_EXT.test(rel)) out.push(rel);
    return;
  }
  for (const name of readdirSync(abs).sort()) {
    if (SKIP_DIRS.has(name) || name.startsWith('.')) continue;
    walk(root, rel ? join(rel, name) : name, out);
  }
}

/** Every file the scan reads, relative to `root`. */
export function scannedFiles(root: string): string[] {
  const out: string[] = [];
  for (const r of SCANNED) walk(root, r, out);
  return out.map((f) => f.split(sep).join('/')).filter((f) => !SKIP_FILES.has(f));
}

/**
 * The text with each line break and the comment marker that starts the next line (`//`, ` * `)
 * replaced by one space, so a cited heading that wraps still reads as one; `at(i)` maps a
 * position back to its 1-based line.
 */
function flatten(text: string, markdown: boolean): { flat: string; at(i: number): number } {
  const re = markdown ? /[ \t]*\n[ \t]*(?:>[ \t]*)?/g : /[ \t]*\n[ \t]*(?:\/\/+|\*(?!\/)|\/\*+|#)?[ \t]*/g;
  const pieces: string[] = [];
  const marks: Array<[number, number]> = []; // [flat index, original index] at each piece start
  let last = 0;
  let flatLen = 0;
  for (const m of text.matchAll(re)) {
    marks.push([flatLen, last]);
    const piece = text.slice(last, m.index);
    pieces.push(piece, ' ');
    flatLen += piece.length + 1;
    last = m.index + m[0].length;
  }
  marks.push([flatLen, last]);
  pieces.push(text.slice(last));
  const lineStarts: number[] = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  return {
    flat: pieces.join(''),
    at(i: number) {
      let lo = 0;
      for (let k = 0; k < marks.length; k++) if (marks[k][0] <= i) lo = k;
      const orig = marks[lo][1] + (i - marks[lo][0]);
      let line = 0;
      while (line + 1 < lineStarts.length && lineStarts[line + 1] <= orig) line++;
      return line + 1;
    },
  };
}

/** The token cut before a `]` that closes nothing (`[docs/app.md](docs/app.md)`'s link text). */
function balanced(token: string): string {
  let depth = 0;
  for (let i = 0; i < token.length; i++) {
    if (token[i] === '[') depth++;
    else if (token[i] === ']' && --depth < 0) return token.slice(0, i);
  }
  return token;
}

/**
 * The code's comments, everything else blanked to spaces (positions kept): strings, template
 * literals and regular expressions are skipped, so a path the code uses is not read as a citation.
 */
export function commentsOnly(code: string): string {
  const out: string[] = code.split('').map((ch) => (ch === '\n' ? '\n' : ' '));
  let i = 0;
  let prev = ''; // last significant code character, to tell a regex from a division
  while (i < code.length) {
    const c = code[i];
    const d = code[i + 1];
    if (c === '/' && d === '/') {
      const end = code.indexOf('\n', i);
      const stop = end < 0 ? code.length : end;
      for (let k = i; k < stop; k++) out[k] = code[k];
      i = stop;
    } else if (c === '/' && d === '*') {
      const end = code.indexOf('*/', i + 2);
      const stop = end < 0 ? code.length : end + 2;
      for (let k = i; k < stop; k++) out[k] = code[k];
      i = stop;
    } else if (c === '"' || c === "'" || c === '`') {
      i++;
      while (i < code.length && code[i] !== c) {
        if (code[i] === '\\') i++;
        else if (c !== '`' && code[i] === '\n') break;
        i++;
      }
      i++;
      prev = c;
    } else if (c === '/' && (prev === '' || '(,=:[!&|?{};+-*%<>~^'.includes(prev))) {
      i++;
      let inClass = false;
      while (i < code.length && code[i] !== '\n' && (inClass || code[i] !== '/')) {
        if (code[i] === '\\') i++;
        else if (code[i] === '[') inClass = true;
        else if (code[i] === ']') inClass = false;
        i++;
      }
      i++;
      prev = '/';
    } else {
      if (!/\s/.test(c)) prev = c;
      i++;
    }
  }
  return out.join('');
}

export function findBrokenReferences(root: string, files: string[] = scannedFiles(root)): BrokenReference[] {
  const broken: BrokenReference[] = [];
  const ignored = ignoredPrefixes(root);
  const mdCache = new Map<string, MdTargets | null>();
  const targetsOf = (rel: string): MdTargets | null => {
    if (!mdCache.has(rel)) {
      let t: MdTargets | null = null;
      try {
        t = markdownTargets(readFileSync(join(root, rel), 'utf8'));
      } catch {
        t = null;
      }
      mdCache.set(rel, t);
    }
    return mdCache.get(rel)!;
  };
  const isIgnored = (rel: string) =>
    ignored.some((p) => rel === p.replace(/\/$/, '') || rel.startsWith(p.endsWith('/') ? p : `${p}/`));
  const exists = (rel: string) => {
    if (rel.startsWith('..')) return false;
    return existsSync(join(root, rel));
  };
  /** A cited file: repository-relative first, then relative to the citing file. */
  const resolveFile = (from: string, cited: string): string | null => {
    const candidates =
      cited.startsWith('./') || cited.startsWith('../')
        ? [join(dirname(from), cited)]
        : [cited, join(dirname(from), cited)];
    for (const c of candidates) {
      const rel = normalize(c).split(sep).join('/');
      if (exists(rel)) return rel;
    }
    return null;
  };

  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const markdown = file.endsWith('.md');
    const { flat, at } = flatten(text, markdown);
    const report = (i: number, ref: string, why: string) => broken.push({ file, line: at(i), ref, why });

    // "Heading" after a Markdown file, also with a comma, an opening parenthesis or 's between:
    // docs/app.md "Fair limits", programs/README.md, "Challenge outcomes", docs/architecture.md ("Folders".
    for (const m of flat.matchAll(
      /(?<![\w/.@-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w-]+\.md)(?:'s)?,? \(?["“]([^"”]{1,120})["”]/g,
    )) {
      const [whole, cited, section] = m;
      const target = resolveFile(file, cited);
      if (target === null) {
        report(m.index, whole, `no file ${cited}`);
        continue;
      }
      const t = targetsOf(target);
      if (t && !namesSection(t, section)) report(m.index, whole, `${target} has no heading or label "${section}"`);
    }
    // "Heading" after a Markdown link: [lib/devchain/README.md](../lib/devchain/README.md) "Warp".
    if (markdown) {
      for (const m of flat.matchAll(/\]\(([^)#\s]+\.md)\),? \(?["“]([^"”]{1,120})["”]/g)) {
        const [whole, link, section] = m;
        if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
        const target = normalize(join(dirname(file), decodeURIComponent(link)))
          .split(sep)
          .join('/');
        if (!exists(target)) continue; // reported with the links below
        const t = targetsOf(target);
        if (t && !namesSection(t, section)) report(m.index, whole, `${target} has no heading or label "${section}"`);
      }
    }
    // A README cited without its path (the word README, or README's, then a quoted heading).
    for (const m of flat.matchAll(/(?<![\w/.-])README(?:'s)? ["“]([^"”]{1,120})["”]/g)) {
      report(m.index, m[0], 'name the file: which README (e.g. lib/devchain/README.md "Warp", README.md "Speed")');
    }
    // §N after a Markdown file: docs/protocol.md §8.
    for (const m of flat.matchAll(/(?<![\w/.@-])((?:[\w.-]+\/)*[\w-]+\.md) §(\d+)/g)) {
      const [whole, cited, n] = m;
      const target = resolveFile(file, cited);
      if (target === null) {
        report(m.index, whole, `no file ${cited}`);
        continue;
      }
      const t = targetsOf(target);
      if (t && !hasNumbered(t, n)) report(m.index, whole, `${target} has no section §${n}`);
    }
    // Markdown links to files of the repository, with their anchors.
    if (markdown) {
      for (const m of flat.matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = m[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('/')) continue;
        const [path, anchor] = link.split('#', 2);
        const target =
          path === ''
            ? file
            : normalize(join(dirname(file), decodeURIComponent(path)))
                .split(sep)
                .join('/');
        if (!exists(target)) {
          report(m.index, link, `no file ${target}`);
          continue;
        }
        if (anchor !== undefined && target.endsWith('.md')) {
          const t = targetsOf(target);
          if (t && !t.anchors.has(anchor)) report(m.index, link, `${target} has no heading with anchor #${anchor}`);
        }
      }
    }
    // Repository paths (lib/chain/node/economy.ts, `server/config.ts`, docs/datasets.md#bench):
    // in Markdown anywhere, in code only in comments (a string in code is a path the code uses).
    const prose = markdown ? { flat, at } : flatten(commentsOnly(text), false);
    const pathRe = new RegExp(
      `(?<![\\w/.@~$:-])(?<!\\]\\()((?:${TOP.join('|')})/[\\w.\\[\\]@+*<>{}/-]*)(#[\\w-]+)?`,
      'g',
    );
    for (const m of prose.flat.matchAll(pathRe)) {
      let cited = balanced(m[1]).replace(/[./-]+$/, '');
      const anchor = m[2]?.slice(1);
      // A glob or template (programs/bin/*.so, prisma/migrations/<name>): its literal folder must exist.
      const wild = cited.search(/[*<>{}]/);
      if (wild >= 0) cited = cited.slice(0, wild).replace(/\/[^/]*$/, '');
      if (!cited.includes('/') && wild < 0) {
        // A top-level folder name followed by a slash only (`app/`): exists by construction.
        continue;
      }
      if (isIgnored(cited)) continue;
      const found = [cited, `${cited}.ts`, `${cited}.tsx`, `${cited}.mjs`, `${cited}.md`, `${cited}.test.ts`].find(
        exists,
      );
      const here = (why: string) => broken.push({ file, line: prose.at(m.index), ref: m[0], why });
      if (!found) {
        here(`no file or folder ${cited}`);
        continue;
      }
      if (anchor !== undefined && found.endsWith('.md')) {
        const t = targetsOf(found);
        if (t && !t.anchors.has(anchor)) here(`${found} has no heading with anchor #${anchor}`);
      }
    }
    // Any other Markdown file named by itself (not before a quoted heading or a §, read above):
    // it exists, from the root or beside the citing file.
    for (const m of prose.flat.matchAll(
      /(?<![\w/.@~$:=-])(?<!\]\()((?:\.{1,2}\/)*[\w-]+(?:\/[\w.-]+)*\.md)(?![\w#-])(?!(?:'s)?,? \(?["“]| §\d)/g,
    )) {
      const cited = m[1];
      if (TOP.some((t) => cited.startsWith(`${t}/`))) continue; // read above as a repository path
      if (resolveFile(file, cited) === null)
        broken.push({ file, line: prose.at(m.index), ref: cited, why: `no file ${cited}` });
    }
  }
  return broken;
}

/** One line per broken reference: `file:line: ref — why`. */
export function formatBroken(b: BrokenReference): string {
  return `${b.file}:${b.line}: ${b.ref} — ${b.why}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = relative(process.cwd(), join(dirname(new URL(import.meta.url).pathname), '..')) || '.';
  const broken = findBrokenReferences(root);
  for (const b of broken) console.log(formatBroken(b));
  console.log(`${broken.length} broken reference(s)`);
  process.exitCode = broken.length ? 1 : 0;
}
