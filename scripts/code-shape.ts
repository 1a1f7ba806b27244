// Function and file length limits (docs/decisions/formatter-linter.md). Biome has length rules but
// no baseline, and the tree already has functions and files over the limits; so the lengths are
// measured here with the TypeScript compiler's parser, and scripts/code-shape-baseline.json lists
// the ones over the limit with their length when the limit came in. A listed one may shrink,
// never grow; nothing else may pass the limit. Tests, end-to-end code and generated code are exempt.
//
// Usage: npm run shape                      lists what breaks the limits (exit 1 if anything)
//        npm run shape -- --update-baseline rewrites the baseline with today's lengths; refuses
//                                           growth and new entries unless --accept-growth is given
//                                           (only for a mechanical change such as a reformat)
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const LIMITS = { functionLines: 80, fileLines: 500 };

export const BASELINE_PATH = 'scripts/code-shape-baseline.json';

/** One function (or file) over its limit: `name` is `path` for a file, `path::Outer.inner` for a function. */
export interface Shape {
  kind: 'function' | 'file';
  name: string;
  path: string;
  line: number;
  lines: number;
}

export interface Baseline {
  limits: typeof LIMITS;
  /** name → length in lines when it was listed */
  functions: Record<string, number>;
  files: Record<string, number>;
}

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** Tests, end-to-end code and generated code are not held to the limits. */
export function exempt(path: string): boolean {
  return (
    /\.test\.[a-z]+$/.test(path) ||
    path.startsWith('e2e/') ||
    path.startsWith('lib/store/generated/') ||
    path.startsWith('lib/chain/gen/') ||
    path.startsWith('programs/include/gen/') ||
    path.split('/').some((part) => part === 'node_modules' || part === '.next' || part === 'generated')
  );
}

/** The repository's files (tracked, or new and not ignored) that `keep` accepts, relative to `root`, sorted. */
export function listedFiles(root: string, keep: (path: string) => boolean): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return out.split('\n').filter(keep).sort();
}

/** The repository's source files (tracked or new and not ignored), relative to `root`. */
export function sourceFiles(root: string): string[] {
  return listedFiles(root, (p) => SOURCE.test(p) && !exempt(p));
}

function propertyName(name: ts.PropertyName | ts.BindingName, sf: ts.SourceFile): string {
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name))
    return name.text;
  return name.getText(sf);
}

/** A readable name for a function: its own, its variable's or property's, or the call it is passed to. */
function functionName(node: ts.Node, sf: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const named = node as ts.FunctionLikeDeclaration;
  if (named.name) return propertyName(named.name, sf);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return propertyName(parent.name, sf);
  if (ts.isExportAssignment(parent)) return 'default';
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression;
    const calleeName = ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText(sf).slice(0, 40);
    return `${calleeName}(…)`;
  }
  return '(anonymous)';
}

/** Lines from the first token (leading comments excluded) to the last, both included. */
function lineSpan(node: ts.Node, sf: ts.SourceFile): { line: number; lines: number } {
  const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
  const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
  return { line: start + 1, lines: end - start + 1 };
}

/** Every function and the file itself, with their lengths, over the limits or not. */
export function measure(path: string, text: string): Shape[] {
  const kind = path.endsWith('x') ? ts.ScriptKind.TSX : path.match(/\.[mc]?js$/) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
  const fileLines = text.length === 0 ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const shapes: Shape[] = [{ kind: 'file', name: path, path, line: 1, lines: fileLines }];
  const seen = new Map<string, number>();
  const visit = (node: ts.Node, scope: string) => {
    let inner = scope;
    if (ts.isClassLike(node)) {
      inner = `${scope}${scope ? '.' : ''}${node.name?.text ?? '(class)'}`;
    } else if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      inner = `${scope}${scope ? '.' : ''}${functionName(node, sf)}`;
      // Two functions of one name in one scope (two map callbacks) are told apart by their order.
      const n = (seen.get(inner) ?? 0) + 1;
      seen.set(inner, n);
      if (n > 1) inner = `${inner}#${n}`;
      shapes.push({ kind: 'function', name: `${path}::${inner}`, path, ...lineSpan(node, sf) });
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(sf, '');
  return shapes;
}

export function overLimit(shapes: Shape[], limits = LIMITS): Shape[] {
  return shapes.filter((s) => s.lines > (s.kind === 'file' ? limits.fileLines : limits.functionLines));
}

export interface Violation {
  shape: Shape;
  /** the baseline's length when the shape is listed there */
  listed?: number;
}

/** What breaks the rule: over the limit and not listed, or listed and longer than listed. */
export function violations(shapes: Shape[], baseline: Baseline, limits = LIMITS): Violation[] {
  const out: Violation[] = [];
  for (const shape of overLimit(shapes, limits)) {
    const listed = (shape.kind === 'file' ? baseline.files : baseline.functions)[shape.name];
    if (listed === undefined || shape.lines > listed) out.push({ shape, listed });
  }
  return out;
}

export function describeViolation({ shape, listed }: Violation, limits = LIMITS): string {
  const limit = shape.kind === 'file' ? limits.fileLines : limits.functionLines;
  const what = shape.kind === 'file' ? 'file' : shape.name.slice(shape.name.indexOf('::') + 2);
  const why =
    listed === undefined
      ? `over the limit of ${limit}`
      : `grew from ${listed} (listed in ${BASELINE_PATH}; may only shrink)`;
  return `  ${shape.path}:${shape.line} ${what}: ${shape.lines} lines, ${why}`;
}

export function measureTree(root: string): Shape[] {
  return sourceFiles(root).flatMap((p) => measure(p, readFileSync(join(root, p), 'utf8')));
}

export function readBaseline(root: string): Baseline {
  return JSON.parse(readFileSync(join(root, BASELINE_PATH), 'utf8')) as Baseline;
}

export function baselineOf(shapes: Shape[], limits = LIMITS): Baseline {
  const over = overLimit(shapes, limits).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const pick = (kind: Shape['kind']) =>
    Object.fromEntries(over.filter((s) => s.kind === kind).map((s) => [s.name, s.lines]));
  return { limits, functions: pick('function'), files: pick('file') };
}

function main(args: string[]): number {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const shapes = measureTree(root);
  const baseline = readBaseline(root);
  const found = violations(shapes, baseline);
  if (args.includes('--update-baseline')) {
    if (found.length > 0 && !args.includes('--accept-growth')) {
      console.error(
        `${found.length} function(s)/file(s) grew or are new over ` +
          `the limit; the baseline takes them only with --accept-growth:`,
      );
      for (const v of found) console.error(describeViolation(v));
      return 1;
    }
    const next = baselineOf(shapes);
    writeFileSync(join(root, BASELINE_PATH), `${JSON.stringify(next, null, 2)}\n`);
    console.log(
      `${BASELINE_PATH}: ${Object.keys(next.functions).length} functions over ${LIMITS.functionLines}` +
        ` lines, ${Object.keys(next.files).length} files over ${LIMITS.fileLines}`,
    );
    return 0;
  }
  for (const v of found) console.log(describeViolation(v));
  console.log(
    found.length === 0 ? 'code shape: within the limits and the baseline' : `code shape: ${found.length} violation(s)`,
  );
  return found.length === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1])
  process.exitCode = main(process.argv.slice(2));
