/**
 * GET /metrics: this observer's metrics in the Prometheus text format, for a Prometheus server
 * to scrape (docs/app.md "Mesh health"): libp2p's (connections, streams, bytes per protocol),
 * GossipSub's per topic, envelopes accepted and dropped, first-seen latency, the process, and
 * `zerox1_leader{role}`: 1 where this process leads a run-once role, 0 where it stands by.
 */
import { handle, runtime } from '../_lib/http';

export const dynamic = 'force-dynamic';

/** The roles this process leads or stands by for (lib/store/leader/leader.ts, through the services). */
function leaderLines(leaders: readonly { role: string; leading: boolean }[]): string {
  if (leaders.length === 0) return '';
  const rows = leaders.map((l) => `zerox1_leader{role="${l.role}"} ${l.leading ? 1 : 0}`);
  return (
    `# HELP zerox1_leader 1 while this process leads the role (holds its advisory ` +
    `lock), 0 while it stands by.\n# TYPE zerox1_leader gauge\n${rows.join('\n')}\n`
  );
}

export async function GET(): Promise<Response> {
  return handle(async () => {
    const o = runtime();
    const m = await o.observatory.metrics();
    return new Response(m.text + leaderLines(o.leaders?.() ?? []), {
      status: 200,
      headers: { 'content-type': m.contentType, 'cache-control': 'no-store' },
    });
  });
}
