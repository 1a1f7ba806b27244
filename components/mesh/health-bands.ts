/**
 * Good / watch / bad for the figures of /mesh, judged on the latest interval, with the sentence a
 * newcomer reads under each chart. The thresholds follow from the protocol and GossipSub's
 * defaults this node runs with (mesh degree D = 6, kept between 4 and 12; gossip score threshold
 * −10; envelope timestamp tolerance 30 s) and are written down in docs/app.md. Browser-safe.
 */
import type { MeshHealthRow } from '../../lib/wire/mesh-health';

export type Level = 'good' | 'watch' | 'bad';

export interface Verdict {
  level: Level;
  /** The value judged, as shown beside the badge. */
  value: string;
}

export interface Band {
  /** What the figure means and what good looks like, in one plain sentence. */
  sentence: string;
  /** The thresholds, for the badge's tooltip; null: no good or bad value. */
  thresholds: string | null;
  /** The latest interval's verdict; null when nothing was measured. */
  judge: ((latest: LatestRows) => Verdict | null) | null;
}

/** The latest row per topic ('*': the whole node) and the gossip topics among them. */
export interface LatestRows {
  node: MeshHealthRow | undefined;
  gossip: MeshHealthRow[];
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** First-seen latency p90, ms. */
export const LATENCY_MS = { good: 1_000, watch: 10_000 } as const;
/** Duplicates ÷ received on the worst gossip topic. */
export const DUPLICATES = { good: 0.92, watch: 0.96 } as const;
/** Mesh peers on the thinnest gossip topic: GossipSub's D_lo and D_hi. */
export const MESH_PEERS = { low: 4, high: 12 } as const;
/** Lowest peer score: GossipSub's gossip threshold. */
export const SCORE_GOSSIP_THRESHOLD = -10;
/** Drops ÷ accepted envelopes of the whole node. */
export const DROPS = { good: 0.01, watch: 0.05 } as const;

export function latencyLevel(p90: number): Level {
  return p90 <= LATENCY_MS.good ? 'good' : p90 <= LATENCY_MS.watch ? 'watch' : 'bad';
}
export function duplicateLevel(ratio: number): Level {
  return ratio <= DUPLICATES.good ? 'good' : ratio <= DUPLICATES.watch ? 'watch' : 'bad';
}
export function meshPeersLevel(peers: number): Level {
  return peers === 0 ? 'bad' : peers < MESH_PEERS.low || peers > MESH_PEERS.high ? 'watch' : 'good';
}
export function scoreLevel(min: number): Level {
  return min >= 0 ? 'good' : min >= SCORE_GOSSIP_THRESHOLD ? 'watch' : 'bad';
}
export function connectionsLevel(connections: number, rateLimited: number): Level {
  return connections === 0 || rateLimited >= 3 ? 'bad' : rateLimited > 0 ? 'watch' : 'good';
}
export function dropsLevel(drops: number, accepted: number): Level {
  if (drops === 0) return 'good';
  const share = drops / Math.max(1, accepted + drops);
  return share < DROPS.good ? 'good' : share < DROPS.watch ? 'watch' : 'bad';
}

const worst = (ls: Level[]): Level => (ls.includes('bad') ? 'bad' : ls.includes('watch') ? 'watch' : 'good');

export const BANDS: Record<string, Band> = {
  rate: {
    sentence:
      'How busy the mesh is: envelopes accepted each second per topic. There is no good or ' +
      'bad rate; a fall to zero while agents are still registered is the thing to look into.',
    thresholds: null,
    judge: null,
  },
  latency: {
    sentence:
      'How long an envelope took from its sender signing it to this observer receiving it. Good ' +
      'is under a second for 90 % of envelopes; near 30 s, envelopes start being refused as stale.',
    thresholds:
      `p90 of the latest interval — good: ≤ 1 s · watch: ≤ 10 s · bad: above 10 s (a ` +
      `third of the 30 s timestamp tolerance). Clock skew between machines adds to it.`,
    judge: ({ node }) =>
      node?.latencyP90 == null
        ? null
        : { level: latencyLevel(node.latencyP90), value: `p90 ${node.latencyP90.toFixed(0)} ms` },
  },
  dup: {
    sentence:
      'Copies of a message that arrived again from another mesh peer. With about 6 mesh peers ' +
      'each message arrives about 6 times, so 80–90 % is the normal price of redundancy, not waste.',
    thresholds:
      `worst gossip topic — good: ≤ 92 % (up to 12 mesh peers) · ` +
      `watch: ≤ 96 % · bad: above 96 % (bandwidth spent for nothing)`,
    judge: ({ gossip }) => {
      const rs = gossip.filter((r) => (r.received ?? 0) > 0);
      if (!rs.length) return null;
      const max = Math.max(...rs.map((r) => (r.duplicates ?? 0) / r.received!));
      return { level: duplicateLevel(max), value: pct(max) };
    },
  },
  mesh: {
    sentence:
      'How many peers this node exchanges each topic with directly. GossipSub keeps it near ' +
      '6; between 4 and 12 is healthy, 0 means the topic reaches this node only by luck.',
    thresholds: `thinnest gossip topic — good: 4–12 peers · watch: 1–3 or more than 12 · bad: 0`,
    judge: ({ gossip }) => {
      const ps = gossip.map((r) => r.meshPeers).filter((p): p is number => p !== null);
      if (!ps.length) return null;
      const min = Math.min(...ps);
      return { level: meshPeersLevel(min), value: `${min} peer${min === 1 ? '' : 's'}` };
    },
  },
  churn: {
    sentence:
      'Peers joining (GRAFT) and leaving (PRUNE) the meshes. Some churn after a start or as ' +
      'agents come and go is normal; a steady stream in every interval means an unstable mesh.',
    thresholds: null,
    judge: null,
  },
  conn: {
    sentence:
      'Open connections, and peers that sent more than the 100 envelopes a second ' +
      'the protocol allows. Good is some connections and no rate-limited peer.',
    thresholds:
      'latest interval — good: connected, no rate-limited peer · watch: 1–2 ' +
      'rate-limited peers · bad: no connection, or 3 or more rate-limited peers',
    judge: ({ node }) =>
      node?.connections == null
        ? null
        : {
            level: connectionsLevel(node.connections, node.rateLimitedPeers ?? 0),
            value: `${node.connections} conn. · ${node.rateLimitedPeers ?? 0} limited`,
          },
  },
  drops: {
    sentence:
      'Envelopes this observer refused and why (each reason is in the glossary). ' +
      'Refusing is validation doing its job, but a large share means a peer ' +
      'misbehaves or speaks another version; good is under 1 % of what arrives.',
    thresholds: 'drops ÷ (accepted + dropped) in the latest interval — good: < 1 % · watch: < 5 % · bad: 5 % or more',
    judge: ({ node }) => {
      if (!node) return null;
      const d = Object.values(node.drops ?? {}).reduce((t, n) => t + n, 0);
      return { level: dropsLevel(d, node.messages), value: d === 0 ? 'none' : pct(d / (node.messages + d)) };
    },
  },
};

/** The score column of the latest-interval table, judged the same way. */
export const SCORE_BAND = {
  thresholds:
    `lowest peer score — good: 0 or above (0 is a neutral newcomer) · watch: ` +
    `below 0 · bad: below ${SCORE_GOSSIP_THRESHOLD} (gossip to it stops)`,
  judge: (rows: MeshHealthRow[]): Level | null => {
    const ms = rows.map((r) => r.scoreMin).filter((s): s is number => s !== null);
    return ms.length ? worst(ms.map(scoreLevel)) : null;
  },
};
