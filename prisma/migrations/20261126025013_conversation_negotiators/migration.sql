-- AlterTable
ALTER TABLE "conversation" ADD COLUMN     "negotiators" BYTEA[] DEFAULT ARRAY[]::BYTEA[];

-- The negotiators of the conversations already stored: sender and (non-broadcast) recipient of
-- their PROPOSE, COUNTER, ACCEPT and REJECT envelopes, as the ingest statement keeps them.
UPDATE "conversation" c SET "negotiators" = x.n
FROM (
  SELECT conversation_id, array_agg(DISTINCT p ORDER BY p) AS n FROM (
    SELECT conversation_id, sender AS p FROM "envelope" WHERE msg_type IN (3, 4, 5, 6)
    UNION ALL
    SELECT conversation_id, recipient FROM "envelope"
    WHERE msg_type IN (3, 4, 5, 6) AND recipient <> '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea
  ) y GROUP BY conversation_id
) x
WHERE c.id = x.conversation_id;
