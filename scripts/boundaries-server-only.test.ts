// `import 'server-only'` keeps server modules out of browser bundles while plain Node (the custom
// server, tests, agents) still loads them through scripts/setup-node.mjs's resolve hook.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const REFUSAL = /cannot be imported from a Client Component module/;

/** The modules marked server-only; a page-side entry and the store's entry among them. */
const MARKED = ['app/_lib/data.ts', 'app/_lib/services.ts', 'lib/store/index.ts'];

describe("import 'server-only'", () => {
  const dir = mkdtempSync(join(tmpdir(), 'server-only-probe-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('node processes started the project way load the marked modules', async () => {
    for (const path of MARKED) {
      const mod = (await import(pathToFileURL(join(root, path)).href)) as Record<string, unknown>;
      assert.ok(Object.keys(mod).length > 0, `${path} loaded with its exports`);
    }
  });

  test('without the hook, plain node refuses the marker (so the hook is what makes it load)', () => {
    const code = "import('server-only').then(() => console.log('loaded'), (e) => console.log(e.message))";
    const plain = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: root, encoding: 'utf8' });
    assert.match(plain.stdout, REFUSAL);
    const hooked = spawnSync(
      process.execPath,
      ['--import', './scripts/setup-node.mjs', '--input-type=module', '-e', code],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    assert.equal(hooked.stdout.trim(), 'loaded', hooked.stderr);
  });

  test('a client component that reaches a marked module builds into a bundle that refuses to load', async () => {
    const { build } = await import('esbuild');
    const entry = join(dir, 'Client.tsx');
    writeFileSync(
      entry,
      `'use client';\nimport { loadStats } from ${JSON.stringify(join(root, 'app/_lib/data.ts'))};\n` +
        'export function Client() { return typeof loadStats; }\n',
    );
    const bundle = async (conditions: string[]) => {
      const out = await build({
        entryPoints: [entry],
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        conditions,
        logLevel: 'silent',
        metafile: true,
      });
      const file = join(dir, `bundle-${conditions.join('-') || 'client'}.mjs`);
      writeFileSync(file, out.outputFiles[0].text);
      return { file, inputs: Object.keys(out.metafile.inputs) };
    };

    // a browser bundle resolves the marker to the module that throws, so it cannot run
    const client = await bundle([]);
    assert.ok(client.inputs.some((p) => p.endsWith('node_modules/server-only/index.js')));
    await assert.rejects(import(pathToFileURL(client.file).href), REFUSAL);

    // the same graph built for the server side (the "react-server" condition, as Next's server
    // layers have it) loads: the marker alone is what stops the client bundle
    const server = await bundle(['react-server']);
    assert.ok(server.inputs.some((p) => p.endsWith('node_modules/server-only/empty.js')));
    const mod = (await import(pathToFileURL(server.file).href)) as { Client: () => string };
    assert.equal(mod.Client(), 'function');
  });
});
