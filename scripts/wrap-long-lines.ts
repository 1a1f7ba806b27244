// Keeps source lines within 120 columns where the formatter cannot: Biome breaks code but not
// the text of a comment or of a string, so this codemod rewraps comments at word boundaries and
// splits long string literals into a concatenation of shorter ones ('part one ' + 'part two',
// the same value), then lets Biome lay the result out. It repeats until nothing changes, so a
// second run changes nothing. What it cannot break (a URL, a word longer than the line, a line
// of a multi-line template, code) is listed; ALLOWED below names the few lines kept on purpose.
//
// Usage: node --import tsx --import ./scripts/setup-node.mjs scripts/wrap-long-lines.ts [--check] [files…]
//        without --check: rewrites the tracked source (or the files given) and lists what is left;
//        with --check: rewrites nothing, lists every line over the width and exits 1 if any.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { listedFiles } from './code-shape';
import {
  breakSubstitution,
  literalsOf,
  MIN_SPLIT,
  multiLineValue,
  splitLiteral,
  sqlSpaces,
  wrapSqlLine,
} from './wrap-long-lines-literals';
import {
  comments,
  type Edit,
  type LongLine,
  literalKind,
  moveTrailingComment,
  nodeAt,
  offsetOfColumn,
  parse,
  splitLines,
  WIDTH,
  width,
  wrapComment,
} from './wrap-long-lines-text';

export type { LongKind, LongLine } from './wrap-long-lines-text';
export { WIDTH, width } from './wrap-long-lines-text';

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/**
 * Lines kept over the width on purpose: path → the line's text, trimmed. Each needs a reason the
 * line cannot be broken without changing what the code does.
 */
export const ALLOWED: Record<string, string[]> = {};

/** Generated code is written by its generator and not held to the width; git-ignored files are never listed. */
export function generated(path: string): boolean {
  return (
    path.startsWith('lib/store/generated/') ||
    path.startsWith('lib/chain/gen/') ||
    path.startsWith('programs/include/gen/') ||
    path.startsWith('programs/build/') ||
    path.split('/').some((part) => part === 'node_modules' || part === '.next')
  );
}

/** The repository's source files (tracked, or new and not ignored) other than generated code. */
export function sourceFiles(root: string): string[] {
  return listedFiles(root, (p) => SOURCE.test(p) && !generated(p));
}

/** Columns a line takes: code points, so an ellipsis or an emoji counts once. */
export function longLines(path: string, text: string): LongLine[] {
  const { starts, lines } = splitLines(text);
  const long = lines.map((l, i) => [l, i] as const).filter(([l]) => width(l) > WIDTH);
  if (long.length === 0) return [];
  const sf = parse(path, text);
  const all = comments(sf);
  return long.map(([l, i]) => {
    const pos = starts[i] + offsetOfColumn(l, WIDTH);
    const inComment = all.some((c) => c.pos <= pos && pos < c.end);
    // past the width in code (a `;`, a `, async () => {`): named by the longest literal on the line
    const onLine = literalsOf(sf)
      .filter((x) => x.start < starts[i] + l.length && x.end > starts[i])
      .sort((x, y) => y.end - y.start - (x.end - x.start))[0];
    const kind = inComment
      ? 'comment'
      : (literalKind(nodeAt(sf, pos)) ?? (onLine ? (literalKind(onLine.node) ?? 'other') : 'other'));
    return { path, line: i + 1, width: width(l), kind, text: l };
  });
}

/** The long lines of the tree, less the ones ALLOWED. */
export function treeLongLines(root: string, files = sourceFiles(root)): LongLine[] {
  return files.flatMap((p) => {
    const allowed = new Set(ALLOWED[p] ?? []);
    return longLines(p, readFileSync(join(root, p), 'utf8')).filter((l) => !allowed.has(l.text.trim()));
  });
}

// ---------------------------------------------------------------------------------------------
// One round over one file

