/**
 * Which FEEDBACK about an agent comes from identities with nothing at stake with it: the sender
 * has no stake on chain (no `stake` row holding tokens: it never locked a stake, or took all of it
 * back) and no deal with the target (no conversation of theirs holding an ACCEPT from one of the two
 * to the other). A deal is read from the ACCEPT, a signed envelope, and not from the conversation's
 * outcome: a FEEDBACK's own outcome field marks a conversation agreed, so a stranger could make
 * its own "deal" by proposing and rating. The spec lets anyone's FEEDBACK move the gossip score;
 * these reads let the pages say how much of a score such senders make.
 *
 * Set-based: feedback is grouped per (target, sender) first, so the stake and deal probes run once
 * per pair, not per envelope (the deal probe through conversation's participants GIN index, then
 * the conversation's envelopes by (conversation_id, timestamp)).
 */

import { toHex } from '../../protocol/hex';
import { MsgType } from '../../protocol/types';
import type { Queryable } from '../engine/db';

type Row = Record<string, unknown>;

export interface FeedbackBacking {
  /** FEEDBACK envelopes about the agent. */
  feedback: number;
  /** Of those, sent by identities with no stake and no deal with the agent. */
  unbacked: number;
}

const PAIRS = `WITH pairs AS (
    SELECT target_agent AS t, from_agent AS s, count(*)::int AS n FROM feedback WHERE target_agent = ANY($1::bytea[])
      GROUP BY 1, 2
  ), judged AS (
    SELECT p.t, p.s, p.n,
      NOT EXISTS (SELECT 1 FROM stake k WHERE k.agent_id = p.s AND k.amount > 0)
      AND NOT EXISTS (SELECT 1 FROM conversation c JOIN envelope e ON e.conversation_id = c.id
        WHERE c.participants @> ARRAY[p.s, p.t] AND e.msg_type = ${MsgType.ACCEPT}
          AND ((e.sender = p.s AND e.recipient = p.t) OR (e.sender = p.t AND e.recipient = p.s))) AS unbacked
    FROM pairs p
  )`;

/** Per agent (hex id): its FEEDBACK count and how many of them are unbacked; agents with none are absent. */
export async function feedbackBacking(
  q: Queryable,
  agents: readonly Uint8Array[],
): Promise<Map<string, FeedbackBacking>> {
  const out = new Map<string, FeedbackBacking>();
  if (agents.length === 0) return out;
  const rows = await q.query<Row>(
    `${PAIRS} SELECT t, sum(n)::int AS feedback, COALESCE(sum(n) ` +
      `FILTER (WHERE unbacked), 0)::int AS unbacked FROM judged GROUP BY t`,
    [[...agents]],
  );
  for (const r of rows)
    out.set(toHex(r.t as Uint8Array), { feedback: Number(r.feedback), unbacked: Number(r.unbacked) });
  return out;
}

/** The senders of FEEDBACK about `agent` that have no stake and no deal with it (hex ids). */
export async function unbackedSenders(q: Queryable, agent: Uint8Array): Promise<Set<string>> {
  const rows = await q.query<Row>(`${PAIRS} SELECT s FROM judged WHERE unbacked`, [[agent]]);
  return new Set(rows.map((r) => toHex(r.s as Uint8Array)));
}
