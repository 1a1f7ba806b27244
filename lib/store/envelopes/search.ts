/**
 * Search over what the store holds: id prefixes of agents, conversations and envelopes (range
 * scans on the bytea primary keys, so a prefix costs an index walk, not a table scan), agent
 * labels, batches by agent and epoch, challenge addresses and transaction signatures (base58
 * text prefixes). Plus the filtered, cursor-paged conversation list the API and the MCP tools
 * share. Raw SQL like queries.ts: 64-bit columns come back as text (PGlite returns int8 as a
 * lossy JS number).
 */

import { toHex } from '../../protocol/hex';
import type { SearchTerms } from '../../wire/search-terms';
import type { Queryable } from '../engine/db';
import type { ConversationRow } from '../types';

type Row = Record<string, unknown>;
const u8 = (v: unknown) =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);

export type { SearchTerms };

export interface SearchRows {
  agents: { id: Uint8Array; label: string | null; lastSeen: Date }[];
  conversations: { id: Uint8Array; state: string; messageCount: number; lastSeen: Date }[];
  envelopes: { id: Uint8Array; msgType: number; sender: Uint8Array; conversationId: Uint8Array; seq: bigint }[];
  batches: { agent: Uint8Array; epoch: bigint; status: string; signature: string | null }[];
  challenges: { address: string; agent: Uint8Array; epoch: bigint; status: string }[];
  /** `agent` from the batch or challenge row; `agentAddress` (base58) from another program event's data. */
  transactions: {
    signature: string;
    what: string;
    agent: Uint8Array | null;
    agentAddress: string | null;
    epoch: bigint | null;
  }[];
}

/** Inclusive byte bounds of every id of `bytes` length starting with the hex prefix. */
export function prefixRange(hexPrefix: string, bytes: number): [Uint8Array, Uint8Array] | null {
  if (!/^[0-9a-f]+$/.test(hexPrefix) || hexPrefix.length > bytes * 2) return null;
  const lo = Buffer.from(hexPrefix.padEnd(bytes * 2, '0'), 'hex');
  const hi = Buffer.from(hexPrefix.padEnd(bytes * 2, 'f'), 'hex');
  return [new Uint8Array(lo), new Uint8Array(hi)];
}

