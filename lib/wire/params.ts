/**
 * The request side of the HTTP API: the query-string and path-parameter schemas the routes
 * validate with. The OpenAPI document (lib/api) is generated from these same schemas, so what a
 * route accepts and what the document says it accepts cannot drift apart. Every value arrives as
 * a string; transforms turn it into what the route needs.
 */
import { z } from 'zod';
import { CONVERSATION_OUTCOMES, CONVERSATION_STAGES } from '../protocol/conversation-state';
import { MsgType } from '../protocol/types';
import { EXPORT_FORMATS, EXPORT_TABLES } from './datasets';
import { MAX_TIME_MS, TIME_RANGE_TEXT, timeMsParam } from './input-limits';
import { scorePointsParam } from './score';

/** Query-string field helpers. */
export const qp = {
  hex: (bytes: number, label: string) =>
    z
      .string()
      .trim()
      .toLowerCase()
      .transform((s) => (s.startsWith('0x') ? s.slice(2) : s))
      .pipe(z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`), `must be ${bytes * 2} hex characters (${label})`)),
  int: (min: number, max: number) =>
    z
      .string()
      .trim()
      .regex(/^\d+$/, 'must be a non-negative integer')
      .transform(Number)
      .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`)),
};

/** The largest value of the store's int8 columns (cursors, epochs), as digits. */
export const INT8_MAX = '9223372036854775807';
/** Cursors and epochs are int8 columns in the store: a larger number is refused here, by name. */
const u64Param = (what: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,19}$/, `must be ${what}`)
    // Compared as digits, not parsed: the check runs on every value, the malformed ones included.
    .refine((v) => v.length < 19 || v <= INT8_MAX, `must be ${what}, at most ${INT8_MAX}`);
/**
 * An agent as 64 hex characters or a base58 address. The shape is checked here (so a list page
 * or the API names the parameter); the route decodes base58 with lib/chain, which lib/wire does
 * not reach.
 */
