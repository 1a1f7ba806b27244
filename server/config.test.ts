import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_OBSERVER_LISTEN, defaultObservatoryConfig } from '../lib/observer/config';
import { ConfigError, CONFIG_VARIABLES, DEMO_EPOCH_SECONDS, loadConfig } from './config';
import { DEFAULT_RATE_LIMITS } from './rate-limit';

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
      // Demo agents and no EPOCH_SECONDS: the demo's short epochs.
      epochSeconds: 20,
      verifyWorkers: undefined,
      ingestBuffer: undefined,
      solanaRpcUrl: undefined,
      solanaWsUrl: undefined,
      host: undefined,
      nodeEnv: 'development',
      logLevel: 'info',
      chain: true,
      chainPort: 8899,
      rateLimits: DEFAULT_RATE_LIMITS,
      satiRegisterUrl: undefined,
    });
  });

  test('the observer part of the defaults is the observer\'s own default config', () => {
    const { host: _h, nodeEnv: _n, logLevel: _l, chain: _c, chainPort: _p, rateLimits: _r, satiRegisterUrl: _s, ...observer } = loadConfig({ DEMO_AGENTS: '0' });
    assert.deepEqual(observer, defaultObservatoryConfig({ demoAgents: 0 }));
    assert.equal(observer.epochSeconds, 86_400);
  });

  test('the demo epoch default applies only with demo agents and no EPOCH_SECONDS', () => {
    assert.equal(DEMO_EPOCH_SECONDS, 20);
    assert.equal(loadConfig({ DEMO_AGENTS: '3' }).epochSeconds, 20);
    assert.equal(loadConfig({ DEMO_AGENTS: '3', EPOCH_SECONDS: ' ' }).epochSeconds, 20);
    assert.equal(loadConfig({ DEMO_AGENTS: '3', EPOCH_SECONDS: '86400' }).epochSeconds, 86_400);
    assert.equal(loadConfig({ DEMO_AGENTS: '0' }).epochSeconds, 86_400);
    assert.equal(loadConfig({ DEMO_AGENTS: '0', EPOCH_SECONDS: '60' }).epochSeconds, 60);
  });

  test('reads every variable', () => {
    const c = loadConfig({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/x',
      DATA_DIR: '/tmp/zx',
      PORT: '8080',
      OBSERVER_LISTEN: '/ip4/0.0.0.0/tcp/4001, /ip4/0.0.0.0/tcp/4002/ws',
      BOOTSTRAP: '/ip4/10.0.0.1/tcp/4001/p2p/12D3KooWA1',
      DEMO_AGENTS: '0',
      EPOCH_SECONDS: '60',
      VERIFY_WORKERS: '0',
      INGEST_BUFFER_ENVELOPES: '50000',
      INGEST_BUFFER_MB: '64',
      SOLANA_RPC_URL: 'http://127.0.0.1:8899',
      SOLANA_WS_URL: 'ws://127.0.0.1:8900',
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      LOG_LEVEL: 'DEBUG',
      CHAIN: 'off',
      CHAIN_PORT: '0',
    });
    assert.equal(c.databaseUrl, 'postgres://postgres@127.0.0.1:5432/x');
    assert.equal(c.dataDir, '/tmp/zx');
    assert.equal(c.port, 8080);
    assert.deepEqual(c.listen, ['/ip4/0.0.0.0/tcp/4001', '/ip4/0.0.0.0/tcp/4002/ws']);
    assert.deepEqual(c.bootstrap, ['/ip4/10.0.0.1/tcp/4001/p2p/12D3KooWA1']);
    assert.equal(c.demoAgents, 0);
    assert.equal(c.epochSeconds, 60);
    assert.equal(c.verifyWorkers, 0);
    assert.deepEqual(c.ingestBuffer, { maxEnvelopes: 50_000, maxBytes: 64 * 1024 * 1024 });
    assert.equal(c.solanaRpcUrl, 'http://127.0.0.1:8899');
    assert.equal(c.solanaWsUrl, 'ws://127.0.0.1:8900');
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.nodeEnv, 'production');
    assert.equal(c.logLevel, 'debug');
    assert.equal(c.chain, false);
    assert.equal(c.chainPort, 0);
  });

  test('HOST takes names and IPv4/IPv6 addresses; brackets are dropped', () => {
    assert.equal(loadConfig({ HOST: 'localhost' }).host, 'localhost');
    assert.equal(loadConfig({ HOST: '0.0.0.0' }).host, '0.0.0.0');
    assert.equal(loadConfig({ HOST: '::' }).host, '::');
    assert.equal(loadConfig({ HOST: '[::1]' }).host, '::1');
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
    ['HOST', 'two words'],
    ['HOST', 'http://localhost'],
    ['NODE_ENV', 'staging'],
    ['LOG_LEVEL', 'verbose'],
    ['CHAIN', 'yes'],
    ['CHAIN_PORT', '65535'],
    ['CHAIN_PORT', '88a'],
    ['RATE_LIMIT_API', '20'],
    ['RATE_LIMIT_API', '0:10'],
    ['RATE_LIMIT_EXPORT', 'fast'],
    ['RATE_LIMIT_MCP', '5:0'],
    ['SATI_REGISTER_URL', 'ftp://sati'],
    ['INGEST_BUFFER_ENVELOPES', '10'],
    ['INGEST_BUFFER_MB', '0'],
  ];
  for (const [name, value] of bad) {
    test(`rejects ${name}=${value} naming the variable`, () => {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (e: unknown) => e instanceof ConfigError && e.variable === name && e.message.startsWith(`${name}: `) && e.message.includes(JSON.stringify(value)),
      );
    });
  }

  test('every variable has a bad-value case above', () => {
    assert.deepEqual([...new Set(bad.map(([n]) => n))].sort(), [...CONFIG_VARIABLES].filter((v) => v !== 'DATA_DIR').sort());
  });

  test('rate limits: RATE:BURST per class, off removes a class', () => {
    const c = loadConfig({ RATE_LIMIT_API: '2:5', RATE_LIMIT_EXPORT: 'off', RATE_LIMIT_MCP: '0.5:3' });
    assert.deepEqual(c.rateLimits, { api: { perSecond: 2, burst: 5 }, mcp: { perSecond: 0.5, burst: 3 } });
  });

  test('empty values mean default', () => {
    assert.equal(loadConfig({ PORT: '', DEMO_AGENTS: ' ' }).port, 3000);
    assert.equal(loadConfig({ LOG_LEVEL: '', CHAIN: '' }).logLevel, 'info');
    assert.equal(loadConfig({ CHAIN: '' }).chain, true);
  });
});
