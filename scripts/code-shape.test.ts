// Function and file lengths (scripts/code-shape.ts): the tree keeps to the limits and to the
// baseline of what was over them, and fixture sources show what the check refuses.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  type Baseline,
  baselineOf,
  describeViolation,
  exempt,
  LIMITS,
  measure,
  measureTree,
  readBaseline,
  violations,
} from './code-shape';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A function declaration `name` of exactly `lines` lines. */
const fn = (name: string, lines: number) =>
  `export function ${name}(): number {\n${'  void 0;\n'.repeat(lines - 3)}  return 1;\n}\n`;

const empty: Baseline = { limits: LIMITS, functions: {}, files: {} };

describe('code shape', () => {
  test('the tree keeps to the limits, or to its baseline where it was over them', () => {
    const shapes = measureTree(root);
    assert.ok(shapes.length > 1000, `measured ${shapes.length} functions and files`);
    const baseline = readBaseline(root);
    assert.deepEqual(baseline.limits, LIMITS, 'the baseline was taken with the limits in force');
    const found = violations(shapes, baseline);
    assert.equal(
      found.length,
      0,
      `${found.length} function(s) or file(s) too long; split them (a listed one may shrink, never grow):\n${found
        .map((v) => describeViolation(v))
        .join('\n')}`,
    );
  });

  test('a function is measured from its first token to its closing brace, under a readable name', () => {
    const src =
      `/** doc */\nexport class Box {\n  open(): void {\n    const f = () => {\n      return;\n    };\n    ` +
      `[1].map((x) => x);\n    [2].map((x) => x);\n  }\n}\nexport const arrow = (a: number) =>\n  a + 1;\n`;
    const shapes = measure('lib/box.ts', src);
    const byName = Object.fromEntries(shapes.map((s) => [s.name, [s.line, s.lines]]));
    assert.deepEqual(byName, {
      'lib/box.ts': [1, 12],
      'lib/box.ts::Box.open': [3, 7],
      'lib/box.ts::Box.open.f': [4, 3],
      'lib/box.ts::Box.open.map(…)': [7, 1],
      'lib/box.ts::Box.open.map(…)#2': [8, 1],
      'lib/box.ts::arrow': [11, 2],
    });
  });

  test('a new function or file over the limit is refused and named', () => {
    const long = LIMITS.functionLines + 1;
    const shapes = measure('lib/long.ts', fn('fits', LIMITS.functionLines) + fn('tooLong', long));
    const found = violations(shapes, empty);
    assert.deepEqual(
      found.map((v) => describeViolation(v)),
      [`  lib/long.ts:${LIMITS.functionLines + 1} tooLong: ${long} lines, over the limit of ${LIMITS.functionLines}`],
    );
    const big = measure('lib/big.ts', 'export const x = 1;\n'.repeat(LIMITS.fileLines + 1));
    assert.deepEqual(
      violations(big, empty).map((v) => describeViolation(v)),
      [`  lib/big.ts:1 file: ${LIMITS.fileLines + 1} lines, over the limit of ${LIMITS.fileLines}`],
    );
  });

  test('a listed function may shrink but not grow', () => {
    const at = (lines: number) => measure('lib/old.ts', fn('old', lines));
    const baseline = baselineOf(at(120));
    assert.deepEqual(baseline.functions, { 'lib/old.ts::old': 120 });
    assert.deepEqual(violations(at(120), baseline), []);
    assert.deepEqual(violations(at(95), baseline), []);
    assert.deepEqual(
      violations(at(121), baseline).map((v) => describeViolation(v)),
      ['  lib/old.ts:1 old: 121 lines, grew from 120 (listed in scripts/code-shape-baseline.json; may only shrink)'],
    );
  });

  test('tests, end-to-end code and generated code are exempt', () => {
    for (const path of [
      'lib/a.test.ts',
      'components/A.test.tsx',
      'e2e/demo/chain.ts',
      'lib/store/generated/client.ts',
      'lib/chain/gen/ids.ts',
    ])
      assert.ok(exempt(path), path);
    for (const path of ['lib/store/index.ts', 'components/overview/LiveOverview.tsx', 'scripts/test.mjs'])
      assert.ok(!exempt(path), path);
  });
});