/** The edits that shorten the long lines of one file, one construct per line. */
export function wrapOnce(path: string, text: string): string {
  const { starts, lines } = splitLines(text);
  const longIdx = lines.map((_, i) => i).filter((i) => width(lines[i]) > WIDTH);
  if (longIdx.length === 0) return text;
  const sf = parse(path, text);
  const all = comments(sf);
  const lits = literalsOf(sf);
  const edits: Edit[] = [];
  const claimed = new Set<number>();
  for (const i of longIdx) {
    const a = starts[i];
    const b = a + lines[i].length;
    const over = a + offsetOfColumn(lines[i], WIDTH);
    const indent = width(/^\s*/.exec(lines[i])?.[0] ?? '');
    // a comment on the line that reaches past the width
    const c = all.find((x) => x.pos < b && x.end > a && x.end > over);
    if (c) {
      if (claimed.has(c.pos)) continue;
      claimed.add(c.pos);
      const es = wrapComment(text, c, all);
      edits.push(...(es.length ? es : moveTrailingComment(sf, c)));
      continue;
    }
    const onLine = lits
      .filter((l) => l.start < b && l.end > a)
      .sort((x, y) => {
        const xo = x.start <= over && over < x.end ? 0 : 1;
        const yo = y.start <= over && over < y.end ? 0 : 1;
        return xo - yo || y.end - y.start - (x.end - x.start) || x.start - y.start;
      });
    // a line of a multi-line SQL template
    const tpl = lits.find((l) => l.start < b && l.end > a && multiLineValue(sf, l.node));
    const spaces = tpl ? sqlSpaces(sf, tpl.node) : null;
    if (spaces) {
      const es = wrapSqlLine(text, a, lines[i], spaces);
      if (es.length > 0) {
        edits.push(...es);
        continue;
      }
    }
    const broken = breakSubstitution(sf, over);
    if (broken) {
      edits.push(broken);
      continue;
    }
    for (const l of onLine) {
      if (claimed.has(l.start)) break;
      const jsx = ts.isJsxAttribute(l.node.parent) ? 4 : 0;
      const limit = Math.max(MIN_SPLIT, WIDTH - indent - 9 - jsx);
      const e = splitLiteral(sf, l, limit);
      if (e) {
        claimed.add(l.start);
        edits.push(e);
        break;
      }
    }
  }
  return applyEdits(text, edits);
}

function applyEdits(text: string, edits: Edit[]): string {
  const sorted = [...edits].sort((x, y) => y.start - x.start || y.end - x.end);
  let out = text;
  let floor = Number.POSITIVE_INFINITY;
  for (const e of sorted) {
    if (e.end > floor) continue; // overlaps a later edit: the next round takes it
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
    floor = e.start;
  }
  return out;
}

function syntaxErrors(path: string, text: string): number {
  return ((parse(path, text) as unknown as { parseDiagnostics: unknown[] }).parseDiagnostics ?? []).length;
}

function biomeFormat(root: string, files: string[], lintFix = false): void {
  if (files.length === 0) return;
  const bin = join(root, 'node_modules', '.bin', 'biome');
  // A split that Biome lays out on one line after all (it broke the call around it instead)
  // is a one-line concatenation of templates, which the linter's useTemplate rule joins back.
  const args = lintFix
    ? ['lint', '--only=style/useTemplate', '--write', '--unsafe', '--no-errors-on-unmatched', ...files]
    : ['format', '--write', '--no-errors-on-unmatched', ...files];
  try {
    execFileSync(bin, args, { cwd: root, stdio: 'pipe' });
  } catch (err) {
    const e = err as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`biome format failed:\n${e.stdout?.toString() ?? ''}${e.stderr?.toString() ?? ''}`);
  }
}

/** Wraps the files' long lines, formatting after each round, until a round changes nothing. */
export function wrapTree(root: string, files: string[], rounds = 12): string[] {
  const changed = new Set<string>();
  let pending = files;
  let joined = false;
  const original = new Map<string, string>();
  for (let r = 0; r < rounds && pending.length > 0; r++) {
    const touched: string[] = [];
    for (const p of pending) {
      const before = readFileSync(join(root, p), 'utf8');
      if (!original.has(p)) original.set(p, before);
      const after = wrapOnce(p, before);
      if (after === before) continue;
      if (syntaxErrors(p, after) > syntaxErrors(p, before)) {
        console.error(`${p}: wrapping would break the syntax; left as it is`);
        continue;
      }
      writeFileSync(join(root, p), after);
      touched.push(p);
      changed.add(p);
    }
    biomeFormat(root, touched);
    if (process.env.WRAP_DEBUG) console.error(`round ${r}: ${touched.join(' ')}`);
    pending = touched;
    if (pending.length === 0 && r < rounds - 1 && !joined) {
      joined = true;
      const all = [...changed].sort();
      biomeFormat(root, all, true);
      biomeFormat(root, all);
      // a joined template is not split again: Biome would put the split back on one line
      pending = [];
    }
  }
  return [...changed].filter((p) => readFileSync(join(root, p), 'utf8') !== original.get(p)).sort();
}

export function describeLong(l: LongLine): string {
  return `  ${l.path}:${l.line} (${l.width} columns, ${l.kind}) ${l.text.trim().slice(0, 90)}`;
}

function main(args: string[]): number {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const given = args.filter((a) => !a.startsWith('--'));
  const files = given.length > 0 ? given.filter((p) => SOURCE.test(p) && !generated(p)) : sourceFiles(root);
  if (!args.includes('--check')) {
    const changed = wrapTree(root, files);
    console.log(`wrapped long lines in ${changed.length} file(s)`);
  }
  const left = treeLongLines(root, files);
  for (const l of left) console.log(describeLong(l));
  const byKind = new Map<string, number>();
  for (const l of left) byKind.set(l.kind, (byKind.get(l.kind) ?? 0) + 1);
  const summary = [...byKind].map(([k, n]) => `${n} ${k}`).join(', ');
  console.log(
    left.length === 0
      ? `line width: no line over ${WIDTH} columns`
      : `line width: ${left.length} line(s) over ${WIDTH} columns (${summary})`,
  );
  return left.length === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = main(process.argv.slice(2));
