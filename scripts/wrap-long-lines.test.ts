// Line width (scripts/wrap-long-lines.ts): no tracked source line is over 120 columns, and the
// codemod's splits keep every value as it was.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { describeLong, generated, longLines, treeLongLines, WIDTH, wrapOnce } from './wrap-long-lines';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('line width', () => {
  test('no line of the tracked source is over the width (generated code aside)', () => {
    const found = treeLongLines(root);
    assert.equal(
      found.length,
      0,
      `${found.length} line(s) over ${WIDTH} columns; run ` +
        `scripts/wrap-long-lines.ts:\n${found.map(describeLong).join('\n')}`,
    );
  });

  test('a 121-column string line is found and named', () => {
    const line = `const s = '${'x'.repeat(WIDTH - 12)}';`;
    assert.equal(line.length, WIDTH + 1);
    const found = longLines('lib/planted.ts', `${line}\nconst ok = 1;\n`);
    assert.deepEqual(
      found.map((l) => [l.line, l.width, l.kind]),
      [[1, WIDTH + 1, 'string']],
    );
  });

  test('generated code is exempt; source and tests are not', () => {
    for (const p of ['lib/store/generated/client.ts', 'lib/chain/gen/ids.ts', 'programs/include/gen/x.ts'])
      assert.ok(generated(p), p);
    for (const p of ['lib/store/index.ts', 'lib/a.test.ts', 'e2e/wallet.test.ts', 'scripts/test.mjs'])
      assert.ok(!generated(p), p);
  });

  test('a long string becomes a sum of the same value; keys, imports and types stay', () => {
    const long = 'word '.repeat(40).trim();
    const src = [
      "import { x } from './x';",
      `type T = '${long}';`,
      `export const m = { '${long}': 1 };`,
      `export const s = f('${long}');`,
      `export const t = \`a \${1} ${long}\`;`,
      '',
    ].join('\n');
    const out = wrapOnce('lib/w.ts', src);
    const lines = out.split('\n');
    assert.equal(lines[1], `type T = '${long}';`);
    assert.equal(lines[2], `export const m = { '${long}': 1 };`);
    const s = /f\((.*)\);$/.exec(lines[3])?.[1] ?? '';
    assert.match(s, /' \+ '/);
    assert.equal(new Function(`return ${s}`)(), long);
    const t = /= (.*);$/.exec(lines[4])?.[1] ?? '';
    assert.match(t, /` \+ `/);
    assert.equal(new Function(`return ${t}`)(), `a 1 ${long}`);
  });

  test('a long comment is rewrapped at word boundaries within the width; a URL stays whole', () => {
    const url = `https://example.com/${'a'.repeat(130)}`;
    const src =
      `  // ${'lorem ipsum '.repeat(15).trim()}\n  // ${url}` +
      `\n  /** ${'dolor sit '.repeat(15).trim()} */\n  f();\n`;
    const out = wrapOnce('lib/c.ts', src);
    const lines = out.split('\n');
    for (const l of lines) if (!l.includes(url)) assert.ok(l.length <= WIDTH, l);
    assert.ok(lines.includes(`  // ${url}`));
    assert.equal(out.replace(/\s+/g, ' ').includes('lorem ipsum lorem'), true);
    assert.ok(lines.includes('  /**') && lines.includes('   */'));
  });

  test('a SQL line is broken between tokens only, never inside a quoted string', () => {
    const sql =
      `SELECT a, b, c FROM t WHERE x = 'a quoted string that stays whole ` +
      `and is long enough to matter here' AND y = 1 AND z = 2 AND w = 3`;
    const src = `export const q = \`\n  ${sql}\n\`;\n`;
    const out = wrapOnce('lib/q.ts', src);
    assert.ok(out.includes("'a quoted string that stays whole and is long enough to matter here'"));
    assert.equal(out.replace(/\s+/g, ' '), src.replace(/\s+/g, ' '));
    for (const l of out.split('\n')) assert.ok(l.length <= WIDTH, l);
  });
});
