// The README's configuration table is what server/config.ts declares (scripts/config-docs.ts),
// the process reads its environment only through that schema, and every variable the docs name
// is one the code knows.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { CONFIG_DOCS, CONFIG_VARIABLES } from '../server/config';
import { CONFIG_BEGIN, CONFIG_END, configTableMarkdown, withConfigTable } from './config-docs';

const root = fileURLToPath(new URL('..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const config = new Set<string>(CONFIG_VARIABLES);

function walk(dir: string, keep: (rel: string) => boolean, out: string[] = []): string[] {
  for (const name of readdirSync(join(root, dir)).sort()) {
    if (['node_modules', '.next', '.data', 'generated'].includes(name) || name.startsWith('.')) continue;
    const rel = join(dir, name);
    if (statSync(join(root, rel)).isDirectory()) walk(rel, keep, out);
    else if (keep(rel)) out.push(rel.split(sep).join('/'));
  }
  return out;
}

describe('README.md "Configuration"', () => {
  test('the table between the markers is the one generated from server/config.ts', () => {
    const a = readme.indexOf(CONFIG_BEGIN);
    const b = readme.indexOf(CONFIG_END);
    assert.ok(a >= 0 && b > a, `README.md holds the markers ${CONFIG_BEGIN} and ${CONFIG_END}`);
    const inReadme = readme.slice(a, b + CONFIG_END.length);
    const generated = configTableMarkdown();
    if (inReadme !== generated) {
      const have = inReadme.split('\n');
      const want = generated.split('\n');
      const differ = want
        .filter((l) => !have.includes(l))
        .concat(have.filter((l) => !want.includes(l)).map((l) => `(README only) ${l}`));
      assert.fail(
        `README.md's configuration table differs from server/config.ts; run ` +
          `\`npm run docs:config\`. Lines that differ:\n${differ.join('\n')}`,
      );
    }
  });

  test('one row per variable the schema reads, each with a default and a meaning', () => {
    const table = readme.slice(readme.indexOf(CONFIG_BEGIN), readme.indexOf(CONFIG_END));
    const rows = [...table.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual([...rows].sort(), [...CONFIG_VARIABLES].sort(), 'every variable once');
    for (const v of CONFIG_VARIABLES) {
      assert.ok(CONFIG_DOCS[v].default.trim() && CONFIG_DOCS[v].meaning.trim(), `${v}: default and meaning`);
    }
  });

  test('a changed default or a missing row is a difference', () => {
    const changed = readme.replace(/^\| `PORT` \| `\d+` \|/m, '| `PORT` | `3001` |');
    assert.notEqual(changed, readme, 'the fixture changes the PORT row');
    assert.notEqual(withConfigTable(changed), changed, 'regenerating puts the default back');
    const dropped = readme.replace(/^\| `DISPUTE_REVIEWERS` \|.*\n/m, '');
    assert.notEqual(withConfigTable(dropped), dropped, 'regenerating puts the row back');
  });
});

describe('environment variables', () => {
  /** Standalone entries with their own variables, documented beside them. */
  const OWN_ENTRY = new Map([['lib/devchain/main.ts', 'lib/devchain/README.md']]);

  test('the process reads the environment only through server/config.ts', () => {
    const production = (rel: string) =>
      /\.(ts|tsx|mts|mjs)$/.test(rel) && !/\.test\.|(^|\/)(([a-z0-9-]+-)?testing|bench)[^/]*\.ts$|\.d\.ts$/.test(rel);
    const files = ['server', 'lib', 'app', 'components'].flatMap((d) => walk(d, production));
    assert.ok(files.includes('server/main.ts') && files.length > 100, 'production sources found');
    const outside: string[] = [];
    for (const f of files) {
      const text = readFileSync(join(root, f), 'utf8');
      for (const m of text.matchAll(/\b(?:process\.)?env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g)) {
        const name = m[1] ?? m[2];
        const own = OWN_ENTRY.get(f);
        if (own) {
          assert.ok(readFileSync(join(root, own), 'utf8').includes(name), `${f} reads ${name}: document it in ${own}`);
        } else if (!config.has(name)) {
          outside.push(`${f}: ${name}`);
        }
      }
    }
    assert.deepEqual(
      outside,
      [],
      `read outside the schema of server/config.ts (add them to its fields and CONFIG_DOCS):\n${outside.join('\n')}`,
    );
  });

  test('every variable-like name the docs write in backticks is one the code knows', () => {
    const docs = [
      'README.md',
      ...walk('docs', (r) => r.endsWith('.md')),
      ...walk('lib', (r) => r.endsWith('README.md')),
      ...walk('programs', (r) => r.endsWith('README.md')),
    ];
    const code = ['lib', 'server', 'app', 'components', 'scripts', 'programs', 'e2e', 'prisma']
      .flatMap((d) => walk(d, (r) => /\.(ts|tsx|mts|mjs|cjs|c|h|json|prisma)$/.test(r)))
      .concat(['package.json', '.ci/run'])
      .map((f) => readFileSync(join(root, f), 'utf8'))
      .join('\n');
    // Names of other protocols the docs quote: libp2p circuit relay v2's status codes.
    const known = new Set<string>(['RESERVATION_REFUSED']);
    const unknown: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(join(root, doc), 'utf8');
      for (const m of text.matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=[^`]*)?`/g)) {
        const name = m[1];
        if (config.has(name) || known.has(name)) continue;
        if (new RegExp(`\\b${name}\\b`).test(code)) known.add(name);
        else unknown.push(`${relative(root, join(root, doc))}: ${name}`);
      }
    }
    assert.deepEqual(
      unknown,
      [],
      `named in the docs, but neither a variable of server/config.ts nor anything in the code:\n${unknown.join('\n')}`,
    );
  });
});
