/**
 * The latest interval of /mesh as a table: per topic and for the whole node, each figure of the
 * newest row this observer wrote, the score column judged good / watch / bad.
 */

import type { MeshHealthRow } from '../../lib/wire/mesh-health';
import { grouped } from '../stats/StatsChart';
import { Term } from '../Term';
import { Time } from '../time/Time';
import { HealthBadge } from './HealthBadge';
import { type LatestRows, SCORE_BAND } from './health-bands';

export const NODE = '*';
export const STREAM = '/0x01/v1/envelope';
export const short = (topic: string) =>
  topic === NODE ? 'all' : topic === STREAM ? 'direct streams' : topic.replace('/0x01/v1/', '');

export function MeshNow({
  topics,
  last,
  latest,
}: {
  topics: string[];
  last: Map<string, MeshHealthRow>;
  latest: LatestRows;
}) {
  const scoreLevel = SCORE_BAND.judge(latest.gossip);
  return (
    <section className="card" data-testid="mesh-now">
      <h2>
        Latest interval
        {latest.node ? (
          <span className="muted small">
            {' '}
            · from <Time ms={latest.node.bucket * 1000} date={false} />, {latest.node.seconds} s measured
          </span>
        ) : null}
      </h2>
      {last.size === 0 ? (
        <p className="muted">
          Nothing measured yet: the first row is written when the observer&apos;s first minute ends.
        </p>
      ) : (
        <div className="table-wrap">
          <table className="mesh-now" style={{ minWidth: 760 }}>
            <thead>
              <tr>
                <th>
                  <Term k="topic" />
                </th>
                <th>envelopes/s</th>
                <th>
                  <Term k="firstSeenLatency">latency p50 / p90 / p99</Term>
                </th>
                <th>
                  <Term k="duplicateRatio">duplicates</Term>
                </th>
                <th>
                  <Term k="meshPeers">mesh / topic peers</Term>
                </th>
                <th>
                  <Term k="graftPrune">GRAFT / PRUNE</Term>
                </th>
                <th>
                  <Term k="peerScore">score min / median</Term>
                  {scoreLevel ? (
                    <>
                      {' '}
                      <HealthBadge level={scoreLevel} thresholds={SCORE_BAND.thresholds} />
                    </>
                  ) : null}
                </th>
              </tr>
            </thead>
            <tbody>
              {[...topics, NODE].map((t) => {
                const r = last.get(t);
                return r ? <NowRow key={t} t={t} r={r} /> : null;
              })}
            </tbody>
          </table>
        </div>
      )}
      {latest.node ? <NodeLine node={latest.node} /> : null}
    </section>
  );
}

const ms = (x: number | null) => (x === null ? '—' : `${x.toFixed(0)}`);

/** One topic's (or the whole node's) figures in the latest interval. */
function NowRow({ t, r }: { t: string; r: MeshHealthRow }) {
  return (
    <tr data-topic={t}>
      <td title={t === NODE ? 'every topic and the direct stream together' : t}>
        {t === NODE ? 'whole node' : short(t)}
      </td>
      <td className="num">{r.seconds > 0 ? (r.messages / r.seconds).toFixed(2) : 'unknown'}</td>
      <td
        className="num"
        title={r.latencySamples ? `${grouped(String(r.latencySamples))} envelopes` : 'no envelope in the interval'}
      >
        {r.latencySamples ? `${ms(r.latencyP50)} / ${ms(r.latencyP90)} / ${ms(r.latencyP99)} ms` : 'unknown'}
      </td>
      <td className="num">
        {r.received === null
          ? '—'
          : r.received === 0
            ? 'unknown'
            : `${((100 * (r.duplicates ?? 0)) / r.received).toFixed(1)} % of ${grouped(String(r.received))}`}
      </td>
      <td className="num">{r.meshPeers === null ? '—' : `${r.meshPeers} / ${r.topicPeers}`}</td>
      <td className="num">{r.grafts === null ? '—' : `${r.grafts} / ${r.prunes}`}</td>
      <td className="num">
        {r.meshPeers === null
          ? '—'
          : r.scoreMin === null
            ? 'unknown'
            : `${r.scoreMin.toFixed(2)} / ${r.scoreMedian!.toFixed(2)}`}
      </td>
    </tr>
  );
}

/** The whole node's connections, rate-limited peers and drops in the latest interval. */
function NodeLine({ node }: { node: MeshHealthRow }) {
  return (
    <p className="small muted" data-testid="mesh-node">
      {node.connections ?? 0} connections · {node.rateLimitedPeers ?? 0} rate-limited peers · drops:{' '}
      {Object.keys(node.drops ?? {}).length === 0
        ? 'none'
        : Object.entries(node.drops ?? {}).map(([k, n]) => (
            <span key={k}>
              {' '}
              <a href={`/glossary#drop-${k}`}>{k}</a> {n}
            </span>
          ))}
    </p>
  );
}
