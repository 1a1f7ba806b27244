-- Gossip and chain reconciliation per agent and epoch, computed when the batch verdict is
-- reached (lib/store/reconciliation.ts), and its sums per verdict for the totals.
CREATE TABLE "reconciliation" (
    "agent_id" BYTEA NOT NULL,
    "epoch" BIGINT NOT NULL,
    "status" "BatchStatus" NOT NULL,
    "log_root" BYTEA,
    "log_entries" INTEGER NOT NULL,
    "seen" INTEGER,
    "seen_logged" INTEGER,
    "seen_not_logged" INTEGER,
    "logged_not_seen" INTEGER,
    "seen_broadcast" INTEGER,
    "committed_broadcast" INTEGER,
    "seen_notary" INTEGER,
    "committed_notary" INTEGER,
    "seen_reputation" INTEGER,
    "committed_reputation" INTEGER,
    "seen_stream" INTEGER,
    "committed_stream" INTEGER,
    "computed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "reconciliation_pkey" PRIMARY KEY ("agent_id","epoch")
);

CREATE TABLE "reconciliation_total" (
    "status" "BatchStatus" NOT NULL,
    "agent_epochs" BIGINT NOT NULL,
    "log_entries" BIGINT NOT NULL,
    "seen" BIGINT NOT NULL,
    "seen_logged" BIGINT NOT NULL,
    "seen_not_logged" BIGINT NOT NULL,
    "logged_not_seen" BIGINT NOT NULL,
    "seen_broadcast" BIGINT NOT NULL,
    "committed_broadcast" BIGINT NOT NULL,
    "seen_notary" BIGINT NOT NULL,
    "committed_notary" BIGINT NOT NULL,
    "seen_reputation" BIGINT NOT NULL,
    "committed_reputation" BIGINT NOT NULL,
    "seen_stream" BIGINT NOT NULL,
    "committed_stream" BIGINT NOT NULL,

    CONSTRAINT "reconciliation_total_pkey" PRIMARY KEY ("status")
);

CREATE INDEX "reconciliation_epoch_idx" ON "reconciliation"("epoch");
