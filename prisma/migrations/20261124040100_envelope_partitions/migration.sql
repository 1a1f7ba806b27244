-- The envelope table partitioned by RANGE (epoch) (docs/architecture.md "Scale").
-- (No semicolons in these comments: the pg driver adapter splits migration scripts at each one.)
-- A unique constraint on a partitioned table must include the partition key: the primary key
-- becomes (id, epoch) and the feed cursor's unique index (seq, epoch). Neither weakens
-- uniqueness: the id is the keccak256 of the signed envelope bytes, which include the timestamp
-- the epoch is computed from, so one id has exactly one epoch, seq comes from one sequence.
-- Rows move into the DEFAULT partition here (a migration does not know EPOCH_SECONDS), the store
-- creates the epoch-range partitions at start and moves the rows out (lib/store/partitions.ts).

ALTER TABLE "envelope" RENAME TO "envelope_unpartitioned";
ALTER TABLE "envelope_unpartitioned" RENAME CONSTRAINT "envelope_pkey" TO "envelope_unpartitioned_pkey";
ALTER INDEX "envelope_seq_key" RENAME TO "envelope_unpartitioned_seq_key";
ALTER INDEX "envelope_msg_type_seq_idx" RENAME TO "envelope_unpartitioned_msg_type_seq_idx";
ALTER INDEX "envelope_sender_seq_idx" RENAME TO "envelope_unpartitioned_sender_seq_idx";
ALTER INDEX "envelope_recipient_seq_idx" RENAME TO "envelope_unpartitioned_recipient_seq_idx";
ALTER INDEX "envelope_conversation_id_timestamp_idx" RENAME TO "envelope_unpartitioned_conversation_id_timestamp_idx";
-- The feed cursor's sequence carries over (same name, same next value).
ALTER SEQUENCE "envelope_seq_seq" OWNED BY NONE;

-- CreateTable
CREATE TABLE "envelope" (
    "id" BYTEA NOT NULL,
    "seq" BIGINT NOT NULL DEFAULT nextval('envelope_seq_seq'),
    "version" INTEGER NOT NULL,
    "msg_type" INTEGER NOT NULL,
    "sender" BYTEA NOT NULL,
    "recipient" BYTEA NOT NULL,
    "timestamp" BIGINT NOT NULL,
    "block_ref" DECIMAL(20,0) NOT NULL,
    "nonce" DECIMAL(20,0) NOT NULL,
    "conversation_id" BYTEA NOT NULL,
    "payload_hash" BYTEA NOT NULL,
    "payload_len" INTEGER NOT NULL,
    "signature" BYTEA NOT NULL,
    "raw" BYTEA NOT NULL,
    "source" "EnvelopeSource" NOT NULL,
    "topic" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "epoch" INTEGER NOT NULL,

    CONSTRAINT "envelope_pkey" PRIMARY KEY ("id","epoch")
) PARTITION BY RANGE ("epoch");

ALTER SEQUENCE "envelope_seq_seq" OWNED BY "envelope"."seq";

-- Rows whose epoch range has no partition yet (created ahead of time by the store).
CREATE TABLE "envelope_default" PARTITION OF "envelope" DEFAULT;
-- Moving a range out of the default reads just that range.
CREATE INDEX "envelope_default_epoch_idx" ON "envelope_default"("epoch");

-- CreateIndex
CREATE UNIQUE INDEX "envelope_seq_epoch_key" ON "envelope"("seq", "epoch");

-- CreateIndex
CREATE INDEX "envelope_msg_type_seq_idx" ON "envelope"("msg_type", "seq");

-- CreateIndex
CREATE INDEX "envelope_msg_type_timestamp_idx" ON "envelope"("msg_type", "timestamp");

-- CreateIndex
CREATE INDEX "envelope_sender_seq_idx" ON "envelope"("sender", "seq");

-- CreateIndex
CREATE INDEX "envelope_recipient_seq_idx" ON "envelope"("recipient", "seq");

-- CreateIndex
CREATE INDEX "envelope_conversation_id_timestamp_idx" ON "envelope"("conversation_id", "timestamp");

INSERT INTO "envelope" ("id", "seq", "version", "msg_type", "sender", "recipient", "timestamp", "block_ref", "nonce",
    "conversation_id", "payload_hash", "payload_len", "signature", "raw", "source", "topic", "received_at", "epoch")
SELECT "id", "seq", "version", "msg_type", "sender", "recipient", "timestamp", "block_ref", "nonce",
    "conversation_id", "payload_hash", "payload_len", "signature", "raw", "source", "topic", "received_at", "epoch"
FROM "envelope_unpartitioned";

DROP TABLE "envelope_unpartitioned";
