import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, DEFAULT_OBSERVER_LISTEN } from './config';
import { ConfigError } from './errors';

describe('loadConfig', () => {
  test('defaults with an empty environment', () => {
    const c = loadConfig({});
    assert.deepEqual(c, {
      databaseUrl: undefined,
      dataDir: '.data',
      port: 3000,
      listen: [...DEFAULT_OBSERVER_LISTEN],
      bootstrap: [],
      demoAgents: 8,
      epochSeconds: 86_400,
      verifyWorkers: undefined,
      solanaRpcUrl: undefined,
      solanaWsUrl: undefined,
    });
  });

  test('reads every variable', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x',
      PORT: '8080',
      OBSERVER_LISTEN: '/ip4/0.0.0.0/tcp/4001, /ip4/0.0.0.0/tcp/4002/ws',
      BOOTSTRAP: '/ip4/10.0.0.1/tcp/4001/p2p/12D3KooWA1',
      DEMO_AGENTS: '0',
      EPOCH_SECONDS: '60',
      VERIFY_WORKERS: '0',
      SOLANA_RPC_URL: 'http://127.0.0.1:8899',
      SOLANA_WS_URL: 'ws://127.0.0.1:8900',
    });
    assert.equal(c.databaseUrl, 'postgres://postgres@127.0.0.1:5432/x');
    assert.equal(c.port, 8080);
    assert.deepEqual(c.listen, ['/ip4/0.0.0.0/tcp/4001', '/ip4/0.0.0.0/tcp/4002/ws']);
    assert.deepEqual(c.bootstrap, ['/ip4/10.0.0.1/tcp/4001/p2p/12D3KooWA1']);
    assert.equal(c.demoAgents, 0);
    assert.equal(c.epochSeconds, 60);
    assert.equal(c.verifyWorkers, 0);
    assert.equal(c.solanaRpcUrl, 'http://127.0.0.1:8899');
    assert.equal(c.solanaWsUrl, 'ws://127.0.0.1:8900');
  });

  const bad: Array<[string, string]> = [
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'not a url'],
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['OBSERVER_LISTEN', 'tcp://127.0.0.1:1'],
    ['BOOTSTRAP', '/ip4/1.2.3.4/tcp/1 garbage'],
    ['DEMO_AGENTS', '2.5'],
    ['DEMO_AGENTS', '1000'],
    ['EPOCH_SECONDS', '0'],
    ['VERIFY_WORKERS', '-1'],
    ['VERIFY_WORKERS', '65'],
    ['SOLANA_RPC_URL', 'ws://x'],
    ['SOLANA_WS_URL', 'http://x'],
  ];
  for (const [name, value] of bad) {
    test(`rejects ${name}=${value} naming the variable`, () => {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (e: unknown) => e instanceof ConfigError && e.variable === name && e.message.startsWith(`${name}: `),
      );
    });
  }

  test('empty values mean default', () => {
    assert.equal(loadConfig({ PORT: '', DEMO_AGENTS: ' ' }).port, 3000);
  });
});