const agentAny = z
  .string()
  .trim()
  .regex(
    /^(?:(?:0x)?[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{32,44})$/,
    'must be 64 hex characters or a base58 agent address',
  )
  .meta({ description: 'agent id: 64 hex characters or a base58 address' });

/** A msg_type name (PROPOSE) or code (3 / 0x03). */
export const msgTypeParam = z
  .string()
  .trim()
  .transform((s, ctx) => {
    const upper = s.toUpperCase();
    if (upper in MsgType) return MsgType[upper as keyof typeof MsgType] as number;
    const n = /^0x[0-9a-f]{1,2}$/i.test(s) ? parseInt(s, 16) : /^\d{1,3}$/.test(s) ? Number(s) : NaN;
    if (n >= 1 && n <= 13) return n;
    ctx.addIssue({
      code: 'custom',
      message: `unknown msg_type; use a name (${Object.keys(MsgType).join(', ')}) or a code 1..13`,
    });
    return z.NEVER;
  })
  .meta({ description: 'msg_type name (PROPOSE) or code (3, 0x03)' });

/** Relative time windows a list can be narrowed to (a custom window uses `from` / `to`). */
export const TIME_PRESETS = { '1h': 3_600_000, '24h': 86_400_000, '7d': 604_800_000 } as const;
export const TimePresetSchema = z.enum(['1h', '24h', '7d']);
const msParam = timeMsParam();

/** GET /api/envelopes. */
export const EnvelopesQuerySchema = z.object({
  type: msgTypeParam.optional(),
  agent: agentAny.optional().meta({ description: 'sender or recipient: 64 hex characters or a base58 address' }),
  conversation: qp.hex(16, 'conversation id').optional(),
  limit: qp.int(1, 500).default(50).meta({ description: '1..500, default 50' }),
  before: u64Param('the decimal cursor from a previous page')
    .optional()
    .meta({ description: 'the `next` cursor of the previous page' }),
  range: TimePresetSchema.optional().meta({ description: 'envelope timestamp within the last hour, day or week' }),
  from: msParam.optional().meta({ description: 'envelope timestamp at or after (unix ms)' }),
  to: msParam.optional().meta({ description: 'envelope timestamp at or before (unix ms)' }),
});

export const CONVERSATION_SORTS = ['last_seen', 'first_seen', 'messages'] as const;
type ConversationSort = (typeof CONVERSATION_SORTS)[number];

/**
 * The keyset cursor of the conversation list: `<lastSeenMs>-<32 hex id>` for the default sort
 * (the form older clients hold), `<sort>.<key>.<32 hex id>` for every sort; the key is unix ms
 * or the message count.
 */
export const ConversationCursorSchema = z
  .string()
  .trim()
  .regex(
    /^(?:\d{1,15}-|(?:last_seen|first_seen|messages)\.\d{1,15}\.)[0-9a-f]{32}$/,
    'must be the `next` cursor of a previous page',
  )
  .transform((s, ctx) => {
    const parts = s.includes('.') ? s.split('.') : ['last_seen', ...s.split('-')];
    // A time key past year 9999 names no row and cannot be handed to the database.
    if (parts[0] !== 'messages' && Number(parts[1]) > MAX_TIME_MS) {
      ctx.addIssue({ code: 'custom', message: `the cursor's time is out of range (${TIME_RANGE_TEXT})` });
      return z.NEVER;
    }
    return { sort: parts[0] as ConversationSort, value: Number(parts[1]), idHex: parts[2] };
  });

/** The `next` of a conversation page: the legacy form for the default sort, which older clients parse. */
export const conversationCursorText = (sort: ConversationSort, value: number, idHex: string) =>
  sort === 'last_seen' ? `${value}-${idHex}` : `${sort}.${value}.${idHex}`;

/** A cursor names the sort it was made for; handed to another sort it would page from a wrong place. */
function sameSort(o: { before?: { sort: string }; sort: string }, ctx: z.RefinementCtx): void {
  if (o.before && o.before.sort !== o.sort)
    ctx.addIssue({
      code: 'custom',
      path: ['before'],
      message: `not a cursor of sort=${o.sort} (it is one of sort=${o.before.sort}); start again without before`,
    });
}

/** The state machine's vocabulary (lib/protocol/conversation-state.ts; docs/protocol.md "Conversation state"). */
export const CONVERSATION_STATES = CONVERSATION_STAGES;
export { CONVERSATION_OUTCOMES };

/** GET /api/conversations: filtered, sorted (descending), cursor-paged. */
export const ConversationsQuerySchema = z
  .object({
    agent: agentAny.optional().meta({ description: 'a participant: 64 hex characters or a base58 address' }),
    state: z.enum(CONVERSATION_STATES).optional(),
    outcome: z
      .enum(CONVERSATION_OUTCOMES)
      .optional()
      .meta({ description: '`open` = no outcome yet; `no_deal` = deal steps (FEEDBACK …) without an ACCEPT' }),
    range: TimePresetSchema.optional().meta({ description: 'last activity within the last hour, day or week' }),
    from: msParam.optional().meta({ description: 'last activity at or after (unix ms)' }),
    to: msParam.optional().meta({ description: 'last activity at or before (unix ms)' }),
    sort: z
      .enum(CONVERSATION_SORTS)
      .default('last_seen')
      .meta({ description: 'descending: last activity (default), first seen or message count' }),
    limit: qp.int(1, 500).default(50).meta({ description: '1..500, default 50' }),
    before: ConversationCursorSchema.optional().meta({
      description: 'the `next` cursor of the previous page (same sort)',
    }),
  })
  .superRefine(sameSort);

export const AGENT_SORTS = ['last_seen', 'first_seen', 'envelopes', 'reliability'] as const;
export const STAKE_FILTERS = ['none', 'locked', 'unlocking', 'claimed', 'slashed'] as const;

/** GET /api/agents: filtered, sorted, cursor-paged. */
export const AgentsQuerySchema = z.object({
  online: z
    .enum(['true', 'false'])
    .transform((s) => s === 'true')
    .optional(),
  stake: z.enum(STAKE_FILTERS).optional().meta({ description: 'stake status on chain; `none` = no stake account' }),
  minReliability: scorePointsParam.optional().meta({
    description:
      'gossip reliability at least, in score points (-100..100, up to 6 decimals; the unit the agents list shows)',
  }),
  maxReliability: scorePointsParam.optional().meta({ description: 'gossip reliability at most, in score points' }),
  sort: z.enum(AGENT_SORTS).default('last_seen').meta({ description: 'descending; default last_seen' }),
  limit: qp.int(1, 1000).default(1000).meta({ description: '1..1000, default 1000' }),
  before: z
    .string()
    .trim()
    .regex(/^[0-9TZ:.-]{1,40}~[0-9a-f]{64}$/, 'must be the `next` cursor of a previous page')
    .optional()
    .meta({ description: 'the `next` cursor of the previous page (same sort)' }),
});

export const BATCH_SORTS = ['epoch', 'slot'] as const;
export const BATCH_STATUSES = ['unverified', 'verified', 'mismatch'] as const;

/** `epoch.<epoch>.<agent hex>` or `slot.<slot>.<agent hex>.<epoch>`: the last batch of a page. */
export const BatchCursorSchema = z
  .string()
  .trim()
  .regex(
    /^(?:epoch\.\d{1,19}\.[0-9a-f]{64}|slot\.\d{1,19}\.[0-9a-f]{64}\.\d{1,19})$/,
    'must be the `next` cursor of a previous page',
  )
  .transform((s) => {
    const [sort, key, agentHex, epoch] = s.split('.');
    return sort === 'epoch'
      ? { sort: 'epoch' as const, slot: 0n, agentHex, epoch: BigInt(key) }
      : { sort: 'slot' as const, slot: BigInt(key), agentHex, epoch: BigInt(epoch) };
  });

export const batchCursorText = (
  sort: (typeof BATCH_SORTS)[number],
  b: { slot: string; agent: string; epoch: string },
) => (sort === 'epoch' ? `epoch.${b.epoch}.${b.agent}` : `slot.${b.slot}.${b.agent}.${b.epoch}`);

/** GET /api/batches: newest first, filtered, cursor-paged. */
export const BatchesQuerySchema = z
  .object({
    agent: agentAny.optional(),
    epoch: u64Param('a non-negative integer (u64)').optional(),
    status: z.enum(BATCH_STATUSES).optional(),
    sort: z
      .enum(BATCH_SORTS)
      .default('epoch')
      .meta({ description: 'newest first by epoch (default) or by submission slot' }),
    limit: qp.int(1, 5000).optional().meta({ description: '1..5000, default 500' }),
    before: BatchCursorSchema.optional().meta({ description: 'the `next` cursor of the previous page (same sort)' }),
  })
  .superRefine(sameSort);

/** GET /api/agents/{id}/batches: one agent's batches newest epoch first, a page at a time, or the one of an epoch. */
export const AgentBatchesQuerySchema = z
  .object({
    limit: qp.int(1, 100).default(10).meta({ description: '1..100, default 10' }),
    before: u64Param('an epoch (a non-negative integer)')
      .optional()
      .meta({ description: 'the `next` of the previous page: batches of earlier epochs' }),
    epoch: z
      .string()
      .trim()
      .regex(/^\d{1,18}$/, 'must be an epoch (a non-negative integer)')
      .optional()
      .meta({
        description:
          'just the batch of this epoch, if the agent submitted one (the ' +
          'batch the agent page pins when a link opens it); not with `before`',
      }),
  })
  .superRefine((o, ctx) => {
    if (o.before !== undefined && o.epoch !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['epoch'],
        message: 'names one batch, which a `before` page cannot continue: pass one of epoch and before',
      });
  });

