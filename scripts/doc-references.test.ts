// Every reference in the sources and docs resolves (scripts/doc-references.ts): once over the real
// tree (zero broken), and once over a small fixture tree with one broken reference of each kind
// beside a good one, to show that each kind is caught and that the good ones are not.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  commentsOnly,
  findBrokenReferences,
  formatBroken,
  githubSlug,
  markdownTargets,
  scannedFiles,
} from './doc-references';

const root = fileURLToPath(new URL('..', import.meta.url));

test('every docs section, anchor and repository path cited in the tree resolves', () => {
  const files = scannedFiles(root);
  assert.ok(
    files.includes('README.md') && files.includes('server/config.ts') && files.some((f) => f.startsWith('docs/')),
    'the scan reads README.md, server/ and docs/',
  );
  assert.ok(
    !files.some((f) => f.includes('node_modules/') || f.includes('/generated/') || f.startsWith('.next/')),
    'installed, built and generated files are skipped',
  );
  const broken = findBrokenReferences(root, files);
  assert.deepEqual(
    broken.map(formatBroken),
    [],
    `${broken.length} broken reference(s):\n${broken.map(formatBroken).join('\n')}`,
  );
});

describe('the checker on a fixture tree', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zx-docrefs-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const put = (rel: string, text: string) => {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), text);
  };
  put('.gitignore', 'node_modules/\nlib/out/\n');
  put(
    'README.md',
    [
      '# Fixture',
      '',
      '## Configuration',
      '',
      'See [the guide](docs/guide.md#fair-limits) and [gone](docs/guide.md#no-such-heading), [missing](docs/nope.md).',
      'Also docs/guide.md "Fair limits" and docs/guide.md "Unfair limits".',
      '',
    ].join('\n'),
  );
  put(
    'docs/guide.md',
    [
      '# Guide',
      '',
      '## §3 Validation and reason codes',
      '',
      '## Fair limits',
      '',
      '**Identity drop reasons.** text',
      '',
      '- Errors: codes',
      '',
      '```sh',
      '# Not a heading',
      '```',
      '',
      'Links: [back](../README.md#configuration), [lib](../lib/real.ts).',
      '',
      '[lib/devchain/README.md](../lib/devchain/README.md) "Warp" and [same](../lib/devchain/README.md) "Nope".',
      '',
    ].join('\n'),
  );
  put('lib/devchain/README.md', '# devchain\n\n## Warp (development only)\n');
  put(
    'lib/real.ts',
    [
      '/**',
      ' * Good: docs/guide.md "Fair limits", docs/guide.md "Identity drop reasons", docs/guide.md, "Errors",',
      ' * docs/guide.md §3, docs/guide.md ("Fair',
      ' * limits"), lib/real.ts, `lib/devchain/README.md`, lib/out/built.js (git-ignored), docs/*.md.',
      ' * Broken: docs/guide.md "Packages", docs/guide.md §9, PROTOCOL.md §2, lib/moved/economy.ts,',
      ' * docs/guide.md "Not a heading", README "Warp", docs/guide.md#nowhere.',
      ' * And CONVENTIONS.md named alone, while README.md and guide.md (beside nothing) differ: README.md is found.',
      ' */',
      "const inCode = 'lib/fixture/only-in-a-string.ts'; // a path in code is not a citation",
      'const re = /docs\\/x.md/; // lib/also-gone.ts',
      'export { inCode, re };',
      '',
    ].join('\n'),
  );

  const got = findBrokenReferences(dir).map((b) => `${b.file}:${b.line}: ${b.ref}`);

  test('each broken kind is reported with its file and line', () => {
    assert.deepEqual(
      got.sort(),
      [
        'README.md:5: docs/guide.md#no-such-heading',
        'README.md:5: docs/nope.md',
        'README.md:6: docs/guide.md "Unfair limits"',
        'docs/guide.md:17: ](../lib/devchain/README.md) "Nope"',
        'lib/real.ts:5: PROTOCOL.md §2',
        'lib/real.ts:5: docs/guide.md "Packages"',
        'lib/real.ts:5: docs/guide.md §9',
        'lib/real.ts:5: lib/moved/economy.ts',
        'lib/real.ts:6: README "Warp"',
        'lib/real.ts:6: docs/guide.md "Not a heading"',
        'lib/real.ts:6: docs/guide.md#nowhere',
        'lib/real.ts:7: CONVENTIONS.md',
        'lib/real.ts:7: guide.md',
        'lib/real.ts:10: lib/also-gone.ts',
      ].sort(),
    );
  });

  test('headings, labels and anchors as a reader finds them', () => {
    const t = markdownTargets(
      '# A\n\n## Live stream: `/api/stream`\n\n## A\n\n- **Bold** x\n- Item: y\n```\n## fenced\n```\n',
    );
    assert.deepEqual(t.headings, ['A', 'Live stream: /api/stream', 'A']);
    assert.deepEqual([...t.anchors], ['a', 'live-stream-apistream', 'a-1']);
    assert.deepEqual(t.labels, ['Bold', 'Item']);
    assert.equal(githubSlug('§10 Limits (spec §11)'), '10-limits-spec-11');
  });

  test('only comments of code are read for paths', () => {
    const c = commentsOnly("const a = 'x // y'; // lib/z.ts\nconst r = /\\/\\//; /* docs/w.md */\n");
    assert.equal(c.trim().replace(/\s+/g, ' '), '// lib/z.ts /* docs/w.md */');
  });
});
