import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_ALERTS_CONFIG } from '../lib/alerts';
import { CLUSTERS, EMBEDDED_CLUSTER } from '../lib/chain/cluster';
import { SATI_MAINNET } from '../lib/chain/sati';
import { DEFAULT_OBSERVER_LISTEN, DEFAULT_RELAY_RESERVATIONS, defaultObservatoryConfig } from '../lib/observer/config';
import { CONFIG_VARIABLES, ConfigError, DEMO_EPOCH_SECONDS, loadConfig } from './config';
import { DEFAULT_HEAVY_LIMITS } from './heavy-gate';
import { DEFAULT_RATE_LIMITS } from './rate-limit';
import { DEFAULT_FAUCET_LIMITS, DEFAULT_RPC_LIMITS } from './rpc-gate';

/** Every address CLUSTER=custom needs (mainnet's SATI, a made-up USDC mint). */
const CUSTOM_ADDRESSES = {
  SATI_PROGRAM_ID: SATI_MAINNET.program.toBase58(),
  SATI_GROUP_MINT: SATI_MAINNET.groupMint.toBase58(),
  SAS_PROGRAM_ID: SATI_MAINNET.sas.toBase58(),
  SATI_CREDENTIAL: SATI_MAINNET.credential.toBase58(),
  SATI_DELEGATE_SCHEMA: SATI_MAINNET.delegateSchema.toBase58(),
  USDC_MINT: 'So11111111111111111111111111111111111111112',
};