export const CHALLENGE_SORTS = ['opened_slot', 'epoch'] as const;
export const CHALLENGE_STATUSES = ['pending', 'upheld', 'rejected', 'void', 'expired'] as const;

/** `<sort>.<order>.<key>.<address>`: the last challenge of a page. */
export const ChallengeCursorSchema = z
  .string()
  .trim()
  .regex(
    /^(?:opened_slot|epoch)\.(?:asc|desc)\.\d{1,19}\.[1-9A-HJ-NP-Za-km-z]{1,44}$/,
    'must be the `next` cursor of a previous page',
  )
  .transform((s) => {
    const [sort, order, key, address] = s.split('.');
    return {
      sort: sort as (typeof CHALLENGE_SORTS)[number],
      order: order as 'asc' | 'desc',
      key: BigInt(key),
      address,
    };
  });

export const challengeCursorText = (
  sort: (typeof CHALLENGE_SORTS)[number],
  order: 'asc' | 'desc',
  c: { openedSlot: string; epoch: string; address: string },
) => `${sort}.${order}.${sort === 'epoch' ? c.epoch : c.openedSlot}.${c.address}`;

/** GET /api/challenges: oldest opened first unless `order=desc`, filtered, cursor-paged. */
export const ChallengesQuerySchema = z
  .object({
    agent: agentAny.optional(),
    epoch: u64Param('a non-negative integer (u64)').optional().meta({ description: "the challenged batch's epoch" }),
    status: z.enum(CHALLENGE_STATUSES).optional(),
    sort: z
      .enum(CHALLENGE_SORTS)
      .default('opened_slot')
      .meta({ description: 'the slot the challenge was opened in (default) or the batch epoch' }),
    order: z
      .enum(['asc', 'desc'])
      .default('asc')
      .meta({ description: '`asc` oldest first (default), `desc` newest first' }),
    limit: qp.int(1, 5000).default(500).meta({ description: '1..5000, default 500' }),
    before: ChallengeCursorSchema.optional().meta({
      description: 'the `next` cursor of the previous page (same sort and order)',
    }),
  })
  .superRefine((o, ctx) => {
    sameSort(o, ctx);
    if (o.before && o.before.sort === o.sort && o.before.order !== o.order)
      ctx.addIssue({
        code: 'custom',
        path: ['before'],
        message: `not a cursor of order=${o.order}; start again without before`,
      });
  });

