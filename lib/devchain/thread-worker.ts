/** The worker side of thread.ts: starts the embedded chain here and serves the main thread's messages. */
import { parentPort, workerData } from 'node:worker_threads';
import { type EmbeddedChain, type EmbeddedChainParams, startEmbeddedChain } from './index';
import type { FromWorker, ToWorker } from './thread';

const port = parentPort;
if (!port) throw new Error('thread-worker.ts runs on a worker thread only');
const send = (m: FromWorker) => port.postMessage(m);
const log = (level: 'info' | 'warn' | 'error') => (msg: string, fields?: Record<string, unknown>) =>
  send({ op: 'log', level, msg, fields });

let chain: EmbeddedChain | null = null;
port.on('message', (m: ToWorker) => {
  void (async () => {
    try {
      if (!chain) throw new Error('the chain is not running');
      if (m.op === 'writeAccount')
        chain.writeAccount(m.address, { lamports: BigInt(m.lamports), data: m.data, owner: m.owner });
      else if (m.op === 'snapshot') chain.snapshot();
      else if (m.op === 'memory') {
        const { heapUsed, external } = process.memoryUsage();
        send({ op: 'done', id: m.id, memory: { heapUsed, external } });
        return;
      } else if (m.op === 'close') {
        await chain.close();
        send({ op: 'done', id: m.id });
        port.close();
        return;
      }
      send({ op: 'done', id: m.id });
    } catch (e) {
      send({ op: 'done', id: m.id, error: e instanceof Error ? e.message : String(e) });
    }
  })();
});

startEmbeddedChain({
  ...(workerData as EmbeddedChainParams),
  logger: { info: log('info'), warn: log('warn'), error: log('error') },
}).then(
  (c) => {
    chain = c;
    send({
      op: 'ready',
      rpcUrl: c.rpcUrl,
      wsUrl: c.wsUrl,
      port: c.port,
      companionWsUrl: c.companionWsUrl,
      faucet: c.faucet.toBase58(),
    });
  },
  (e: unknown) =>
    send({ op: 'failed', error: e instanceof Error ? e.message : String(e), code: (e as { code?: string })?.code }),
);