/** `%` and `_` are LIKE wildcards; a prefix from the user must match literally. */
const likePrefix = (s: string) => `${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function search(q: Queryable, t: SearchTerms): Promise<SearchRows> {
  const out: SearchRows = {
    agents: [],
    conversations: [],
    envelopes: [],
    batches: [],
    challenges: [],
    transactions: [],
  };
  const limit = t.limit;
  const agentIds = new Map<string, SearchRows['agents'][number]>();
  const addAgents = (rows: Row[]) => {
    for (const r of rows) {
      const a = { id: u8(r.id), label: (r.label as string | null) ?? null, lastSeen: new Date(r.last_seen as Date) };
      if (!agentIds.has(toHex(a.id))) agentIds.set(toHex(a.id), a);
    }
  };
  if (t.agent) addAgents(await q.query<Row>(`SELECT id, label, last_seen FROM agent WHERE id = $1`, [t.agent]));
  const r32 = t.hexPrefix ? prefixRange(t.hexPrefix, 32) : null;
  const r16 = t.hexPrefix ? prefixRange(t.hexPrefix, 16) : null;
  if (r32) {
    addAgents(
      await q.query<Row>(`SELECT id, label, last_seen FROM agent WHERE id BETWEEN $1 AND $2 ORDER BY id LIMIT $3`, [
        ...r32,
        limit,
      ]),
    );
    const envs = await q.query<Row>(
      `SELECT id, msg_type, sender, conversation_id, seq::text AS seq ` +
        `FROM envelope WHERE id BETWEEN $1 AND $2 ORDER BY id LIMIT $3`,
      [...r32, limit],
    );
    out.envelopes = envs.map((r) => ({
      id: u8(r.id),
      msgType: Number(r.msg_type),
      sender: u8(r.sender),
      conversationId: u8(r.conversation_id),
      seq: BigInt(String(r.seq)),
    }));
  }
  if (r16) {
    const convs = await q.query<Row>(
      `SELECT id, state, message_count, last_seen FROM conversation WHERE id BETWEEN $1 AND $2 ORDER BY id LIMIT $3`,
      [...r16, limit],
    );
    out.conversations = convs.map((r) => ({
      id: u8(r.id),
      state: r.state as string,
      messageCount: Number(r.message_count),
      lastSeen: new Date(r.last_seen as Date),
    }));
  }
  for (const [lo, hi] of t.agentRanges ?? []) {
    if (agentIds.size >= limit) break;
    addAgents(
      await q.query<Row>(`SELECT id, label, last_seen FROM agent WHERE id BETWEEN $1 AND $2 ORDER BY id LIMIT $3`, [
        Buffer.from(lo, 'hex'),
        Buffer.from(hi, 'hex'),
        limit,
      ]),
    );
  }
  if (t.text && t.text.length >= 2) {
    addAgents(
      await q.query<Row>(
        `SELECT id, label, last_seen FROM agent WHERE label ILIKE $1 ORDER BY last_seen DESC LIMIT $2`,
        [`%${t.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`, limit],
      ),
    );
  }
  out.agents = [...agentIds.values()].slice(0, limit);

  if (t.agent || t.epoch !== undefined) {
    const where: string[] = [];
    const args: unknown[] = [];
    if (t.agent) {
      args.push(t.agent);
      where.push(`agent_id = $${args.length}`);
    }
    if (t.epoch !== undefined) {
      args.push(t.epoch.toString());
      where.push(`epoch = $${args.length}::int8`);
    }
    args.push(limit);
    const rows = await q.query<Row>(
      `SELECT agent_id, epoch::text AS epoch, status::text AS status, signature FROM batch ` +
        `WHERE ${where.join(' AND ')} ORDER BY epoch DESC, agent_id LIMIT $${args.length}`,
      args,
    );
    out.batches = rows.map((r) => ({
      agent: u8(r.agent_id),
      epoch: BigInt(String(r.epoch)),
      status: r.status as string,
      signature: (r.signature as string | null) ?? null,
    }));
    const ch = await q.query<Row>(
      `SELECT address, agent_id, epoch::text AS epoch, status FROM challenge WHERE ` +
        `${where.join(' AND ')} ORDER BY epoch DESC, address LIMIT $${args.length}`,
      args,
    );
    out.challenges = ch.map(toChallenge);
  }
  if (t.base58Prefix && t.base58Prefix.length >= 4) {
    const like = likePrefix(t.base58Prefix);
    const ch = await q.query<Row>(
      `SELECT address, agent_id, epoch::text AS epoch, status FROM ` +
        `challenge WHERE address LIKE $1 ORDER BY address LIMIT $2`,
      [like, limit],
    );
    const seen = new Set(out.challenges.map((c) => c.address));
    out.challenges.push(...ch.map(toChallenge).filter((c) => !seen.has(c.address)));
    const tx = await q.query<Row>(
      `SELECT signature, what, agent_id, agent_address, epoch FROM (
         SELECT signature, 'batch' AS what, agent_id, NULL::text AS agent_address, epoch::text AS epoch FROM batch WHERE
           signature LIKE $1
         UNION ALL
         SELECT t.signature, 'challenge ' || t.status, c.agent_id, NULL, c.epoch::text FROM challenge_transition t JOIN
           challenge c ON c.address = t.challenge WHERE t.signature LIKE $1
         UNION ALL
         SELECT signature, name, NULL::bytea, data->>'agent', NULL FROM chain_event
           WHERE signature LIKE $1 AND name NOT IN ('BatchSubmitted', 'ChallengeSubmitted', 'ChallengeResolved')
       ) s ORDER BY signature, what LIMIT $2`,
      [like, limit],
    );
    out.transactions = tx.map((r) => ({
      signature: r.signature as string,
      what: r.what as string,
      agent: r.agent_id ? u8(r.agent_id) : null,
      agentAddress: (r.agent_address as string | null) ?? null,
      epoch: r.epoch === null || r.epoch === undefined ? null : BigInt(String(r.epoch)),
    }));
  }
  return out;
}

function toChallenge(r: Row): SearchRows['challenges'][number] {
  return {
    address: r.address as string,
    agent: u8(r.agent_id),
    epoch: BigInt(String(r.epoch)),
    status: r.status as string,
  };
}

export type ConversationSort = 'last_seen' | 'first_seen' | 'messages';

/** The SQL of each sort key; a time key travels in the cursor as unix ms, messages as the count. */
const CONV_KEYS: Record<
  ConversationSort,
  { col: string; param: (v: number) => unknown; cast: string; of: (r: ConversationRow) => number }
> = {
  last_seen: {
    col: 'last_seen',
    param: (v) => new Date(v).toISOString(),
    cast: 'timestamptz',
    of: (r) => r.lastSeen.getTime(),
  },
  first_seen: {
    col: 'first_seen',
    param: (v) => new Date(v).toISOString(),
    cast: 'timestamptz',
    of: (r) => r.firstSeen.getTime(),
  },
  messages: { col: 'message_count', param: (v) => v, cast: 'int4', of: (r) => r.messageCount },
};

/** Filters of {@link listConversationsPage}; `cursor` is the `next` of the previous page (same sort). */
export interface ConversationFilter {
  agent?: Uint8Array;
  /** Stage name (discovery, negotiating, accepted, …; lib/store/envelopes/derive.ts). */
  state?: string;
  /** agreed, rejected, disputed, or `open` for none yet. */
  outcome?: string;
  /** last_seen window, unix ms, inclusive. */
  fromMs?: number;
  toMs?: number;
  /** Descending; default last_seen. */
  sort?: ConversationSort;
  limit: number;
  /** The sort key (unix ms or message count) and id of the last row of the previous page. */
  cursor?: { value: number; id: Uint8Array };
}

/**
 * Conversations filtered, sorted descending; keyset-paged on (sort key, id), id being the
 * primary key, so a page boundary never repeats or skips a row while new conversations arrive.
 */
export async function listConversationsPage(
  q: Queryable,
  f: ConversationFilter,
): Promise<{ rows: ConversationRow[]; next: { value: number; id: Uint8Array } | null }> {
  const key = CONV_KEYS[f.sort ?? 'last_seen'];
  const where: string[] = [];
  const args: unknown[] = [];
  const arg = (v: unknown) => {
    args.push(v);
    return `$${args.length}`;
  };
  if (f.agent) where.push(`participants @> ARRAY[${arg(f.agent)}::bytea]`); // the GIN index on participants
  if (f.state) where.push(`state = ${arg(f.state)}`);
  if (f.outcome === 'open') where.push('outcome IS NULL');
  else if (f.outcome) where.push(`outcome = ${arg(f.outcome)}`);
  if (f.fromMs !== undefined) where.push(`last_seen >= ${arg(new Date(f.fromMs).toISOString())}::timestamptz`);
  if (f.toMs !== undefined) where.push(`last_seen <= ${arg(new Date(f.toMs).toISOString())}::timestamptz`);
  if (f.cursor) where.push(`(${key.col}, id) < (${arg(key.param(f.cursor.value))}::${key.cast}, ${arg(f.cursor.id)})`);
  const rows = await q.query<Row>(
    `SELECT * FROM conversation ${where.length ? `WHERE ${where.join(' AND ')}` : ''}` +
      ` ORDER BY ${key.col} DESC, id DESC LIMIT ${arg(f.limit + 1)}`,
    args,
  );
  const list = rows.slice(0, f.limit).map(
    (r): ConversationRow => ({
      id: u8(r.id),
      participants: (r.participants as unknown[]).map(u8),
      firstSeen: new Date(r.first_seen as Date),
      lastSeen: new Date(r.last_seen as Date),
      state: r.state as string,
      messageCount: Number(r.message_count),
      lastType: Number(r.last_type),
      outcome: (r.outcome as string | null) ?? null,
    }),
  );
  const last = list[list.length - 1];
  return { rows: list, next: rows.length > f.limit && last ? { value: key.of(last), id: last.id } : null };
}
