// Text helpers and comment rewrapping for scripts/wrap-long-lines.ts: columns, comments, words.
import ts from 'typescript';

export const WIDTH = 120;

export type LongKind = 'comment' | 'string' | 'template' | 'jsx-text' | 'regex' | 'other';

export interface LongLine {
  path: string;
  /** 1-based */
  line: number;
  width: number;
  kind: LongKind;
  text: string;
}

export function width(line: string): number {
  let n = 0;
  for (const _ of line) n++;
  return n;
}

export function parse(path: string, text: string): ts.SourceFile {
  const kind = /x$/.test(path) ? ts.ScriptKind.TSX : /\.[mc]?js$/.test(path) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  return ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind);
}

/** Offsets where each line starts, and the text of each line without its newline. */
export function splitLines(text: string): { starts: number[]; lines: string[] } {
  const lines = text.split('\n');
  const starts: number[] = [];
  let at = 0;
  for (const l of lines) {
    starts.push(at);
    at += l.length + 1;
  }
  return { starts, lines };
}

/** The UTF-16 offset within `line` of the code point at column `col` (0-based). */
export function offsetOfColumn(line: string, col: number): number {
  let n = 0;
  let i = 0;
  for (const ch of line) {
    if (n === col) return i;
    n++;
    i += ch.length;
  }
  return i;
}

export interface Comment {
  pos: number;
  end: number;
  kind: ts.CommentKind;
}

/** Every comment in the file (not the `//` of JSX text, which is text). */
export function comments(sf: ts.SourceFile): Comment[] {
  const text = sf.text;
  const seen = new Map<number, Comment>();
  const jsxText: [number, number][] = [];
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) if (!seen.has(r.pos)) seen.set(r.pos, { pos: r.pos, end: r.end, kind: r.kind });
  };
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.JsxText) {
      jsxText.push([node.pos, node.end]);
      return;
    }
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(sf)) visit(child);
  };
  visit(sf);
  add(ts.getLeadingCommentRanges(text, 0));
  return [...seen.values()]
    .filter((c) => !jsxText.some(([a, b]) => c.pos < b && c.end > a))
    .sort((a, b) => a.pos - b.pos);
}

/** The deepest node that holds `pos`. */
export function nodeAt(sf: ts.SourceFile, pos: number): ts.Node {
  let node: ts.Node = sf;
  for (;;) {
    let next: ts.Node | undefined;
    ts.forEachChild(node, (child) => {
      if (child.getStart(sf) <= pos && pos < child.end) {
        next = child;
        return true;
      }
      return undefined;
    });
    if (!next) return node;
    node = next;
  }
}

export function literalKind(node: ts.Node): LongKind | undefined {
  for (let n: ts.Node | undefined = node; n; n = n.parent) {
    if (ts.isStringLiteral(n)) return 'string';
    if (ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n)) return 'template';
    if (ts.isJsxText(n)) return 'jsx-text';
    if (ts.isRegularExpressionLiteral(n)) return 'regex';
  }
  return undefined;
}

/** Every line over the width, named by what crosses the width: a comment, a string, a template… */
// ---------------------------------------------------------------------------------------------
// Comments

export interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Words of comment text: split at spaces, but a `code span` stays whole (its spaces are part of
 * it) and so does a [link](target).
 */
