-- AlterTable
ALTER TABLE "chain_event" ADD COLUMN     "agent" TEXT;

-- CreateTable
CREATE TABLE "reputation_point" (
    "agent_id" BYTEA NOT NULL,
    "kind" TEXT NOT NULL,
    "epoch" BIGINT NOT NULL,
    "reliability_score" BIGINT NOT NULL,
    "cooperation_index" BIGINT NOT NULL,
    "notary_accuracy" BIGINT NOT NULL,
    "total_tasks" BIGINT NOT NULL,
    "total_notarized" BIGINT NOT NULL,
    "total_disputes" BIGINT NOT NULL,
    "folded" INTEGER NOT NULL,
    "events" JSONB,

    CONSTRAINT "reputation_point_pkey" PRIMARY KEY ("agent_id","kind","epoch")
);

-- CreateIndex
CREATE INDEX "chain_event_agent_slot_idx" ON "chain_event"("agent", "slot");

-- Events stored before the column: their agent from the event data, as the indexer now writes it.
UPDATE "chain_event" SET "agent" = "data"->>'agent' WHERE "data" ? 'agent';

-- Gossip folds stored before the points: the next read of each agent refolds its feedback once
-- (lib/store/reputation.ts: a fold that does not account for every row is redone in full), and
-- writes its points on the way. Batch points are filled by the chain indexer when it starts.
UPDATE "reputation_state" SET "folded" = -1 WHERE "kind" = 'gossip' AND "folded" > 0;
