-- CreateTable
CREATE TABLE "batch_upload" (
    "agent_id" BYTEA NOT NULL,
    "epoch" BIGINT NOT NULL,
    "batch_hash" BYTEA NOT NULL,
    "cbor" BYTEA NOT NULL,
    "uploaded_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "batch_upload_pkey" PRIMARY KEY ("agent_id","epoch","batch_hash")
);
