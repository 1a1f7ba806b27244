// The chain SDK (lib/chain/index.ts) must bundle for the browser: a 'use client' component that
// imports it and calls a builder is bundled by esbuild with platform 'browser', which fails on
// any node:* import. The node-only deployment module must fail the same build (so the check can fail).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const chainDir = join(root, 'lib/chain');

async function bundle(entry: string) {
  const esbuild = await import('esbuild');
  return esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
    jsx: 'automatic',
    nodePaths: [join(root, 'node_modules')],
    define: { 'process.env.NODE_ENV': '"production"' },
  });
}

test('a client component importing the chain SDK bundles for the browser without node builtins', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zx-chain-bundle-'));
  try {
    const file = join(dir, 'stake-button.tsx');
    writeFileSync(
      file,
      `'use client';
import { PublicKey } from '@solana/web3.js';
import {
  lockStakeInstructions, decodeTransactionError, parseEvents, PROGRAM_IDS, type EconomyConfig,
} from ${JSON.stringify(chainDir)};

export function StakeButton(p: { owner: string; agent: string; config: EconomyConfig }) {
  const ixs = lockStakeInstructions({
    owner: new PublicKey(p.owner), agent: new PublicKey(p.agent),
    amount: 10_000_000n, config: p.config, memberNumber: 1n,
  });
  const hint = decodeTransactionError({ InstructionError: [0, { Custom: 8200 }] }).message;
  return (
    <button title={hint} data-events={parseEvents([]).length} data-program={PROGRAM_IDS.stakeLock.toBase58()}>
      {ixs.length}
    </button>
  );
}
`,
    );
    const r = await bundle(file);
    assert.equal(r.errors.length, 0);
    const inputs = Object.keys(r.metafile.inputs);
    assert.ok(
      inputs.some((i) => i.endsWith('lib/chain/builders.ts')),
      'the builders are in the bundle',
    );
    assert.ok(
      inputs.some((i) => i.endsWith('lib/chain/sati.ts')),
      'the whole index is in the bundle',
    );
    assert.deepEqual(
      inputs.filter((i) => i.startsWith('node:') || i.includes('lib/chain/node/')),
      [],
    );
    assert.ok(r.outputFiles[0].contents.length > 10_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the node-only deployment module does not bundle for the browser (node:fs)', async () => {
  await assert.rejects(bundle(join(chainDir, 'node/deployment.ts')), (e: { errors?: { text: string }[] }) => {
    assert.ok(
      e.errors?.some((x) => /node:(fs|path)/.test(x.text)),
      JSON.stringify(e.errors?.map((x) => x.text)),
    );
    return true;
  });
});
