/**
 * The one observatory process (issue 3; docs/app.md "One process"): loads the configuration from
 * the environment, starts the observer (store, mesh node, live bus) and, when DEMO_AGENTS > 0,
 * the demo mesh; then serves the Next.js app and the `/api/stream` WebSocket on PORT.
 *
 * Run: node --import tsx --import ./scripts/setup-node.mjs server.ts
 * NODE_ENV=production serves the built app (.next, made by `next build`); anything else runs
 * Next in dev mode with hot reload (its HMR WebSocket upgrade is left to Next).
 */
import { createServer } from 'node:http';
import next from 'next';
import { loadConfig, type ObservatoryConfig } from '../lib/observer/config';
import { createStreamHub } from './stream';
import { startRuntime, type Runtime } from './runtime';
import { createLogger } from './logger';

const log = createLogger('server');

/**
 * The demo's short epochs (issue 5): with demo agents and no EPOCH_SECONDS, epochs last
 * DEMO_EPOCH_SECONDS so batches, lease payments and a resolved challenge show within minutes
 * (the chain's programs take the same epoch length when they are first initialized).
 */
export const DEMO_EPOCH_SECONDS = 20;
function demoDefaults(config: ObservatoryConfig, env: NodeJS.ProcessEnv): ObservatoryConfig {
  if (config.demoAgents > 0 && !env.EPOCH_SECONDS?.trim()) return { ...config, epochSeconds: DEMO_EPOCH_SECONDS };
  return config;
}

async function main(): Promise<void> {
  const config = demoDefaults(loadConfig(process.env), process.env);
  const dev = process.env.NODE_ENV !== 'production';
  // Like `next start`: every interface unless HOST narrows it (tests use 127.0.0.1).
  const hostname = process.env.HOST?.trim() || undefined;

  const runtime: Runtime = await startRuntime(config, log);
  const hub = createStreamHub(runtime.observatory.bus);

  const app = next({ dev, dir: process.cwd(), hostname: hostname ?? 'localhost', port: config.port });
  await app.prepare();
  const handle = app.getRequestHandler();

  const server = createServer((req, res) => {
    // A path whose percent-encoding does not decode is the client's error: Next would answer 500.
    try {
      decodeURIComponent((req.url ?? '/').split('?')[0]);
    } catch {
      res.statusCode = 400;
      res.end('malformed URL encoding');
      return;
    }
    handle(req, res).catch((err: unknown) => {
      log.error('request failed', err);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    });
  });
  // Next registers its own `upgrade` listener (dev HMR at /_next/hmr…) on the first request; it
  // leaves paths it has no route for alone, so /api/stream (no route file) is ours alone.
  server.on('upgrade', (req, socket, head) => {
    hub.handleUpgrade(req, socket, head);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, hostname, () => resolve());
  });
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  // The e2e test and scripts read this line to find an ephemeral port.
  log.info(`ready on http://${hostname ?? 'localhost'}:${port} (${dev ? 'dev' : 'production'})`);
  // Agents upload their bilateral envelopes over HTTP, to this very server.
  const uploadHost = !hostname || hostname === '0.0.0.0' || hostname === '::' ? '127.0.0.1' : hostname;
  runtime.startDemo(`http://${uploadHost.includes(':') ? `[${uploadHost}]` : uploadHost}:${port}`).catch((err: unknown) => log.error('demo mesh failed to start', err));

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

main().catch((err: unknown) => {
  log.error('failed to start', err);
  process.exit(1);
});
