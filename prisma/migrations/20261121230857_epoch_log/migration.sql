-- CreateTable
CREATE TABLE "epoch_log_entry" (
    "agent_id" BYTEA NOT NULL,
    "epoch" BIGINT NOT NULL,
    "position" INTEGER NOT NULL,
    "envelope_id" BYTEA NOT NULL,
    "uploaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "epoch_log_entry_pkey" PRIMARY KEY ("agent_id","epoch","position")
);
