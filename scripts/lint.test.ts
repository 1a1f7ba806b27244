// Formatting, import order and lint rules, checked by Biome with biome.json (docs/decisions/formatter-linter.md):
// once over the real tree (nothing to report), and once over a small fixture tree with one planted
// violation of each kind, to show that the check fails on exactly those files and leaves exempt
// (generated) folders alone. `npm run lint` is the same check by hand; `npm run format` fixes the
// formatting and the import order.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const biome = join(root, 'node_modules/@biomejs/biome/bin/biome');

interface Diagnostic {
  severity: string;
  category: string;
  message: string;
  location: { path: string; start?: { line: number } };
}

interface Finding {
  path: string;
  line: number;
  category: string;
  message: string;
}

/** Runs `biome ci` (format, import order and lint; writes nothing) in `cwd` and returns every finding. */
function check(cwd: string): { findings: Finding[]; status: number | null } {
  const out = join(mkdtempSync(join(tmpdir(), 'lint-report-')), 'report.json');
  const run = spawnSync(
    process.execPath,
    [
      biome,
      'ci',
      '--colors=off',
      '--reporter=json',
      `--reporter-file=${out}`,
      '--max-diagnostics=none',
      '--error-on-warnings',
      '.',
    ],
    { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  let report: { diagnostics: Diagnostic[] };
  try {
    report = JSON.parse(readFileSync(out, 'utf8')) as { diagnostics: Diagnostic[] };
  } catch {
    throw new Error(`biome ci gave no report (exit ${run.status}): ${run.stderr}${run.stdout}`);
  } finally {
    rmSync(dirname(out), { recursive: true, force: true });
  }
  const findings = report.diagnostics
    .filter((d) => d.severity === 'error' || d.severity === 'warning' || d.severity === 'fatal')
    .map((d) => ({
      path: d.location.path,
      line: d.location.start?.line ?? 1,
      category: d.category,
      message: d.message,
    }));
  return { findings, status: run.status };
}

function describeFindings(findings: Finding[]): string {
  const byFile = new Map<string, string[]>();
  for (const f of findings) {
    const list = byFile.get(f.path) ?? [];
    // A format finding covers the file (`npm run format` rewrites it); the others name their line.
    list.push(f.category === 'format' ? '    format' : `    ${f.line}: ${f.category} (${f.message})`);
    byFile.set(f.path, list);
  }
  return [...byFile]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, lines]) => `  ${path}\n${lines.join('\n')}`)
    .join('\n');
}

const kinds = (findings: Finding[]) =>
  [...new Set(findings.map((f) => `${f.path} ${f.category.replace(/^lint\//, '')}`))].sort();

describe('format and lint (Biome)', () => {
  test('the tree is formatted, its imports ordered, and it breaks no lint rule', () => {
    const { findings, status } = check(root);
    assert.equal(
      findings.length,
      0,
      `${new Set(findings.map((f) => f.path)).size} file(s) to fix (\`npm run format\` fixes ` +
        `formatting and import order; lint findings need a hand):\n${describeFindings(findings)}`,
    );
    assert.equal(status, 0);
  });

  describe('planted violations are reported', () => {
    let dir = '';
    const files: Record<string, string> = {
      // as `npm run format` writes it: nothing to report
      'lib/fine.ts':
        "import { a } from './a';\nimport { b } from './b';\n\nexport " +
        'const fine = (x: number): number => a(x) + b(x);\n',
      'lib/a.ts': 'export const a = (x: number): number => x;\n',
      'lib/b.ts': 'export const b = (x: number): number => x;\n',
      // formatting: double quotes, no semicolon, a line past 120 characters
      'lib/quotes.ts': 'export const name = "quoted"\n',
      'lib/wide.ts': `export const wide = [${Array.from({ length: 30 }, (_, i) => `'item${i}'`).join(', ')}];\n`,
      // import order
      'lib/unsorted.ts':
        "import { b } from './b';\nimport { a } from './a';\n\nexport " +
        'const both = (x: number): number => a(x) + b(x);\n',
      // lint: a recommended rule that stays on
      'lib/loose.ts': 'export const loose = (x: unknown): boolean => x == null || x == 0;\n',
      // React's rules of hooks in components
      'components/Hooked.tsx':
        "import { useState } from 'react';\n\nexport function Hooked({ on }: { on: boolean }) {\n  " +
        'if (on) {\n    const [n] = useState(0);\n    return <p>{n}</p>;\n  }\n  return null;\n}\n',
      // generated code is exempt, however it looks
      'lib/store/generated/client.ts': 'export const x = "generated"\n',
      'lib/chain/gen/ids.ts': 'export const y = "generated"\n',
    };

    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'lint-probe-'));
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      // The project's own configuration; the fixture is no git repository, so Biome is told not to look for one.
      const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as Record<string, unknown>;
      config.vcs = { enabled: false };
      delete config.$schema;
      writeFileSync(join(dir, 'biome.json'), JSON.stringify(config));
      // Biome checks the formatting of its own configuration too.
      spawnSync(process.execPath, [biome, 'format', '--write', 'biome.json'], { cwd: dir });
    });
    after(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('each planted file is reported under its kind, and nothing else', () => {
      const { findings, status } = check(dir);
      assert.notEqual(status, 0, 'biome ci fails');
      assert.deepEqual(kinds(findings), [
        'components/Hooked.tsx correctness/useHookAtTopLevel',
        'lib/loose.ts suspicious/noDoubleEquals',
        'lib/quotes.ts format',
        'lib/unsorted.ts assist/source/organizeImports',
        'lib/wide.ts format',
      ]);
      const listing = describeFindings(findings);
      assert.match(listing, /^ {2}lib\/quotes\.ts\n {4}format$/m, listing);
    });
  });
});
