/**
 * Replay of a past window of the mesh: stored envelopes read in the store's order, envelope
 * timestamp then id, one keyset page at a time, each as the `message` live event the stream
 * would have carried, so the overview applies a replayed page exactly as it applies live frames.
 */
import { z } from 'zod';
import { unixMs } from './codec';
import { MessageData } from './events';
import { timeMsParam } from './input-limits';
import { qp } from './params';

/** Most envelopes one replay page holds (the browser keeps a few pages, never a window). */
export const REPLAY_MAX_LIMIT = 1000;
export const REPLAY_DEFAULT_LIMIT = 200;
/** The window when the query names none: the last five minutes. */
export const REPLAY_DEFAULT_WINDOW_MS = 5 * 60_000;

const ms = (what: string) => timeMsParam().meta({ description: what });

/**
 * The keyset cursor: `<envelope timestamp, unix µs>:<envelope id, 64 hex>`, the last envelope of
 * the previous page; the next page starts strictly after it.
 */
export const ReplayCursorSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^\d{1,19}:[0-9a-f]{64}$/, 'must be <timestamp µs>:<64 hex id>, the `next` of a previous page')
  .transform((s, ctx) => {
    const [ts, id] = s.split(':');
    const t = BigInt(ts);
    if (t > 9_223_372_036_854_775_807n) {
      ctx.addIssue({ code: 'custom', message: 'timestamp past 2^63-1' });
      return z.NEVER;
    }
    return { timestampUs: t, id };
  });
export type ReplayCursor = z.output<typeof ReplayCursorSchema>;

/** GET /api/replay. */
export const ReplayQuerySchema = z.object({
  from: ms('window start, envelope timestamp at or after (unix ms); default: `to` minus 5 minutes').optional(),
  to: ms('window end, envelope timestamp at or before (unix ms); default: now').optional(),
  after: ReplayCursorSchema.optional().meta({
    description: 'the `next` cursor of the previous page: `<timestamp µs>:<64 hex id>`',
  }),
  limit: qp
    .int(1, REPLAY_MAX_LIMIT)
    .default(REPLAY_DEFAULT_LIMIT)
    .meta({ description: `1..${REPLAY_MAX_LIMIT}, default ${REPLAY_DEFAULT_LIMIT}` }),
});

/** One replayed envelope: the live `message` event, `at` being when the observer received it. */
export const ReplayEventSchema = z.object({ type: z.literal('message'), at: unixMs, data: MessageData });
export type ReplayEvent = z.infer<typeof ReplayEventSchema>;

/** A page of `/api/replay`: pass `next` back as `after` (same from/to); null when the window is done. */
export const ReplayPageSchema = z.object({
  /** The window served, unix ms, inclusive. */
  from: unixMs,
  to: unixMs,
  events: z.array(ReplayEventSchema),
  next: z.string().nullable(),
});
export type ReplayPage = z.infer<typeof ReplayPageSchema>;

/** The cursor of an event, as `next` gives it. */
export function replayCursorOf(e: ReplayEvent): string {
  return `${e.data.timestamp}:${e.data.id}`;
}
