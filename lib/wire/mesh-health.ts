/**
 * Mesh health over time (GET /api/mesh/health, the /mesh page): the query and the answer's shape.
 * Rows are what the observer measured per topic and interval (lib/store/mesh-health/mesh-health.ts); null is
 * "not measured" (no samples, or a figure that does not apply to the topic), never zero.
 */
import { z } from 'zod';

export const MESH_RANGES = ['1h', '24h', '7d'] as const;
export type MeshRange = (typeof MESH_RANGES)[number];

export const MeshHealthQuerySchema = z.object({
  range: z
    .enum(MESH_RANGES)
    .default('1h')
    .meta({ description: 'the window ending now: 1h (1-minute rows), 24h or 7d (hourly rows)' }),
  topic: z.string().min(1).max(100).optional().meta({
    description: 'one topic (e.g. /0x01/v1/broadcast), /0x01/v1/envelope for direct streams, * for the whole node',
  }),
  observer: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: "the libp2p peer id of the observer whose rows to answer (default: this process's)" }),
});

const n = z.number().nullable();
export const MeshHealthRowSchema = z.object({
  res: z.union([z.literal(60), z.literal(3600)]),
  bucket: z.number().int().meta({ description: 'unix second the interval starts' }),
  topic: z.string(),
  observer: z.string().meta({ description: 'libp2p peer id of the observer that measured the row' }),
  seconds: z.number().int().meta({ description: 'seconds of the interval the observer measured (less after a start)' }),
  messages: z.number().int().meta({ description: 'envelopes accepted' }),
  received: n.meta({ description: 'GossipSub messages received before de-duplication (gossip topics only)' }),
  duplicates: n,
  invalid: n,
  latencyP50: n.meta({ description: 'first-seen latency, ms: arrival at the observer minus the envelope timestamp' }),
  latencyP90: n,
  latencyP99: n,
  latencySamples: z.number().int(),
  meshPeers: n,
  topicPeers: n,
  grafts: n,
  prunes: n,
  scoreMin: n,
  scoreMedian: n,
  connections: n,
  rateLimitedPeers: n,
  drops: z.record(z.string(), z.number()).nullable(),
});

export type MeshHealthRow = z.infer<typeof MeshHealthRowSchema>;

export const MeshHealthViewSchema = z.object({
  range: z.enum(MESH_RANGES),
  res: z.union([z.literal(60), z.literal(3600)]),
  from: z.number().int(),
  to: z.number().int(),
  /** This process's observer. */
  self: z.string(),
  /** Whose rows `rows` are. */
  observer: z.string(),
  /** Observers that wrote rows in the range, with how many intervals each; more than one share this database. */
  observers: z.array(z.object({ observer: z.string(), intervals: z.number().int() })),
  rows: z.array(MeshHealthRowSchema),
  /** Intervals measured by more than one observer: their smallest and largest first-seen latency median, ms. */
  spread: z.array(
    z.object({ bucket: z.number().int(), observers: z.number().int(), p50Min: z.number(), p50Max: z.number() }),
  ),
});
export type MeshHealthView = z.infer<typeof MeshHealthViewSchema>;
