// String, template and SQL splitting for scripts/wrap-long-lines.ts: each split keeps the value
// (a concatenation of the same text), except SQL, whose whitespace between tokens may change.
import ts from 'typescript';
import { type Edit, nodeAt, WIDTH, width } from './wrap-long-lines-text';

// ---------------------------------------------------------------------------------------------
// Strings and templates

export const MIN_SPLIT = 24;

/** Why a string literal cannot become a concatenation here, or how it is written if it can. */
export function stringContext(node: ts.StringLiteral): 'js' | 'jsx' | null {
  const p = node.parent;
  if (ts.isJsxAttribute(p)) return /[&\n\r]/.test(node.text) ? null : 'jsx';
  if ((p as { name?: ts.Node }).name === node) return null; // a key, a member or module name
  if (
    ts.isImportDeclaration(p) ||
    ts.isExportDeclaration(p) ||
    ts.isImportAttribute(p) ||
    ts.isExternalModuleReference(p) ||
    ts.isLiteralTypeNode(p) ||
    ts.isExpressionStatement(p) || // a directive such as 'use client'
    ts.isEnumMember(p) ||
    ts.isCaseClause(p) ||
    ts.isElementAccessExpression(p) ||
    ts.isComputedPropertyName(p)
  )
    return null;
  if (ts.isBinaryExpression(p) && p.operatorToken.kind === ts.SyntaxKind.InKeyword) return null;
  if ((ts.isCallExpression(p) || ts.isNewExpression(p)) && staticCall(p)) return null;
  if (constAsserted(node)) return null;
  return 'js';
}

/** Calls a bundler reads statically: import(), require(), new URL(…, import.meta.url), mocks. */
export function staticCall(call: ts.CallExpression | ts.NewExpression): boolean {
  const callee = call.expression.getText();
  return (
    call.expression.kind === ts.SyntaxKind.ImportKeyword ||
    /^(require|require\.resolve|URL|Worker|SharedWorker|mock\.module|jest\.mock|vi\.mock)$/.test(callee) ||
    /\.(resolve|mock)$/.test(callee)
  );
}

/** `'…' as const` takes only a literal; deeper in an `as const` object a sum is allowed (as a string). */
export function constAsserted(node: ts.Node): boolean {
  let n = node.parent;
  while (ts.isParenthesizedExpression(n)) n = n.parent;
  return ts.isAsExpression(n) && n.type.getText() === 'const';
}

/**
 * Inside a `${…}` written on one line Biome does not break lines, so splitting a literal there
 * gains nothing; once the `${…}` spans lines (see breakSubstitution) Biome lays it out.
 */
export function inSubstitution(node: ts.Node): boolean {
  for (let n = node.parent; n && !ts.isSourceFile(n); n = n.parent)
    if (ts.isTemplateSpan(n) && !n.expression.getText().includes('\n')) return true;
  return false;
}

/** A template's value has a line break in its own text (not only in the code of a `${…}`). */
export function multiLineValue(sf: ts.SourceFile, node: ts.Node): boolean {
  if (!ts.isNoSubstitutionTemplateLiteral(node) && !ts.isTemplateExpression(node)) return false;
  return templateTexts(sf, node).some(([a, b]) => sf.text.slice(a, b).includes('\n'));
}

/**
 * A `${…}` on one line that reaches past the width: a line break after the opening parenthesis
 * of its outermost call, so that Biome lays the call out over lines (whitespace in code).
 */
export function breakSubstitution(sf: ts.SourceFile, over: number): Edit | null {
  let span: ts.TemplateSpan | undefined;
  for (let n: ts.Node | undefined = nodeAt(sf, over); n && !ts.isSourceFile(n); n = n.parent)
    if (ts.isTemplateSpan(n) && n.expression.getStart(sf) <= over && over < n.expression.end) span = n;
  if (!span || span.expression.getText(sf).includes('\n')) return null;
  let call: ts.CallExpression | undefined;
  const find = (n: ts.Node) => {
    if (call) return;
    if (ts.isCallExpression(n) && n.arguments.length > 0 && n.end - n.getStart(sf) >= 40) call = n;
    else ts.forEachChild(n, find);
  };
  find(span.expression);
  return call ? { start: call.arguments.pos, end: call.arguments.pos, text: '\n' } : null;
}

/** An expression that is a string by its syntax alone: `${e}` is then e itself. */
export function stringy(e: ts.Expression): boolean {
  while (ts.isParenthesizedExpression(e)) e = e.expression;
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || ts.isTemplateExpression(e)) return true;
  if (ts.isConditionalExpression(e)) return stringy(e.whenTrue) && stringy(e.whenFalse);
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken)
    return stringy(e.left) || stringy(e.right);
  return false;
}

