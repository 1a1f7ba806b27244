/**
 * Which FEEDBACK about an agent comes from identities with nothing at stake with it: the sender
 * has no stake on chain (no `stake` row holding tokens: it never locked a stake, or took all of it
 * back) and no deal with the target (no conversation in which both negotiated, each the sender or
 * recipient of an offer or answer, that holds an ACCEPT). A deal is read from the ACCEPT, a signed
 * envelope, and not from the conversation's outcome: a FEEDBACK's own outcome field marks a
 * conversation agreed, so a stranger could make its own "deal" by proposing and rating. The spec
 * lets anyone's FEEDBACK move the gossip score; these reads let the pages say how much of a score
 * such senders make.
 *
 * Set-based and from stored columns: feedback is grouped per (target, sender); each target's deal
 * partners come from its conversations (participants GIN index) through the stored negotiators and
 * types mask, with no envelope read. Probing envelopes per pair instead took 3–5 s for the busiest
 * agent at 10M envelopes (20 partitions probed per pair; bench:query "agent + reputation").
 */

import { conversationTypeBit } from '../../protocol/conversation-state';
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

/** The ACCEPT bit of `conversation.types_seen`. */
const ACCEPTED = conversationTypeBit(MsgType.ACCEPT);

const PAIRS = `WITH pairs AS (
    SELECT target_agent AS t, from_agent AS s, count(*)::int AS n FROM feedback WHERE target_agent = ANY($1::bytea[])
      GROUP BY 1, 2
  ), deals AS (
    SELECT DISTINCT a.t, d.s FROM unnest($1::bytea[]) AS a(t)
      JOIN conversation c ON c.participants @> ARRAY[a.t] AND c.negotiators @> ARRAY[a.t]
        AND (c.types_seen & ${ACCEPTED}) <> 0
      CROSS JOIN LATERAL unnest(c.negotiators) AS d(s)
    WHERE d.s <> a.t
  ), staked AS (
    SELECT agent_id FROM stake WHERE amount > 0
  ), judged AS (
    SELECT p.t, p.s, p.n, k.agent_id IS NULL AND d.s IS NULL AS unbacked
    FROM pairs p LEFT JOIN staked k ON k.agent_id = p.s LEFT JOIN deals d ON d.t = p.t AND d.s = p.s
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
