// The dependency boundaries of docs/architecture.md "Folders", checked by dependency-cruiser with
// .dependency-cruiser.cjs: once over the real tree (zero violations), and once over a small fixture
// tree with one wrong import per rule, to show that each rule fires on exactly what it forbids.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const configPath = join(root, '.dependency-cruiser.cjs');
const cli = join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
const require = createRequire(import.meta.url);

interface Violation {
  type?: string;
  rule: { name: string; severity: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

interface Config {
  forbidden: { name: string; comment?: string }[];
}

const config = require(configPath) as Config;

/** Runs the checker's CLI (the same command a developer runs) in `cwd` and returns every violation. */
function cruise(cwd: string, targets: string[]): Violation[] {
  const run = spawnSync(process.execPath, [cli, '--config', configPath, '--output-type', 'json', ...targets], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (!run.stdout) throw new Error(`dependency-cruiser failed (exit ${run.status}): ${run.stderr}`);
  return (JSON.parse(run.stdout) as { summary: { violations: Violation[] } }).summary.violations;
}

function describeViolation(v: Violation): string {
  const path = v.cycle ? [v.from, ...v.cycle.map((step) => step.name)].join(' -> ') : `${v.from} -> ${v.to}`;
  const comment = config.forbidden.find((rule) => rule.name === v.rule.name)?.comment ?? '';
  return `  ${v.rule.name}: ${path}\n      (${comment})`;
}

/**
 * Pages and app/_lib read the store through `reads` (app/_lib/runtime.ts ReadStore), never the
 * observer's own store: a property access dependency-cruiser cannot see, so the source is read.
 * Catches `observatory.store`, `observatory?.store` and `const { store } = o.observatory`.
 */
const OBSERVER_STORE = /\bobservatory\s*\??\.\s*store\b|\{[^}]*\bstore\b[^}]*\}\s*=\s*[\w.?]*\bobservatory\b/;

/** `path:line` of every line of a .ts/.tsx file under `dir/app` that reaches the observer's store. */
function observerStoreUses(dir: string): string[] {
  const hits: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name))
        readFileSync(p, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            if (OBSERVER_STORE.test(line)) hits.push(`${relative(dir, p)}:${i + 1}`);
          });
    }
  };
  walk(join(dir, 'app'));
  return hits.sort();
}

const names = (cycle: { name: string }[]) =>
  cycle
    .map((step) => step.name)
    .sort()
    .join(' ');

