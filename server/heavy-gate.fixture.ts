/**
 * A server for heavy-gate.test.ts in a process of its own (so the test's clients are not slowed
 * by its event loop): heavy paths spend `busyMs` of the event loop in 10 ms steps, as a read on
 * the embedded database does, before they answer. argv: `gated` | `open`, busyMs. Sends its port over IPC, then
 * `flooded` when the 16th heavy read has arrived.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createHeavyGate, DEFAULT_HEAVY_LIMITS, heavyClassOf } from './heavy-gate';

const gated = process.argv[2] === 'gated';
const busyMs = Number(process.argv[3] ?? 100);
const gate = createHeavyGate({ ...DEFAULT_HEAVY_LIMITS, budget: null });
const handler = (req: IncomingMessage, res: ServerResponse) => {
  if (!heavyClassOf(req.url)) return void res.end('light');
  // A read yields between its steps (queries, rows, serialising), 10 ms of the event loop each.
  let left = busyMs;
  const step = () => {
    const end = Date.now() + Math.min(10, left);
    while (Date.now() < end) {
      /* the read's time on the event loop */
    }
    left -= 10;
    if (left > 0) setImmediate(step);
    else res.end('heavy');
  };
  setImmediate(step);
};
let received = 0;
const server = createServer((req, res) => {
  // The test sends its health probe once every heavy read has arrived.
  if (heavyClassOf(req.url) && ++received === 16) process.send?.('flooded');
  if (gated) gate.run(req, res, () => handler(req, res));
  else handler(req, res);
});
server.listen(0, '127.0.0.1', () => process.send?.((server.address() as { port: number }).port));
process.on('disconnect', () => process.exit(0));
