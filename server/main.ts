/**
 * The one observatory process (docs/app.md "One process: custom server, not the instrumentation hook"): checks the
 * configuration (every
 * environment variable, ./config.ts), starts the runtime (store, chain, observer, indexer;
 * ./runtime.ts), then serves the Next.js app and the `/api/stream` WebSocket on PORT and, when
 * DEMO_AGENTS > 0, starts the demo mesh, whose agents upload to this very server.
 *
 * Run: node --import tsx --import ./scripts/setup-node.mjs server/main.ts
 * NODE_ENV=production serves the built app (.next, made by `next build`); anything else runs
 * Next in dev mode with hot reload (its HMR WebSocket upgrade is left to Next).
 */
import { createServer } from 'node:http';
import next from 'next';
import { CLIENT_HEADER } from '../app/_lib/client';
import { inBackgroundLane } from '../lib/store';
import type { LimitsReport } from '../lib/wire/views';
import { ConfigError, loadConfig, type ServerConfig } from './config';
import { createHeavyGate } from './heavy-gate';
import { capConnections, routeUpgrades } from './http-gate';
import { createLogger } from './logger';
import { createRateLimiter } from './rate-limit';
import { clientKey, refuseBadTarget } from './request-target';
import { startRuntime } from './runtime';
import { createStartupTimeline } from './startup';
import { createStreamHub } from './stream';

function checkedConfig(): ServerConfig {
  try {
    return loadConfig(process.env);
  } catch (err) {
    // The message names the variable; a stack trace would only hide it.
    console.error(err instanceof ConfigError ? `configuration: ${err.message}` : err);
    process.exit(1);
  }
}

async function main(config: ServerConfig): Promise<void> {
  const log = createLogger('server', config.logLevel);
  const dev = config.nodeEnv !== 'production';
  // Like `next start`: every interface unless HOST narrows it (tests use 127.0.0.1).
  const hostname = config.host;

  const startup = createStartupTimeline(log.child('startup'));
  startup.mark('configured');
  const runtime = await startRuntime(config, log, startup);
  const hub = createStreamHub(runtime.observatory.bus, { maxPerClient: config.streamPerClient });

  const app = next({ dev, dir: process.cwd(), hostname: hostname ?? 'localhost', port: config.port });
  await app.prepare();
  startup.mark('web app prepared');
  const handle = app.getRequestHandler();

  const limiter = createRateLimiter(config.rateLimits);
  const heavy = createHeavyGate(config.heavy, { runHeavy: inBackgroundLane });
  const server = createServer();
  const connections = capConnections(server, config.connectionsPerClient);
  server.on('request', (req, res) => {
    // A refused connection has had its 503; a request the client sent anyway is not served.
    if (connections.refusedSocket(req.socket)) return void res.destroy();
    if (refuseBadTarget(req, res)) return;
    if (limiter.reject(req, res)) return;
    // The routes' per-client budgets (chain proxy, faucet) read the client from here; whatever
    // the client sent under this name is replaced.
    req.headers[CLIENT_HEADER] = clientKey(req.socket.remoteAddress);
    // Heavy reads wait for one of their client's slots (./heavy-gate.ts); the rest go on at once.
    heavy.run(req, res, () => {
      handle(req, res).catch((err: unknown) => {
        log.error('request failed', err);
        if (!res.headersSent) res.statusCode = 500;
        res.end();
      });
    });
  });
  // Next registers its own `upgrade` listener (dev HMR at /_next/hmr…) on the first request and
  // leaves every path it has no route for alone: every other upgrade is answered here
  // (./http-gate.ts), or its socket would stay open for ever.
  const upgrades = routeUpgrades(server, {
    stream: (req, socket, head) => hub.handleUpgrade(req, socket, head),
    dev,
    refusedSocket: (s) => connections.refusedSocket(s),
  });
  const wallet = runtime.services.wallet;
  // Registered already (the routes hold this object); the gate exists only now.
  Object.assign(runtime.services, {
    limits: (): LimitsReport => {
      const { clients, refused } = hub.stats();
      return {
        connections: connections.stats(),
        upgradesRefused: upgrades.stats().refused,
        stream: { clients, refused, perClient: config.streamPerClient },
        heavy: heavy.stats(),
        ...(wallet && { rpc: wallet.rpcStats() }),
      };
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, hostname, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  // The e2e test and scripts read this line to find an ephemeral port.
  log.info(`ready on http://${hostname ?? 'localhost'}:${port} (${dev ? 'dev' : 'production'})`);
  startup.mark('ready');
  // Agents upload their bilateral envelopes over HTTP, to this very server.
  const uploadHost = !hostname || hostname === '0.0.0.0' || hostname === '::' ? '127.0.0.1' : hostname;
  runtime
    .startDemo(`http://${uploadHost.includes(':') ? `[${uploadHost}]` : uploadHost}:${port}`)
    .catch((err: unknown) => log.error('demo mesh failed to start', err));

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      server.close();
      server.closeAllConnections();
      limiter.close();
      heavy.close();
      await hub.close();
      await app.close?.();
      await runtime.stop();
    } catch (err) {
      log.error('stop failed', err);
      process.exitCode = 1;
    }
    process.exit();
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main(checkedConfig()).catch((err: unknown) => {
  console.error(`${new Date().toISOString()} error [server] failed to start`, err);
  process.exit(1);
});
