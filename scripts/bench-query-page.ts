/**
 * The web app served for `npm run bench:query`'s page timings: the production build (.next) of
 * Next.js on 127.0.0.1 (an ephemeral port, printed as `ready on http://…`), over the store at
 * DATABASE_URL with the chain reads the store's index answers alone (server/chain.ts
 * storeChainReads): what the observatory serves from that database, without the mesh node, a
 * chain node, the demo or the dataset releases, whose background work would be measured with the
 * page. Stops on SIGTERM. EPOCH_SECONDS as the loaded data (default 86,400).
 */
import { createServer } from 'node:http';
import next from 'next';
import { registerServices, type Services } from '../app/_lib/services';
import { EMBEDDED_CLUSTER } from '../lib/chain/cluster';
import { openStore } from '../lib/store';
import { satiReputationOf } from '../lib/wire';
import { storeChainReads } from '../server/chain';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const epochSeconds = Number(process.env.EPOCH_SECONDS ?? 86_400);
const store = await openStore({ databaseUrl: url, epochSeconds, statsFoldMs: 0 });
const sati = EMBEDDED_CLUSTER.sati;
const services = {
  observatory: { store, health: async () => ({ ok: true }) },
  reads: store,
  config: { epochSeconds },
  chain: {
    rpcUrl: 'http://127.0.0.1:8899',
    sati: {
      program: sati.program.toBase58(),
      sas: sati.sas.toBase58(),
      credential: sati.credential.toBase58(),
      delegateSchema: sati.delegateSchema.toBase58(),
    },
    ...storeChainReads(store, BigInt(epochSeconds)),
    satiProfile: () => null,
    discovery: () => null,
    satiReputation: () => satiReputationOf(undefined),
    identityHolder: async () => null,
    health: async () => ({ ok: true, rpcUrl: 'http://127.0.0.1:8899', slot: 0 }),
  },
  // The wallet island the chain pages render in (its config only: no RPC is served here).
  wallet: { clientConfig: () => ({ cluster: 'embedded', rpc: '/api/chain/rpc', faucet: false, registerUrl: null }) },
} as unknown as Services;
registerServices(services);

const app = next({ dev: false, dir: process.cwd(), hostname: '127.0.0.1', port: 0 });
await app.prepare();
const handle = app.getRequestHandler();
const server = createServer((req, res) => {
  handle(req, res).catch((err: unknown) => {
    console.error('request failed', err);
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const addr = server.address();
console.log(`ready on http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`);
const stop = async () => {
  server.close();
  server.closeAllConnections();
  await app.close?.();
  await store.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