describe('dependency boundaries', () => {
  test('the tree breaks no boundary rule', () => {
    const found = cruise(root, ['app', 'components', 'server', 'lib', 'scripts', 'programs', 'e2e']);
    assert.equal(
      found.length,
      0,
      `${found.length} boundary violation(s); fix the import:\n${found.map(describeViolation).join('\n')}`,
    );
  });

  test('pages and app/_lib reach the store through reads only', () => {
    const found = observerStoreUses(root);
    assert.deepEqual(found, [], `read through o.reads (app/_lib/runtime.ts ReadStore) instead:\n${found.join('\n')}`);
  });

  test('the reads-only check finds the observer store reached in app/', () => {
    const dir = mkdtempSync(join(tmpdir(), 'reads-probe-'));
    try {
      const files: Record<string, string> = {
        'app/_lib/fine.ts': 'export const load = (o: { reads: { getEnvelope(): number } }) => o.reads.getEnvelope();\n',
        'app/_lib/probe.ts':
          'export const load = (o: { observatory: { store: { getEnvelope(): ' +
          'number } } }) =>\n  o.observatory.store.getEnvelope();\n',
        'app/x/[id]/page.tsx':
          'export default function Page({ o }: { o: any }) {\n  const { store } = o.observatory;\n  return store;\n}\n',
        'app/y/page.tsx': 'export default function Page({ o }: { o: any }) {\n  return o.observatory?.store;\n}\n',
      };
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      assert.deepEqual(observerStoreUses(dir), ['app/_lib/probe.ts:2', 'app/x/[id]/page.tsx:2', 'app/y/page.tsx:2']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('each rule fires on a wrong import', () => {
    let dir = '';
    const files: Record<string, string> = {
      'lib/store/index.ts': 'export const store = 1;\n',
      'lib/store/envelopes/queries.ts': 'export const rows = 1;\n',
      'lib/store/envelopes/index.ts': "import { rows } from './queries';\nexport const envelopes = rows;\n",
      'lib/protocol/pure.ts': 'export const pure = 1;\n',
      'lib/chain/pda.ts': "import { pure } from '../protocol/pure';\nexport const pda = pure;\n",
      // allowed imports: these must produce nothing
      'components/Fine.tsx':
        "import { pure } from '../lib/protocol/pure';\nimport { pda " +
        "} from '../lib/chain/pda';\nexport const fine = pure + pda;\n",
      'lib/observer/fine.ts': "import { store } from '../store/index';\nexport const fine = store;\n",
      'lib/observer/fine-feature.ts':
        "import { envelopes } from '../store/envelopes';\nexport const fine = envelopes;\n",
      'components/wallet/Fine.tsx':
        "import { useWallet } from '@solana/wallet-adapter-react';\nexport const fine = useWallet;\n",
      'lib/verify/fine.ts':
        "import { pure } from '../protocol/pure';\nimport { pda " +
        "} from '../chain/pda';\nexport const fine = pure + pda;\n",
      'components/FineVerify.tsx': "import { fine } from '../lib/verify/fine';\nexport const ok = fine;\n",
      // one wrong import per rule
      'components/__boundary_probe.tsx': "import { store } from '../lib/store/index';\nexport const probe = store;\n",
      'lib/protocol/probe.ts': "import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n",
      'lib/mesh/probe.ts': "import { PublicKey } from '@solana/web3.js';\nexport const probe = PublicKey;\n",
      'components/__wallet_probe.tsx':
        "import { useWallet } from '@solana/wallet-adapter-react';\nexport const probe = useWallet;\n",
      'lib/chain/probe.ts': "import { createHash } from 'node:crypto';\nexport const probe = createHash;\n",
      'lib/agents/probe.ts': "import { store } from '../store/index';\nexport const probe = store;\n",
      'lib/mcp/probe.ts': "import { store } from '../store/index';\nexport const probe = store;\n",
      'lib/wire/probe.ts':
        "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';\nexport const probe = McpServer;\n",
      'lib/verify/probe.ts': "import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n",
      'lib/mesh/browser.ts': "import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n",
      'lib/verify/probe-store.ts': "import { store } from '../store/index';\nexport const probe = store;\n",
      'app/page.tsx': "import { store } from '../lib/store/index';\nexport default function Page() { return store; }\n",
      'app/fine/page.tsx':
        "import { fine } from '../../components/Fine';\nexport default function Page() { return fine; }\n",
      'app/_lib/probe.ts': "import { fine } from '../../components/Fine';\nexport const probe = fine;\n",
      'lib/observer/deep-store.ts': "import { rows } from '../store/envelopes/queries';\nexport const probe = rows;\n",
      'lib/observer/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'lib/observer/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    };

    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'boundary-probe-'));
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { module: 'esnext', moduleResolution: 'bundler', jsx: 'react-jsx', noEmit: true },
        }),
      );
      // npm packages resolve from the project's own node_modules
      symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    });
    after(() => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('exactly the wrong imports are reported, each under its rule', () => {
      const found = cruise(dir, ['app', 'components', 'lib']);
      const plain = found
        .filter((v) => v.type !== 'cycle')
        .map(
          (v) =>
            `${v.rule.name}: ${v.from} -> ${v.to.replace(
              /^.*node_modules\/(@solana\/(?:web3\.js|wallet-adapter-react)|@modelcontextprotocol\/sdk)\/.*$/,
              '$1',
            )}`,
        )
        .sort();
      assert.deepEqual(plain, [
        'app-lib-no-components: app/_lib/probe.ts -> components/Fine.tsx',
        'app-pages-through-lib: app/page.tsx -> lib/store/index.ts',
        'chain-browser-safe: lib/chain/probe.ts -> crypto',
        'components-browser-safe: components/__boundary_probe.tsx -> lib/store/index.ts',
        'layer-agents: lib/agents/probe.ts -> lib/store/index.ts',
        'layer-mcp: lib/mcp/probe.ts -> lib/store/index.ts',
        'layer-verify: lib/verify/probe-store.ts -> lib/store/index.ts',
        'mcp-sdk-only-in-mcp: lib/wire/probe.ts -> @modelcontextprotocol/sdk',
        'mesh-browser-safe: lib/mesh/browser.ts -> fs',
        'protocol-no-io: lib/protocol/probe.ts -> fs',
        'solana-only-in-chain: lib/mesh/probe.ts -> @solana/web3.js',
        'store-through-index: lib/observer/deep-store.ts -> lib/store/envelopes/queries.ts',
        'verify-browser-safe: lib/verify/probe.ts -> fs',
        'wallet-adapter-only-in-components-wallet: components/__wallet_probe.tsx -> @solana/wallet-adapter-react',
      ]);
      const cycles = found.filter((v) => v.type === 'cycle');
      assert.ok(cycles.length > 0, 'the a.ts <-> b.ts cycle is reported');
      for (const v of cycles) {
        assert.equal(v.rule.name, 'no-circular');
        assert.equal(names(v.cycle ?? []), 'lib/observer/a.ts lib/observer/b.ts');
      }
      assert.ok(found.every((v) => v.rule.severity === 'error'));
    });
  });
});
