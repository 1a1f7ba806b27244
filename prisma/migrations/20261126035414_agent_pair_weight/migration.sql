-- The graph's busiest pairs are found through a coarse class of the message count,
-- weight = floor(4 * log2(messages)), instead of an index on messages itself: every pair update
-- changed that index's key, so no update of agent_pair could be HOT and each one inserted two
-- index entries and a new row version elsewhere in the table. The class changes only when the
-- count grows by about a fifth. With free room on the page (fillfactor 80) the other updates
-- stay on their page and touch no index.

-- DropIndex
DROP INDEX "agent_pair_messages_agent_a_agent_b_idx";

-- AlterTable
ALTER TABLE "agent_pair" ADD COLUMN     "weight" SMALLINT NOT NULL DEFAULT 0;

UPDATE "agent_pair" SET "weight" = floor(4 * ln(greatest("messages", 1)::float8) / ln(2::float8))::int2;

ALTER TABLE "agent_pair" SET (fillfactor = 80);

-- CreateIndex
CREATE INDEX "agent_pair_weight_idx" ON "agent_pair"("weight" DESC);
