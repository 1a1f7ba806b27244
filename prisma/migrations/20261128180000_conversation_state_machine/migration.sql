-- AlterTable
ALTER TABLE "conversation" ADD COLUMN     "types_seen" INTEGER NOT NULL DEFAULT 0,
DROP COLUMN     "state_rank";

-- The stage is now the state machine of lib/protocol/conversation-state.ts over the set of
-- envelope types a conversation holds (only an ACCEPT makes a deal, FEEDBACK alone is feedback
-- without a deal). The set of every stored conversation from its envelopes, then its stage and
-- outcome from the set: the same CASE expressions the ingest statement uses.
UPDATE "conversation" c SET "types_seen" = x.m
FROM (
  SELECT conversation_id, bit_or(1 << msg_type) AS m FROM "envelope"
  WHERE msg_type BETWEEN 2 AND 12 GROUP BY conversation_id
) x
WHERE c.id = x.conversation_id;

UPDATE "conversation" c SET "state" = CASE WHEN (c.types_seen & 4128) = 4128 THEN 'disputed' WHEN (c.types_seen & 2080) = 2080 THEN 'completed' WHEN (c.types_seen & 1056) = 1056 THEN 'verdict' WHEN (c.types_seen & 32) = 32 AND (c.types_seen & 768) <> 0 THEN 'notarizing' WHEN (c.types_seen & 160) = 160 THEN 'delivered' WHEN (c.types_seen & 32) = 32 THEN 'accepted' WHEN (c.types_seen & 64) = 64 THEN 'rejected' WHEN (c.types_seen & 2048) = 2048 THEN 'feedback_without_deal' WHEN (c.types_seen & 8064) <> 0 THEN 'without_deal' WHEN (c.types_seen & 24) <> 0 THEN 'negotiating' ELSE 'discovery' END, "outcome" = NULLIF(CASE WHEN (c.types_seen & 4128) = 4128 THEN 'disputed' WHEN (c.types_seen & 2080) = 2080 THEN 'agreed' WHEN (c.types_seen & 1056) = 1056 THEN 'agreed' WHEN (c.types_seen & 32) = 32 AND (c.types_seen & 768) <> 0 THEN 'agreed' WHEN (c.types_seen & 160) = 160 THEN 'agreed' WHEN (c.types_seen & 32) = 32 THEN 'agreed' WHEN (c.types_seen & 64) = 64 THEN 'rejected' WHEN (c.types_seen & 2048) = 2048 THEN 'no_deal' WHEN (c.types_seen & 8064) <> 0 THEN 'no_deal' WHEN (c.types_seen & 24) <> 0 THEN 'open' ELSE 'open' END, 'open');