/** A `a + b` can stand in the place of `node` without parentheses. */
export function bareSumFits(node: ts.Node): boolean {
  const p = node.parent;
  if (ts.isCallExpression(p) || ts.isNewExpression(p)) return p.expression !== node;
  if (ts.isBinaryExpression(p)) {
    const op = p.operatorToken.kind;
    // x + ('a' + 'b') and x + 'a' + 'b' are one string: once one side of + is a string, the other
    // is turned into a string once either way.
    if (op === ts.SyntaxKind.PlusToken) return true;
    return [
      ts.SyntaxKind.EqualsToken,
      ts.SyntaxKind.PlusEqualsToken,
      ts.SyntaxKind.QuestionQuestionToken,
      ts.SyntaxKind.BarBarToken,
      ts.SyntaxKind.AmpersandAmpersandToken,
      ts.SyntaxKind.EqualsEqualsEqualsToken,
      ts.SyntaxKind.ExclamationEqualsEqualsToken,
      ts.SyntaxKind.CommaToken,
    ].includes(op);
  }
  return (
    ts.isVariableDeclaration(p) ||
    ts.isPropertyAssignment(p) ||
    ts.isPropertyDeclaration(p) ||
    ts.isParameter(p) ||
    ts.isBindingElement(p) ||
    ts.isArrayLiteralExpression(p) ||
    ts.isReturnStatement(p) ||
    ts.isThrowStatement(p) ||
    ts.isArrowFunction(p) ||
    ts.isConditionalExpression(p) ||
    ts.isJsxExpression(p) ||
    ts.isTemplateSpan(p) ||
    ts.isParenthesizedExpression(p) ||
    ts.isExportAssignment(p)
  );
}

/** Offsets (into `raw`) after a run of unescaped spaces, where the text may be cut. */
export function spaceCuts(raw: string, escapes: boolean): number[] {
  const cuts: number[] = [];
  for (let i = 0; i < raw.length - 1; i++) {
    // a file name and its § (a section sign after a markdown file name) stay on one line: scripts/doc-references.ts
    // reads them so
    if (raw[i] !== ' ' || raw[i + 1] === ' ' || raw[i + 1] === '§') continue;
    if (escapes) {
      let slashes = 0;
      for (let j = i - 1; j >= 0 && raw[j] === '\\'; j--) slashes++;
      if (slashes % 2 === 1) continue;
    }
    cuts.push(i + 1);
  }
  return cuts;
}

/**
 * Cuts `[0, length)` into pieces of at most `limit` columns at the given cut offsets, as evenly
 * as the cuts allow; the fewest pieces, at least two. Empty when no cut helps.
 */
export function chooseCuts(raw: string, cuts: number[], limit: number): number[] {
  const sorted = [...new Set(cuts)].filter((c) => c > 0 && c < raw.length).sort((x, y) => x - y);
  if (sorted.length === 0) return [];
  const len = width(raw);
  const fewest = Math.max(2, Math.ceil(len / limit));
  // Pieces of about equal length, as few as fit the limit.
  for (let n = fewest; n <= Math.min(sorted.length + 1, fewest + 3); n++) {
    const chosen: number[] = [];
    let from = 0;
    for (let k = 1; k < n; k++) {
      const target = (len * k) / n;
      let best = -1;
      for (const c of sorted) {
        if (c <= from) continue;
        if (best === -1 || Math.abs(c - target) < Math.abs(best - target)) best = c;
      }
      if (best === -1) break;
      chosen.push(best);
      from = best;
    }
    const bounds = [0, ...chosen, raw.length];
    const pieces = bounds.slice(1).map((b, i) => width(raw.slice(bounds[i], b)));
    if (pieces.every((w) => w <= limit)) return [...new Set(chosen)];
  }
  // Some stretch has no cut within the limit (a long substitution): fill each piece up to the limit,
  // so only that stretch runs over, never a word per line.
  const chosen: number[] = [];
  let from = 0;
  let last = -1;
  for (const c of sorted) {
    if (width(raw.slice(from, c)) <= limit) {
      last = c;
      continue;
    }
    from = last > from ? last : c;
    chosen.push(from);
    last = c > from && width(raw.slice(from, c)) <= limit ? c : -1;
  }
  if (width(raw.slice(from)) > limit && last > from) chosen.push(last);
  return chosen;
}

export interface Literal {
  node: ts.Node;
  start: number;
  end: number;
}

