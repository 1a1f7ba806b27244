-- The gossip reputation fold (docs/protocol.md, reputation) stored per agent instead of folding
-- every FEEDBACK about it on each read of its page (lib/store/reputation.ts).
-- (No semicolons in these comments or in the function body: the pg driver adapter splits migration scripts at each one.)
-- feedback_count: FEEDBACK rows about the agent, counted by the ingest statement.
-- folded: how many of them the stored values fold, in (timestamp, envelope_id) order, the last
-- being (last_ts, last_feedback). A reader finding folded < feedback_count folds the rest
-- when they all sort after that key, else refolds, and stores the result.
ALTER TABLE "reputation_state" ADD COLUMN "folded" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "feedback_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN "last_ts" BIGINT,
ADD COLUMN "last_feedback" BYTEA;

-- One step of the gossip fold over the state ARRAY[reliability, cooperation, notary accuracy,
-- tasks, notarised, disputes]: trunc((old * n + x * ONE) / (n + 1)) with ONE = 1,000,000 and the
-- outcome valued -100, 0, 100. bigint division truncates toward zero as the protocol requires.
-- A non-NULL seed replaces the state (a stored fold to continue from).
CREATE FUNCTION "zx_gossip_step"(s BIGINT[], seed BIGINT[], score INTEGER, outcome INTEGER, role INTEGER, dispute BOOLEAN)
RETURNS BIGINT[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN seed IS NOT NULL THEN seed
    WHEN role = 0 THEN ARRAY[(s[1] * s[4] + score * 1000000::bigint) / (s[4] + 1), (s[2] * s[4] + (outcome - 1) * 100000000::bigint) / (s[4] + 1),
      s[3], s[4] + 1, s[5], s[6] + dispute::int]
    ELSE ARRAY[s[1], s[2], (s[3] * s[5] + score * 1000000::bigint) / (s[5] + 1), s[4], s[5] + 1, s[6] + dispute::int]
  END
$$;

-- zx_gossip_fold(seed, score, outcome, role, is_dispute ORDER BY timestamp, envelope_id)
CREATE AGGREGATE "zx_gossip_fold"(BIGINT[], INTEGER, INTEGER, INTEGER, BOOLEAN) (
  SFUNC = "zx_gossip_step", STYPE = BIGINT[], INITCOND = '{0,0,0,0,0,0}'
);

-- The fold of the feedback already stored.
INSERT INTO "reputation_state" ("agent_id", "kind", "reliability_score", "cooperation_index", "notary_accuracy", "total_tasks",
  "total_notarized", "total_disputes", "updated_at", "folded", "feedback_count", "last_ts", "last_feedback")
SELECT f."target_agent", 'gossip', f.s[1], f.s[2], f.s[3], f.s[4], f.s[5], f.s[6], CURRENT_TIMESTAMP, f.n, f.n, l."timestamp", l."envelope_id"
FROM (
  SELECT "target_agent", "zx_gossip_fold"(NULL, "score", "outcome", "role", "is_dispute" ORDER BY "timestamp", "envelope_id") AS s, count(*)::int AS n
  FROM "feedback" GROUP BY "target_agent"
) f
JOIN (
  SELECT DISTINCT ON ("target_agent") "target_agent", "timestamp", "envelope_id" FROM "feedback" ORDER BY "target_agent", "timestamp" DESC, "envelope_id" DESC
) l ON l."target_agent" = f."target_agent"
ON CONFLICT ("agent_id", "kind") DO UPDATE SET
  "reliability_score" = excluded."reliability_score", "cooperation_index" = excluded."cooperation_index",
  "notary_accuracy" = excluded."notary_accuracy", "total_tasks" = excluded."total_tasks", "total_notarized" = excluded."total_notarized",
  "total_disputes" = excluded."total_disputes", "updated_at" = excluded."updated_at", "folded" = excluded."folded",
  "feedback_count" = excluded."feedback_count", "last_ts" = excluded."last_ts", "last_feedback" = excluded."last_feedback";
