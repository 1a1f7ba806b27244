-- Ingest statements add one row here instead of upserting the stats rollups themselves: the
-- rollups are kept by a fold (lib/store/stats.ts foldStats) that deletes the rows it adds up
-- in the same statement, so a crash between the two loses nothing and counts nothing twice

-- CreateTable
CREATE TABLE "stats_pending" (
    "id" BIGSERIAL NOT NULL,
    "minutes" BIGINT[],
    "envelopes" BIGINT[],
    "opened" BIGINT[],
    "agreed" BIGINT[],
    "rejected" BIGINT[],
    "disputes" BIGINT[],
    "active_minutes" BIGINT[],
    "active_words" INTEGER[],
    "active_masks" BIGINT[],
    "deal_minutes" BIGINT[],
    "deal_services" BYTEA[],
    "deal_tokens" BYTEA[],
    "deal_prices" DECIMAL(40,0)[],
    "deal_counts" BIGINT[],

    CONSTRAINT "stats_pending_pkey" PRIMARY KEY ("id")
);