describe('loadConfig', () => {
  test('defaults with an empty environment', () => {
    const c = loadConfig({});
    assert.deepEqual(c, {
      databaseUrl: undefined,
      dataDir: '.data',
      port: 3000,
      listen: [...DEFAULT_OBSERVER_LISTEN],
      bootstrap: [],
      relayReservations: DEFAULT_RELAY_RESERVATIONS,
      libp2pMetrics: false,
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
      heavy: DEFAULT_HEAVY_LIMITS,
      satiRegisterUrl: undefined,
      photonUrl: undefined,
      publicRpcUrl: undefined,
      discoveryAllowPrivate: false,
      connectionsPerClient: 256,
      streamPerClient: 20,
      rpcLimits: DEFAULT_RPC_LIMITS,
      // Embedded chain with demo agents: the faucet is on.
      faucet: DEFAULT_FAUCET_LIMITS,
      // Neither CLUSTER nor SOLANA_RPC_URL: the embedded chain's row.
      cluster: EMBEDDED_CLUSTER,
      alerts: { ...DEFAULT_ALERTS_CONFIG, publicUrl: 'http://localhost:3000' },
      disputeReviewers: [],
      demoLeasePause: undefined,
    });
  });

  test("the observer part of the defaults is the observer's own default config", () => {
    const {
      host: _h,
      nodeEnv: _n,
      logLevel: _l,
      chain: _c,
      chainPort: _p,
      rateLimits: _r,
      heavy: _hv,
      satiRegisterUrl: _s,
      photonUrl: _ph,
      publicRpcUrl: _pr,
      discoveryAllowPrivate: _dap,
      connectionsPerClient: _cc,
      streamPerClient: _sc,
      rpcLimits: _rl,
      faucet: _f,
      cluster: _cl,
      alerts: _al,
      disputeReviewers: _dr,
      demoLeasePause: _dp,
      ...observer
    } = loadConfig({ DEMO_AGENTS: '0' });
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
      RELAY_RESERVATIONS: '0',
      LIBP2P_METRICS: 'on',
      DEMO_AGENTS: '0',
      EPOCH_SECONDS: '60',
      VERIFY_WORKERS: '0',
      INGEST_BUFFER_ENVELOPES: '50000',
      INGEST_BUFFER_MB: '64',
      SOLANA_RPC_URL: 'http://127.0.0.1:8899',
      SOLANA_WS_URL: 'ws://127.0.0.1:8900',
      CLUSTER: 'custom',
      ...CUSTOM_ADDRESSES,
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
    assert.equal(c.relayReservations, 0);
    assert.equal(loadConfig({}).relayReservations, 32);
    assert.equal(c.libp2pMetrics, true);
    assert.equal(loadConfig({}).libp2pMetrics, false);
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
    assert.equal(c.cluster.name, 'custom');
    assert.equal(c.cluster.usdcMint?.toBase58(), CUSTOM_ADDRESSES.USDC_MINT);
    assert.equal(c.cluster.sati.groupMint.toBase58(), CUSTOM_ADDRESSES.SATI_GROUP_MINT);
  });

  test(
    'CLUSTER picks one row for SATI, programs, USDC and ' + 'bootstrap; SOLANA_RPC_URL defaults to its public endpoint',
    () => {
      const m = loadConfig({ CLUSTER: 'mainnet' });
      assert.equal(m.cluster.name, 'mainnet');
      assert.equal(m.solanaRpcUrl, CLUSTERS.mainnet.rpcUrl);
      assert.equal(m.cluster.usdcMint?.toBase58(), 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');
      assert.equal(m.cluster.sati.program.toBase58(), 'satiRkxEiwZ51cv8PRu8UMzuaqeaNU9jABo6oAFMsLe');
      assert.equal(m.faucet, null);
      const d = loadConfig({
        CLUSTER: 'DEVNET',
        SOLANA_RPC_URL: 'https://rpc.example.org/key',
        BOOTSTRAP: '/ip4/10.0.0.1/tcp/4001',
      });
      assert.equal(d.cluster.name, 'devnet');
      assert.equal(d.solanaRpcUrl, 'https://rpc.example.org/key');
      assert.equal(d.cluster.usdcMint?.toBase58(), '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU');
      assert.deepEqual(d.bootstrap, ['/ip4/10.0.0.1/tcp/4001']);
      // A public endpoint names its cluster without CLUSTER.
      assert.equal(loadConfig({ SOLANA_RPC_URL: 'https://api.devnet.solana.com' }).cluster.name, 'devnet');
      assert.equal(loadConfig({ SOLANA_RPC_URL: 'https://api.mainnet-beta.solana.com' }).cluster.name, 'mainnet');
      // An address variable overrides its entry on a named cluster.
      const o = loadConfig({ CLUSTER: 'devnet', SATI_GROUP_MINT: CUSTOM_ADDRESSES.USDC_MINT });
      assert.equal(o.cluster.sati.groupMint.toBase58(), CUSTOM_ADDRESSES.USDC_MINT);
      assert.equal(o.cluster.sati.program.toBase58(), SATI_MAINNET.program.toBase58());
    },
  );

  test('anything CLUSTER=custom lacks is refused with the variable named', () => {
    const full = { CLUSTER: 'custom', SOLANA_RPC_URL: 'http://127.0.0.1:9000', ...CUSTOM_ADDRESSES };
    assert.equal(loadConfig(full).cluster.name, 'custom');
    for (const v of ['SOLANA_RPC_URL', ...Object.keys(CUSTOM_ADDRESSES)]) {
      const env: Record<string, string | undefined> = { ...full, [v]: undefined };
      assert.throws(
        () => loadConfig(env),
        (e: unknown) => e instanceof ConfigError && e.variable === v && /required with CLUSTER=custom/.test(e.message),
        v,
      );
    }
    assert.throws(
      () => loadConfig({ SOLANA_RPC_URL: 'http://127.0.0.1:9000' }),
      (e: unknown) => e instanceof ConfigError && e.variable === 'CLUSTER',
    );
    assert.throws(
      () => loadConfig({ CLUSTER: 'testnet' }),
      (e: unknown) => e instanceof ConfigError && e.variable === 'CLUSTER',
    );
    assert.throws(
      () => loadConfig({ ...full, SATI_GROUP_MINT: 'not-an-address' }),
      (e: unknown) => e instanceof ConfigError && e.variable === 'SATI_GROUP_MINT',
    );
    // The feedback schemas and lookup table are optional: mainnet's unless set.
    assert.equal(loadConfig(full).cluster.sati.lookupTable.toBase58(), SATI_MAINNET.lookupTable.toBase58());
    assert.throws(
      () => loadConfig({ USDC_MINT: CUSTOM_ADDRESSES.USDC_MINT }),
      (e: unknown) => e instanceof ConfigError && e.variable === 'USDC_MINT' && /embedded chain/.test(e.message),
    );
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
    ['LIBP2P_METRICS', 'yes'],
    ['RELAY_RESERVATIONS', '-1'],
    ['RELAY_RESERVATIONS', '5000'],
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
    ['HEAVY_PER_CLIENT', '0'],
    ['HEAVY_QUEUE', 'many'],
    ['HEAVY_WAIT_MS', '5'],
    ['HEAVY_BUDGET', '500'],
    ['SATI_REGISTER_URL', 'ftp://sati'],
    ['PHOTON_URL', 'ws://photon'],
    ['PUBLIC_RPC_URL', 'chain.example.org'],
    ['INGEST_BUFFER_ENVELOPES', '10'],
    ['INGEST_BUFFER_MB', '0'],
    ['CONNECTIONS_PER_CLIENT', '0'],
    ['STREAM_PER_CLIENT', 'many'],
    ['RPC_MAX_BATCH', '1001'],
    ['RATE_LIMIT_RPC', '5'],
    ['RATE_LIMIT_RPC_HEAVY', '0:1'],
    ['FAUCET', 'maybe'],
    ['FAUCET_PER_HOUR', '0'],
    ['FAUCET_WALLET_PER_HOUR', '-3'],
    ['CLUSTER', 'localnet'],
    ['SATI_PROGRAM_ID', 'sati'],
    ['SATI_GROUP_MINT', '0OIl'],
    ['SAS_PROGRAM_ID', '1'],
    ['SATI_CREDENTIAL', 'x'.repeat(44)],
    ['SATI_DELEGATE_SCHEMA', ''.padEnd(50, '2')],
    ['SATI_FEEDBACK_PUBLIC_SCHEMA', 'abc def'],
    ['SATI_FEEDBACK_SCHEMA', '-'],
    ['SATI_LOOKUP_TABLE', '3ZwvNnz6mdyLyLyPaSZVpfthWcsDV3x3r6QSufjcRcoi0'],
    ['USDC_MINT', 'usdc'],
    ['ALERT_MAX_AGENTS', '0'],
    ['ALERT_MAX_RULES', 'many'],
    ['ALERT_DELIVERIES_PER_HOUR', '-1'],
    ['ALERT_RULE_PER_HOUR', '0'],
    ['ALERT_WEBHOOK_ALLOW_PRIVATE', 'yes'],
    ['DISCOVERY_ALLOW_PRIVATE', 'yes'],
    ['ALERT_WEBHOOKS', 'ftp://hooks.example'],
    ['ALERT_WEBHOOKS', '[{"url": "https://h.example", "format": "teams"}]'],
    ['ALERT_EVAL_MS', '5'],
    ['ALERT_RETRY_BASE_MS', 'soon'],
    ['PUBLIC_URL', 'observatory.example'],
    ['DEMO_LEASE_PAUSE', '2'],
    ['DISPUTE_REVIEWERS', '11111111111111111111111111111111, not-an-address'],
  ];
  for (const [name, value] of bad) {
    test(`rejects ${name}=${value} naming the variable`, () => {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (e: unknown) =>
          e instanceof ConfigError &&
          e.variable === name &&
          e.message.startsWith(`${name}: `) &&
          e.message.includes(JSON.stringify(value)),
      );
    });
  }

  test('every variable has a bad-value case above', () => {
    assert.deepEqual(
      [...new Set(bad.map(([n]) => n))].sort(),
      [...CONFIG_VARIABLES].filter((v) => v !== 'DATA_DIR').sort(),
    );
  });

  test('rate limits: RATE:BURST per class, off removes a class', () => {
    const h = loadConfig({ HEAVY_PER_CLIENT: '3', HEAVY_QUEUE: '0', HEAVY_WAIT_MS: '2000', HEAVY_BUDGET: 'off' }).heavy;
    assert.deepEqual(h, { perClient: 3, queue: 0, waitMs: 2000, budget: null });
    assert.deepEqual(loadConfig({ HEAVY_BUDGET: '250:5000' }).heavy.budget, { perSecond: 250, burst: 5000 });
    const c = loadConfig({ RATE_LIMIT_API: '2:5', RATE_LIMIT_EXPORT: 'off', RATE_LIMIT_MCP: '0.5:3' });
    assert.deepEqual(c.rateLimits, { api: { perSecond: 2, burst: 5 }, mcp: { perSecond: 0.5, burst: 3 } });
  });

  test('limits: connections, stream slots, the chain proxy, off where allowed', () => {
    const c = loadConfig({
      CONNECTIONS_PER_CLIENT: 'off',
      STREAM_PER_CLIENT: '3',
      RPC_MAX_BATCH: '10',
      RATE_LIMIT_RPC: '10:40',
      RATE_LIMIT_RPC_HEAVY: 'off',
    });
    assert.equal(c.connectionsPerClient, null);
    assert.equal(c.streamPerClient, 3);
    assert.deepEqual(c.rpcLimits, {
      ...DEFAULT_RPC_LIMITS,
      maxBatch: 10,
      calls: { perSecond: 10, burst: 40 },
      heavy: null,
    });
    assert.equal(loadConfig({ CONNECTIONS_PER_CLIENT: '64' }).connectionsPerClient, 64);
  });

  test(
    'the faucet: on by default only with the embedded chain ' + 'and demo agents; FAUCET=on needs the embedded chain',
    () => {
      assert.equal(loadConfig({ DEMO_AGENTS: '0' }).faucet, null, 'off without demo agents');
      assert.deepEqual(
        loadConfig({ DEMO_AGENTS: '0', FAUCET: 'on', FAUCET_PER_HOUR: '4', FAUCET_WALLET_PER_HOUR: '1' }).faucet,
        { perClientPerHour: 4, perWalletPerHour: 1 },
      );
      assert.equal(loadConfig({ FAUCET: 'off' }).faucet, null);
      assert.equal(
        loadConfig({ SOLANA_RPC_URL: 'https://api.devnet.solana.com' }).faucet,
        null,
        'never on a cluster by default',
      );
      assert.equal(loadConfig({ CHAIN: 'off' }).faucet, null);
      assert.throws(
        () => loadConfig({ FAUCET: 'on', SOLANA_RPC_URL: 'https://api.devnet.solana.com' }),
        (e: unknown) => e instanceof ConfigError && e.variable === 'FAUCET' && /names a cluster/.test(e.message),
      );
      assert.throws(
        () => loadConfig({ FAUCET: 'on', CHAIN: 'off' }),
        (e: unknown) => e instanceof ConfigError && e.variable === 'FAUCET',
      );
    },
  );

  test('alerts: caps, the deployment webhooks as JSON or a URL list, private webhooks only when allowed', () => {
    const d = loadConfig({});
    assert.deepEqual(
      [
        d.alerts.caps.agents,
        d.alerts.caps.rules,
        d.alerts.caps.deliveriesPerHour,
        d.alerts.allowPrivateWebhooks,
        d.alerts.envWebhooks.length,
      ],
      [200, 20, 60, false, 0],
    );
    const c = loadConfig({
      ALERT_MAX_AGENTS: '5',
      ALERT_WEBHOOK_ALLOW_PRIVATE: '1',
      ALERT_WEBHOOKS: 'https://a.example/h, https://b.example/h',
      DEMO_LEASE_PAUSE: '2@1790000000',
    });
    assert.equal(c.alerts.caps.agents, 5);
    assert.equal(c.alerts.allowPrivateWebhooks, true);
    assert.deepEqual(
      c.alerts.envWebhooks.map((w) => [w.url, w.format, w.agents]),
      [
        ['https://a.example/h', 'json', 'all'],
        ['https://b.example/h', 'json', 'all'],
      ],
    );
    assert.deepEqual(c.demoLeasePause, { index: 2, untilMs: 1_790_000_000_000 });
    const j = loadConfig({
      ALERT_WEBHOOKS: JSON.stringify([
        {
          url: 'https://hooks.slack.example/x',
          format: 'slack',
          agents: ['11'.repeat(32)],
          rules: { offline: { minutes: 3 } },
        },
      ]),
    });

    assert.deepEqual(j.alerts.envWebhooks[0].rules, { offline: { minutes: 3 } });
  });

  test('dispute reviewers: none by default, a list of base58 addresses (repeats once)', () => {
    assert.deepEqual(loadConfig({}).disputeReviewers, []);
    const a = 'So11111111111111111111111111111111111111112';
    assert.deepEqual(
      loadConfig({ DISPUTE_REVIEWERS: `${a}, 11111111111111111111111111111111 ${a}` }).disputeReviewers,
      [a, '11111111111111111111111111111111'],
    );
  });

  test('empty values mean default', () => {
    assert.equal(loadConfig({ PORT: '', DEMO_AGENTS: ' ' }).port, 3000);
    assert.equal(loadConfig({ LOG_LEVEL: '', CHAIN: '' }).logLevel, 'info');
    assert.equal(loadConfig({ CHAIN: '' }).chain, true);
  });
});

test('PUBLIC_RPC_URL is the URL Explorer links name', () => {
  assert.equal(
    loadConfig({ PUBLIC_RPC_URL: 'https://chain.example.org/api/chain/rpc' }).publicRpcUrl,
    'https://chain.example.org/api/chain/rpc',
  );
});