/** GET /api/search. */
export const SearchQuerySchema = z.object({
  q: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(200, 'must be at most 200 characters')
    .meta({
      description:
        'an agent id (hex or base58), conversation or envelope id or a hex prefix of one, `agent ' +
        'epoch` for a batch, a challenge address, a transaction signature or its prefix, an agent label',
    }),
  limit: qp.int(1, 50).default(10).meta({ description: 'hits per kind, 1..50, default 10' }),
});

/** Queries of routes that take none (unknown parameters are still refused). */
export const NoQuerySchema = z.object({});

/** Path parameters. */
export const AgentIdPathSchema = z.object({ id: agentAny });
export const ConversationIdPathSchema = z.object({ id: qp.hex(16, 'conversation id') });
export const ReputationPathSchema = z.object({ agent: agentAny });

/** GET /api/negotiations. */
export const NegotiationsQuerySchema = z.object({
  status: z.enum(['created', 'proposed', 'countered', 'settled', 'rejected', 'expired']).optional(),
  limit: qp.int(1, 500).default(50).meta({ description: '1..500, default 50' }),
});

/** GET /api/envelopes/{id}/raw and /inclusion. */
export const EnvelopeIdPathSchema = z.object({ id: qp.hex(32, 'envelope id') });
/** GET /api/batches/{agent}/{epoch}/log. */
export const BatchLogPathSchema = z.object({ agent: agentAny, epoch: u64Param('a non-negative integer below 2^63') });
/** GET /api/batches/challengeable. */
export const ChallengeableQuerySchema = z.object({
  agent: agentAny,
  epoch: u64Param('a non-negative integer (u64)'),
});

/** An export job id: the client picks it so GET /api/export/progress can follow the download. */
const exportJob = z.string().regex(/^[A-Za-z0-9-]{8,64}$/, 'must be 8..64 letters, digits or dashes');

