/**
 * GET /metrics: this observer's metrics in the Prometheus text format, for a Prometheus server
 * to scrape (docs/app.md "Mesh health"): libp2p's (connections, streams, bytes per protocol),
 * GossipSub's per topic, envelopes accepted and dropped, first-seen latency, and the process.
 */
import { handle, runtime } from '../_lib/http';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  return handle(async () => {
    const m = await runtime().observatory.metrics();
    return new Response(m.text, {
      status: 200,
      headers: { 'content-type': m.contentType, 'cache-control': 'no-store' },
    });
  });
}
