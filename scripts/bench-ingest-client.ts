/**
 * The WebSocket client of `npm run bench:ingest`: a separate process (as a browser would be)
 * connected to the observer's `/api/stream`. For every `message` event it records the envelope's
 * timestamp (µs, the publish time) and the arrival time here; the bench asks for them over IPC.
 * Clocks: `performance.timeOrigin + performance.now()` in every bench process (one machine).
 */
import { WebSocket } from 'ws';

type Cmd = { t: 'connect'; url: string } | { t: 'report' } | { t: 'stop' };
const nowMs = () => performance.timeOrigin + performance.now();
let ws: WebSocket | undefined;
let ts: number[] = [];
let at: number[] = [];
let other = 0;

process.on('message', (m: Cmd) => {
  if (m.t === 'connect') {
    ws = new WebSocket(m.url, { perMessageDeflate: false });
    ws.on('message', (raw) => {
      const t = nowMs();
      const e = JSON.parse(String(raw)) as { type: string; data?: { timestamp?: string } };
      if (e.type !== 'message' || e.data?.timestamp === undefined) {
        other++;
        return;
      }
      ts.push(Number(e.data.timestamp) / 1000);
      at.push(t);
    });
    ws.once('open', () => process.send!({ t: 'ready' }));
    ws.once('error', (e) => process.send!({ t: 'error', message: String(e) }));
  } else if (m.t === 'report') {
    process.send!({ t: 'report', ts, at, other, cpu: process.cpuUsage() });
    ts = [];
    at = [];
  } else if (m.t === 'stop') {
    ws?.close();
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
