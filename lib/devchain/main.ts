/**
 * Runs the embedded chain as its own process:
 * `node --import tsx --import ./scripts/setup-node.mjs lib/devchain/main.ts`.
 * Env: CHAIN_PORT (default 8899; 0 = ephemeral), CHAIN_DATA_DIR (persist there),
 * CHAIN_SLOT_MS (default 400), CHAIN_SNAPSHOT_MS (default 5,000), CHAIN_QUIET=1 (no info logs),
 * CHAIN_WARP=0 (no development `zerox1_warpSlot`; lib/devchain/README.md "Warp"). Prints one JSON line
 * `{"rpcUrl","wsUrl","companionWsUrl"}` on stdout once listening; SIGINT/SIGTERM close cleanly.
 */
import { type EmbeddedLogger, startEmbeddedChain } from './index';

const quiet = process.env.CHAIN_QUIET === '1';
const logger: EmbeddedLogger = {
  info: (m, f) => void (!quiet && console.error(m, f ?? '')),
  warn: (m, f) => console.error(m, f ?? ''),
  error: (m, f) => console.error(m, f ?? ''),
};

const num = (v: string | undefined) => (v === undefined || v === '' ? undefined : Number(v));
const chain = await startEmbeddedChain({
  port: num(process.env.CHAIN_PORT),
  dataDir: process.env.CHAIN_DATA_DIR || undefined,
  slotMs: num(process.env.CHAIN_SLOT_MS),
  snapshotMs: num(process.env.CHAIN_SNAPSHOT_MS),
  warp: process.env.CHAIN_WARP !== '0',
  logger,
});
process.stdout.write(
  `${JSON.stringify({ rpcUrl: chain.rpcUrl, wsUrl: chain.wsUrl, companionWsUrl: chain.companionWsUrl })}\n`,
);

let closing = false;
const stop = async () => {
  if (closing) return;
  closing = true;
  await chain.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