export function words(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let tick = false;
  for (const ch of text) {
    if (ch === '`') tick = !tick;
    if (ch === ' ' && !tick) {
      if (cur) out.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur) out.push(cur);
  // a file name and its § (a section sign after a markdown file name) stay on one line: scripts/doc-references.ts reads
  // them so
  return out.reduce<string[]>((acc, w) => {
    if (w.startsWith('§') && acc.length > 0) acc[acc.length - 1] += ` ${w}`;
    else acc.push(w);
    return acc;
  }, []);
}

/** Greedy fill: lines of `words` each at most `first` (then `rest`) columns; a longer word stands alone. */
export function fill(ws: string[], first: number, rest: number): string[] {
  const out: string[] = [];
  let cur = '';
  for (const w of ws) {
    const room = out.length === 0 ? first : rest;
    if (cur && width(cur) + 1 + width(w) > room) {
      out.push(cur);
      cur = w;
    } else cur = cur ? `${cur} ${w}` : w;
  }
  if (cur) out.push(cur);
  return out;
}

/** A comment line's text that starts a new paragraph item, so no earlier text flows into it. */
export const ITEM = /^([-*+•]|\d+[.)]|@\w+|\||```|#|<\w)/;

/** Text that reads as code, a table or a directive: not reflowed, not joined to. */
export function looksLikeCode(text: string): boolean {
  return (
    /^(```|\||\/\/\/|<reference|#!)/.test(text) ||
    /[;{}(]\s*$/.test(text) ||
    /^\s*(const|let|import|export|return|if|for|await|function)\b.*[=(]/.test(text) ||
    /^(eslint|prettier-ignore|istanbul|c8 |@ts-|biome-ignore|@jsx|global |#region|#endregion)/.test(text)
  );
}

/** The hanging indent of a list item or tag: where its continuation lines start. */
export function hangOf(text: string): number {
  const m = /^([-*+•]|\d+[.)])\s+/.exec(text);
  if (m) return m[0].length;
  if (/^@\w+/.test(text)) return 2;
  return 0;
}

export interface CommentLine {
  /** offset of the line's start in the file */
  start: number;
  /** offset of the end of the line's text (before the newline, or before a closing star-slash) */
  end: number;
  /** everything before the text: indentation and the comment's marker */
  prefix: string;
  /** the continuation prefix for new lines (`//` or ` *` with indentation) */
  next: string;
  /** the text after the prefix, with its own leading spaces */
  body: string;
  /** the text that closes the comment on this line (a star-slash), kept */
  close: string;
}

/**
 * The lines of a block of `//` comments standing alone at one column, or the lines of a star
 * comment, each split into prefix and text. `null` when the comment shares its lines with code.
 */
export function commentLines(text: string, c: Comment, all: Comment[]): CommentLine[] | null {
  const lineStart = text.lastIndexOf('\n', c.pos - 1) + 1;
  const indent = text.slice(lineStart, c.pos);
  if (!/^\s*$/.test(indent)) return null;
  if (c.kind === ts.SyntaxKind.SingleLineCommentTrivia) {
    // the block: this comment and the `//` comments on the lines right after it, at its column
    const out: CommentLine[] = [];
    let cur: Comment | undefined = c;
    let i = all.indexOf(c);
    while (cur) {
      const raw = text.slice(cur.pos, cur.end);
      const m = /^\/\/+ ?/.exec(raw) as RegExpExecArray;
      out.push({
        start: cur.pos - indent.length,
        end: cur.end,
        prefix: indent + m[0],
        next: `${indent}// `,
        body: raw.slice(m[0].length),
        close: '',
      });
      const following: Comment | undefined = all[++i];
      const between: string = following ? text.slice(cur.end, following.pos) : '';
      cur =
        following && following.kind === ts.SyntaxKind.SingleLineCommentTrivia && between === `\n${indent}`
          ? following
          : undefined;
    }
    return out;
  }
  const raw = text.slice(c.pos, c.end);
  const parts = raw.split('\n');
  const out: CommentLine[] = [];
  let at = c.pos;
  const starIndent = `${indent} * `;
  for (let k = 0; k < parts.length; k++) {
    let line = parts[k];
    const start = k === 0 ? at - indent.length : at;
    let close = '';
    if (k === parts.length - 1) {
      close = line.endsWith('*/') ? '*/' : '';
      line = line.slice(0, line.length - close.length);
    }
    const m = k === 0 ? (/^\/\*\*? ?/.exec(line) as RegExpExecArray) : /^\s*\*? ?/.exec(line);
    const head = m ? m[0] : '';
    let body = line.slice(head.length);
    if (close && body.endsWith(' ')) {
      body = body.slice(0, -1);
      close = ` ${close}`;
    }
    out.push({
      start,
      end: at + line.length,
      prefix: (k === 0 ? indent : '') + head,
      next: starIndent,
      body,
      close,
    });
    at += parts[k].length + 1;
  }
  return out;
}

/**
 * Rewraps the long lines of one comment: a long line and the lines of its paragraph after it are
 * refilled to the width; earlier lines stay as they are. A one-line star comment that is too
 * long becomes a block. Returns the edits and the lines it could not break.
 */
export function wrapComment(text: string, c: Comment, all: Comment[]): Edit[] {
  const lines = commentLines(text, c, all);
  if (!lines) return [];
  const edits: Edit[] = [];
  const first = lines[0];
  const raw = text.slice(c.pos, c.end);
  // `/** one long line */` → a block of ` * ` lines
  if (c.kind === ts.SyntaxKind.MultiLineCommentTrivia && lines.length === 1) {
    const line = first.prefix + first.body + first.close;
    if (width(line) <= WIDTH || looksLikeCode(first.body.trim())) return [];
    const indent = first.prefix.slice(0, first.prefix.length - first.prefix.trimStart().length);
    const opener = raw.startsWith('/**') ? '/**' : '/*';
    const ws = words(first.body.trim());
    const room = WIDTH - width(`${indent} * `);
    const filled = fill(ws, room, room);
    const block = [opener, ...filled.map((l) => ` * ${l}`), ' */'].join(`\n${indent}`);
    return [{ start: c.pos, end: c.end, text: block }];
  }
  let k = 0;
  const done = new Set<number>();
  while (k < lines.length) {
    const l = lines[k];
    const full = l.prefix + l.body + l.close;
    const body = l.body;
    const trimmed = body.trim();
    if (width(full) <= WIDTH || done.has(k) || looksLikeCode(trimmed) || inFence(lines, k)) {
      k++;
      continue;
    }
    // the paragraph: this line and the plain lines after it at the same text indent
    const lead = body.length - body.trimStart().length;
    const hang = lead + hangOf(trimmed);
    let last = k;
    while (last + 1 < lines.length && !l.close) {
      const nb = lines[last + 1].body;
      const nt = nb.trim();
      if (lines[last].close || !nt || ITEM.test(nt) || looksLikeCode(nt)) break;
      if (nb.length - nb.trimStart().length !== hang) break;
      if (/[:]$/.test(lines[last].body.trim())) break;
      last++;
    }
    const ws = lines.slice(k, last + 1).flatMap((x) => words(x.body.trim()));
    const close = lines[last].close;
    const headCols = width(l.prefix) + lead;
    const nextPrefix = l.next.trimEnd();
    const contCols = width(nextPrefix) + 1 + hang;
    // the closing star-slash stays on the last line if it fits there
    const filled = fill(ws, WIDTH - headCols, WIDTH - contCols);
    if (close && width(filled[filled.length - 1]) + width(close) > WIDTH - (filled.length === 1 ? headCols : contCols))
      filled.push('');
    const closeLine = `${nextPrefix.replace(/\*$/, '')}*/`;
    const out = filled.map((t, i) =>
      i === 0 ? l.prefix + ' '.repeat(lead) + t : t === '' ? closeLine : `${nextPrefix} ${' '.repeat(hang)}${t}`,
    );
    let replacement = out.join('\n');
    if (close && filled[filled.length - 1] !== '') replacement += close;
    const startOffset = k === 0 ? lines[0].start : l.start;
    const endOffset = last === lines.length - 1 ? (close ? c.end : lines[last].end) : lines[last].end;
    const before = text.slice(startOffset, endOffset);
    if (replacement !== before) edits.push({ start: startOffset, end: endOffset, text: replacement });
    for (let x = k; x <= last; x++) done.add(x);
    k = last + 1;
  }
  return edits;
}

export function inFence(lines: CommentLine[], k: number): boolean {
  let open = false;
  for (let i = 0; i < k; i++) if (lines[i].body.trim().startsWith('```')) open = !open;
  return open;
}

/**
 * A `//` comment after code on a long line moves, rewrapped, to the lines above that line —
 * unless the line starts inside JSX children or a literal, where a comment would become text.
 */
export function moveTrailingComment(sf: ts.SourceFile, c: Comment): Edit[] {
  const text = sf.text;
  if (c.kind !== ts.SyntaxKind.SingleLineCommentTrivia) return [];
  const lineStart = text.lastIndexOf('\n', c.pos - 1) + 1;
  const code = text.slice(lineStart, c.pos);
  if (/^\s*$/.test(code) || width(code.trimEnd()) > WIDTH) return [];
  const indent = /^\s*/.exec(code)?.[0] ?? '';
  const first = lineStart + indent.length;
  const at = nodeAt(sf, first);
  if (literalKind(at)) return [];
  for (let n: ts.Node | undefined = at; n && !ts.isSourceFile(n); n = n.parent) {
    if (n.getStart(sf) !== first && !ts.isJsxClosingElement(n)) break;
    if ((ts.isJsxElement(n) || ts.isJsxSelfClosingElement(n) || ts.isJsxFragment(n)) && n.parent) {
      if (ts.isJsxElement(n.parent) || ts.isJsxFragment(n.parent)) return [];
    }
    if (ts.isJsxClosingElement(n) || ts.isJsxClosingFragment(n)) return [];
  }
  const body = text.slice(c.pos, c.end).replace(/^\/\/+ ?/, '');
  const room = WIDTH - width(`${indent}// `);
  const lines = fill(words(body.trim()), room, room).map((l) => `${indent}// ${l}`);
  return [
    { start: lineStart, end: lineStart, text: `${lines.join('\n').slice(0)}\n` },
    { start: lineStart + code.trimEnd().length, end: c.end, text: '' },
  ];
}