/** A time as unix µs: ISO-8601 (`2026-01-01T00:00:00Z`, up to µs) or unix milliseconds. */
export const exportTimeParam = z
  .string()
  .trim()
  .transform((t, ctx) => {
    if (/^\d{1,20}$/.test(t)) {
      if (Number(t) <= MAX_TIME_MS) return BigInt(t) * 1000n;
      ctx.addIssue({ code: 'custom', message: `out of range: must be ${TIME_RANGE_TEXT}` });
      return z.NEVER;
    }
    if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(t)) {
      const ms = Date.parse(t.length === 10 ? `${t}T00:00:00Z` : t);
      // A four-digit year with an offset can still land outside 1970..9999.
      if (!Number.isNaN(ms) && (ms < 0 || ms > MAX_TIME_MS)) {
        ctx.addIssue({
          code: 'custom',
          message: `out of range: must be from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z`,
        });
        return z.NEVER;
      }
      if (!Number.isNaN(ms)) {
        const frac = /\.(\d{1,6})/.exec(t)?.[1] ?? '';
        return BigInt(ms) * 1000n + (frac.length > 3 ? BigInt(frac.padEnd(6, '0').slice(3)) : 0n);
      }
    }
    ctx.addIssue({ code: 'custom', message: 'must be an ISO-8601 time (2026-01-01T00:00:00Z) or unix milliseconds' });
    return z.NEVER;
  });

/** GET /api/export/{table}. */
export const ExportTablePathSchema = z.object({
  table: z.enum(EXPORT_TABLES, { error: `unknown table; one of ${EXPORT_TABLES.join(', ')}` }),
});

/**
 * GET /api/export/{table} (and `npm run export`'s flags). `type` applies to the envelopes table only (checked with the
 * table).
 */
export const ExportQuerySchema = z
  .object({
    format: z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(EXPORT_FORMATS, { error: `must be one of ${EXPORT_FORMATS.join(', ')}` }))
      .default('csv')
      .meta({ description: 'csv (default), jsonl or parquet' }),
    from: exportTimeParam.optional().meta({ description: 'rows at or after: ISO-8601 time or unix ms' }),
    to: exportTimeParam.optional().meta({ description: 'rows before: ISO-8601 time or unix ms (after `from`)' }),
    agent: agentAny.optional(),
    type: z
      .string()
      .transform((s, ctx) => {
        const out: number[] = [];
        for (const part of s.split(',')) {
          const r = msgTypeParam.safeParse(part);
          if (!r.success) {
            ctx.addIssue({
              code: 'custom',
              message:
                `unknown msg_type "${part.trim()}"; use names (` +
                `${Object.keys(MsgType).join(', ')}) or codes 1..13, comma-separated`,
            });
            return z.NEVER;
          }
          out.push(r.data);
        }
        return out;
      })
      .optional()
      .meta({ description: 'envelopes only: msg_type names or codes, comma-separated' }),
    limit: z
      .string()
      .trim()
      .regex(/^\d{1,9}$/, 'must be a positive integer')
      .transform(Number)
      .pipe(z.number().int().min(1, 'must be a positive integer'))
      .optional()
      .meta({ description: 'at most this many rows' }),
    job: exportJob
      .optional()
      .meta({ description: 'a client-chosen id; GET /api/export/progress?job= reports rows written' }),
  })
  .superRefine((o, ctx) => {
    if (o.from !== undefined && o.to !== undefined && o.to <= o.from)
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after "from"' });
  });

/** GET /api/export/progress. */
export const ExportProgressQuerySchema = z.object({ job: exportJob });

/** GET /api/datasets/{file}: a path inside the release folder (may hold slashes). */
export const DatasetFilePathSchema = z.object({
  file: z
    .string()
    .min(1)
    .meta({ description: 'a release file, e.g. envelopes/epoch=5/envelopes-epoch5.parquet or epoch=5.manifest.json' }),
});