export function literalsOf(sf: ts.SourceFile): Literal[] {
  const out: Literal[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      out.push({ node, start: node.getStart(sf), end: node.end });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** The edit that splits one literal into a concatenation of pieces of at most `limit` columns. */
export function splitLiteral(sf: ts.SourceFile, lit: Literal, limit: number): Edit | null {
  const text = sf.text;
  const src = text.slice(lit.start, lit.end);
  const node = lit.node;
  if (width(src) < MIN_SPLIT || inSubstitution(node)) return null;
  if (ts.isStringLiteral(node) ? src.includes('\n') : multiLineValue(sf, node)) return null;
  const wrap = (sum: string) => (bareSumFits(node) ? sum : `(${sum})`);
  if (ts.isStringLiteral(node)) {
    const ctx = stringContext(node);
    if (!ctx) return null;
    const q = src[0];
    const raw = src.slice(1, -1);
    const cuts = chooseCuts(raw, spaceCuts(raw, ctx === 'js'), limit);
    if (cuts.length === 0) return null;
    const bounds = [0, ...cuts, raw.length];
    const parts = bounds.slice(1).map((b, i) => raw.slice(bounds[i], b));
    if (ctx === 'jsx') {
      const js = parts.map((p) => `'${p.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`).join(' + ');
      return { start: lit.start, end: lit.end, text: `{${js}}` };
    }
    return { start: lit.start, end: lit.end, text: wrap(parts.map((p) => `${q}${p}${q}`).join(' + ')) };
  }
  // a template: cut only in its text, never inside ${…}
  if (ts.isTaggedTemplateExpression(node.parent) || constAsserted(node)) return null;
  const texts: [number, number][] = [];
  if (ts.isNoSubstitutionTemplateLiteral(node)) texts.push([lit.start + 1, lit.end - 1]);
  else if (ts.isTemplateExpression(node)) {
    const head = node.head;
    texts.push([head.getStart(sf) + 1, head.end - 2]);
    for (const span of node.templateSpans) {
      const l = span.literal;
      texts.push([l.getStart(sf) + 1, l.end - (ts.isTemplateTail(l) ? 1 : 2)]);
    }
  }
  let cuts: number[] = [];
  for (const [a, b] of texts) for (const c of spaceCuts(text.slice(a, b), true)) cuts.push(a + c - lit.start);
  // and where the text meets a ${…}
  for (const [a, b] of texts) {
    if (a - lit.start > 1) cuts.push(a - lit.start);
    if (b < lit.end - 1) cuts.push(b - lit.start);
  }
  cuts = [...new Set(cuts)].filter((c) => c > 1 && c < src.length - 1).sort((x, y) => x - y);
  // `${e}` alone, e a string: e itself, which Biome can break
  const spans = ts.isTemplateExpression(node) ? node.templateSpans : ts.factory.createNodeArray<ts.TemplateSpan>();
  const heads = ts.isTemplateExpression(node) ? [node.head.end] : [0];
  const alone = (a: number, b: number) => {
    const i = spans.findIndex((_, k) => (k === 0 ? heads[0] : spans[k - 1].literal.end) - 2 - lit.start === a);
    const span = spans[i];
    if (!span || !stringy(span.expression)) return null;
    const close = span.literal.getStart(sf) + 1 - lit.start;
    return close === b ? `(${span.expression.getText(sf)})` : null;
  };
  const whole = alone(1, src.length - 1);
  if (whole) return { start: lit.start, end: lit.end, text: wrap(whole) };
  const chosen = chooseCuts(
    src.slice(1, -1),
    cuts.map((c) => c - 1),
    limit,
  ).map((c) => c + 1);
  if (chosen.length === 0) return null;
  const bounds = [1, ...chosen, src.length - 1];
  const parts = bounds.slice(1).map((b, i) => alone(bounds[i], b) ?? `\`${src.slice(bounds[i], b)}\``);
  return { start: lit.start, end: lit.end, text: wrap(parts.join(' + ')) };
}

// ---------------------------------------------------------------------------------------------
// SQL in multi-line templates

/** A template whose text starts as SQL does (upper-case keyword, as this repository writes SQL). */
export const SQL_START = new RegExp(
  String.raw`^\s*\(?\s*(SELECT|WITH|INSERT|UPDATE|DELETE|CREATE|ALTER|DROP|EXPLAIN|` +
    'VALUES|COPY|TRUNCATE|REFRESH|ANALYZE|VACUUM|SET|DO|BEGIN|LOCK|COMMENT|' +
    String.raw`MERGE|CALL)\b`,
);

export const SQL_WORDS = new RegExp(
  String.raw`\b(SELECT|FROM|WHERE|JOIN|LATERAL|CASE|WHEN|THEN|ELSE|END|AS|AND|ON|` +
    'FILTER|UNION|LIMIT|INTO|VALUES|DISTINCT|EXISTS|COALESCE|GROUP BY|ORDER ' +
    String.raw`BY)\b`,
  'g',
);

/** SQL or a piece of it (a column list): starts with a keyword, or has two keywords or casts. */
export function looksLikeSql(text: string): boolean {
  if (SQL_START.test(text)) return true;
  const signals = new Set(text.match(SQL_WORDS) ?? []);
  if (/::[a-z]\w*/.test(text)) signals.add('::');
  return signals.size >= 2;
}

/** The literal text ranges of a template (offsets in the file), in order; substitutions excluded. */
export function templateTexts(sf: ts.SourceFile, node: ts.NoSubstitutionTemplateLiteral | ts.TemplateExpression) {
  const out: [number, number][] = [];
  if (ts.isNoSubstitutionTemplateLiteral(node)) out.push([node.getStart(sf) + 1, node.end - 1]);
  else {
    out.push([node.head.getStart(sf) + 1, node.head.end - 2]);
    for (const span of node.templateSpans) {
      const l = span.literal;
      out.push([l.getStart(sf) + 1, l.end - (ts.isTemplateTail(l) ? 1 : 2)]);
    }
  }
  return out;
}

/**
 * Offsets (in the file) of the spaces of a SQL template that stand between SQL tokens: not in a
 * quoted string or identifier, a dollar-quoted body or a comment, and not in a `${…}`. SQL reads
 * any run of whitespace between tokens alike, so such a space may become a line break. `null`
 * when the template is not SQL, is tagged, or has an escape (its text is then not plain).
 */
export function sqlSpaces(sf: ts.SourceFile, node: ts.Node): number[] | null {
  if (!ts.isNoSubstitutionTemplateLiteral(node) && !ts.isTemplateExpression(node)) return null;
  if (ts.isTaggedTemplateExpression(node.parent)) return null;
  const text = sf.text;
  const ranges = templateTexts(sf, node);
  const all = ranges.map(([a, b]) => text.slice(a, b)).join('');
  if (!looksLikeSql(all) || all.includes('\\')) return null;
  const out: number[] = [];
  let state: 'code' | 'single' | 'double' | 'line' | 'block' | 'dollar' = 'code';
  let tag = '';
  for (const [a, b] of ranges) {
    for (let i = a; i < b; i++) {
      const ch = text[i];
      const two = text.slice(i, i + 2);
      if (state === 'code') {
        if (ch === ' ') out.push(i);
        else if (ch === "'") state = 'single';
        else if (ch === '"') state = 'double';
        else if (two === '--') state = 'line';
        else if (two === '/*') state = 'block';
        else if (ch === '$' && !/\w/.test(text[i - 1] ?? '')) {
          const m = /^\$([A-Za-z_]\w*)?\$/.exec(text.slice(i, b));
          if (m) {
            state = 'dollar';
            tag = m[0];
            i += m[0].length - 1;
          }
        }
      } else if (state === 'single' && ch === "'") state = 'code';
      else if (state === 'double' && ch === '"') state = 'code';
      else if (state === 'line' && ch === '\n') state = 'code';
      else if (state === 'block' && two === '*/') {
        state = 'code';
        i++;
      } else if (state === 'dollar' && text.startsWith(tag, i)) {
        state = 'code';
        i += tag.length - 1;
      }
    }
  }
  return state === 'code' ? out : null;
}

/**
 * Breaks one long line of a SQL template at spaces between tokens, continuing two columns deeper
 * than the line starts. The template's value changes only in whitespace between SQL tokens.
 */
export function wrapSqlLine(text: string, lineStart: number, line: string, spaces: number[]): Edit[] {
  const indent = /^\s*/.exec(line)?.[0] ?? '';
  const cont = `${indent}  `;
  const cuts = spaces
    .filter((s) => s > lineStart + indent.length && s < lineStart + line.length - 1)
    .filter((s) => text[s - 1] !== ' ' && text[s + 1] !== ' ');
  const edits: Edit[] = [];
  let from = lineStart; // where the current output line's text starts
  let cols = 0; // columns before `from` on the current output line
  for (;;) {
    const rest = width(text.slice(from, lineStart + line.length));
    if (cols + rest <= WIDTH) break;
    const fit = cuts.filter((s) => s > from && cols + width(text.slice(from, s)) <= WIDTH);
    const cut = fit.length > 0 ? fit[fit.length - 1] : cuts.find((s) => s > from);
    if (cut === undefined) break;
    edits.push({ start: cut, end: cut + 1, text: `\n${cont}` });
    from = cut + 1;
    cols = width(cont);
  }
  return edits;
}
