/**
 * The one demo server of e2e/demo.test.ts: `npm start`'s launcher with the embedded chain, 4 demo
 * agents on 6-second epochs and the observer on TCP and WebSockets. Its stories (chain, verify,
 * browser-webrtc) only read what the demo does, so they share it: the demo's own waits (a
 * verified batch, a resolved challenge) pass once for all of them.
 */
import { type RunningServer, startServer } from '../harness';

let running: Promise<RunningServer> | undefined;

export function demoServer(): Promise<RunningServer> {
  running ??= startServer((dir) => ({
    DATA_DIR: dir,
    SOLANA_RPC_URL: '',
    CHAIN_PORT: '0',
    DEMO_AGENTS: '4',
    EPOCH_SECONDS: '6',
    OBSERVER_LISTEN: '/ip4/127.0.0.1/tcp/0 /ip4/127.0.0.1/tcp/0/ws',
  }));
  return running;
}

export async function stopDemoServer(): Promise<void> {
  const r = running;
  running = undefined;
  await (await r?.catch(() => undefined))?.stop();
}
