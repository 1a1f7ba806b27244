-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "EnvelopeSource" AS ENUM ('gossip', 'stream', 'upload');

-- CreateEnum
CREATE TYPE "SignerRole" AS ENUM ('owner', 'delegate');

-- CreateEnum
CREATE TYPE "KeySource" AS ENUM ('local', 'chain');

-- CreateEnum
CREATE TYPE "BatchStatus" AS ENUM ('unverified', 'verified', 'mismatch');

-- CreateTable
CREATE TABLE "agent" (
    "id" BYTEA NOT NULL,
    "first_seen" TIMESTAMPTZ(3) NOT NULL,
    "last_seen" TIMESTAMPTZ(3) NOT NULL,
    "label" TEXT,
    "online" BOOLEAN NOT NULL DEFAULT false,
    "sent" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "agent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "signer_key" (
    "id" SERIAL NOT NULL,
    "agent_id" BYTEA NOT NULL,
    "public_key" BYTEA NOT NULL,
    "role" "SignerRole" NOT NULL,
    "source" "KeySource" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "signer_key_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "envelope" (
    "id" BYTEA NOT NULL,
    "seq" BIGSERIAL NOT NULL,
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
    "payload" BYTEA NOT NULL,
    "signature" BYTEA NOT NULL,
    "raw" BYTEA NOT NULL,
    "source" "EnvelopeSource" NOT NULL,
    "topic" TEXT,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "epoch" INTEGER NOT NULL,

    CONSTRAINT "envelope_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "drop" (
    "id" BIGSERIAL NOT NULL,
    "reason" TEXT NOT NULL,
    "peer" TEXT,
    "source" TEXT,
    "detail" TEXT,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "drop_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "drop_counter" (
    "reason" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "drop_counter_pkey" PRIMARY KEY ("reason")
);

-- CreateTable
CREATE TABLE "msg_type_counter" (
    "msg_type" INTEGER NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "msg_type_counter_pkey" PRIMARY KEY ("msg_type")
);

-- CreateTable
CREATE TABLE "conversation" (
    "id" BYTEA NOT NULL,
    "participants" BYTEA[],
    "first_seen" TIMESTAMPTZ(3) NOT NULL,
    "last_seen" TIMESTAMPTZ(3) NOT NULL,
    "last_ts" BIGINT NOT NULL,
    "state" TEXT NOT NULL,
    "state_rank" INTEGER NOT NULL,
    "message_count" INTEGER NOT NULL,
    "last_type" INTEGER NOT NULL,
    "outcome" TEXT,

    CONSTRAINT "conversation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_pair" (
    "agent_a" BYTEA NOT NULL,
    "agent_b" BYTEA NOT NULL,
    "messages" INTEGER NOT NULL,
    "last_seen" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "agent_pair_pkey" PRIMARY KEY ("agent_a","agent_b")
);

-- CreateTable
CREATE TABLE "notary_bid" (
    "envelope_id" BYTEA NOT NULL,
    "conversation_id" BYTEA NOT NULL,
    "bidder" BYTEA NOT NULL,
    "recipient" BYTEA NOT NULL,
    "bid_type" INTEGER NOT NULL,
    "terms" BYTEA NOT NULL,
    "timestamp" BIGINT NOT NULL,

    CONSTRAINT "notary_bid_pkey" PRIMARY KEY ("envelope_id")
);

-- CreateTable
CREATE TABLE "feedback" (
    "envelope_id" BYTEA NOT NULL,
    "conversation_id" BYTEA NOT NULL,
    "from_agent" BYTEA NOT NULL,
    "target_agent" BYTEA NOT NULL,
    "score" INTEGER NOT NULL,
    "outcome" INTEGER NOT NULL,
    "is_dispute" BOOLEAN NOT NULL,
    "role" INTEGER NOT NULL,
    "timestamp" BIGINT NOT NULL,
    "epoch" INTEGER NOT NULL,

    CONSTRAINT "feedback_pkey" PRIMARY KEY ("envelope_id")
);

-- CreateTable
CREATE TABLE "reputation_state" (
    "agent_id" BYTEA NOT NULL,
    "kind" TEXT NOT NULL,
    "reliability_score" BIGINT NOT NULL,
    "cooperation_index" BIGINT NOT NULL,
    "notary_accuracy" BIGINT NOT NULL,
    "total_tasks" BIGINT NOT NULL,
    "total_notarized" BIGINT NOT NULL,
    "total_disputes" BIGINT NOT NULL,
    "last_epoch" INTEGER,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "reputation_state_pkey" PRIMARY KEY ("agent_id","kind")
);

-- CreateTable
CREATE TABLE "stake" (
    "agent_id" BYTEA NOT NULL,
    "owner" BYTEA,
    "amount" DECIMAL(20,0) NOT NULL,
    "status" TEXT NOT NULL,
    "unlock_slot" BIGINT,
    "slot" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "stake_pkey" PRIMARY KEY ("agent_id")
);

-- CreateTable
CREATE TABLE "lease" (
    "agent_id" BYTEA NOT NULL,
    "paid_through_epoch" BIGINT NOT NULL,
    "last_paid_epoch" BIGINT,
    "missed_epochs" INTEGER NOT NULL DEFAULT 0,
    "active" BOOLEAN NOT NULL,
    "slot" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "lease_pkey" PRIMARY KEY ("agent_id")
);

-- CreateTable
CREATE TABLE "batch" (
    "agent_id" BYTEA NOT NULL,
    "epoch" BIGINT NOT NULL,
    "batch_hash" BYTEA NOT NULL,
    "root" BYTEA NOT NULL,
    "slot" BIGINT NOT NULL,
    "signature" TEXT,
    "status" "BatchStatus" NOT NULL DEFAULT 'unverified',
    "log_root" BYTEA,
    "data" JSONB,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "batch_pkey" PRIMARY KEY ("agent_id","epoch")
);

-- CreateTable
CREATE TABLE "challenge" (
    "address" TEXT NOT NULL,
    "agent_id" BYTEA NOT NULL,
    "epoch" BIGINT NOT NULL,
    "challenger" BYTEA NOT NULL,
    "status" TEXT NOT NULL,
    "slot" BIGINT NOT NULL,
    "opened_slot" BIGINT NOT NULL,
    "data" JSONB,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "challenge_pkey" PRIMARY KEY ("address")
);

-- CreateTable
CREATE TABLE "challenge_transition" (
    "id" BIGSERIAL NOT NULL,
    "challenge" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "slot" BIGINT NOT NULL,
    "signature" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "challenge_transition_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "chain_event" (
    "id" BIGSERIAL NOT NULL,
    "signature" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "slot" BIGINT NOT NULL,
    "program" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "block_time" TIMESTAMPTZ(3),

    CONSTRAINT "chain_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "indexer_cursor" (
    "name" TEXT NOT NULL,
    "signature" TEXT,
    "slot" BIGINT NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "indexer_cursor_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "agent_last_seen_idx" ON "agent"("last_seen");

-- CreateIndex
CREATE UNIQUE INDEX "signer_key_agent_id_public_key_key" ON "signer_key"("agent_id", "public_key");

-- CreateIndex
CREATE UNIQUE INDEX "envelope_seq_key" ON "envelope"("seq");

-- CreateIndex
CREATE INDEX "envelope_msg_type_seq_idx" ON "envelope"("msg_type", "seq");

-- CreateIndex
CREATE INDEX "envelope_sender_seq_idx" ON "envelope"("sender", "seq");

-- CreateIndex
CREATE INDEX "envelope_recipient_seq_idx" ON "envelope"("recipient", "seq");

-- CreateIndex
CREATE INDEX "envelope_conversation_id_timestamp_idx" ON "envelope"("conversation_id", "timestamp");

-- CreateIndex
CREATE INDEX "drop_reason_at_idx" ON "drop"("reason", "at");

-- CreateIndex
CREATE INDEX "drop_at_idx" ON "drop"("at");

-- CreateIndex
CREATE INDEX "conversation_last_seen_idx" ON "conversation"("last_seen");

-- CreateIndex
CREATE INDEX "notary_bid_conversation_id_idx" ON "notary_bid"("conversation_id");

-- CreateIndex
CREATE INDEX "feedback_target_agent_timestamp_idx" ON "feedback"("target_agent", "timestamp");

-- CreateIndex
CREATE INDEX "feedback_conversation_id_idx" ON "feedback"("conversation_id");

-- CreateIndex
CREATE INDEX "batch_status_idx" ON "batch"("status");

-- CreateIndex
CREATE INDEX "batch_slot_idx" ON "batch"("slot");

-- CreateIndex
CREATE INDEX "challenge_agent_id_epoch_idx" ON "challenge"("agent_id", "epoch");

-- CreateIndex
CREATE INDEX "challenge_status_idx" ON "challenge"("status");

-- CreateIndex
CREATE INDEX "challenge_transition_challenge_slot_idx" ON "challenge_transition"("challenge", "slot");

-- CreateIndex
CREATE UNIQUE INDEX "challenge_transition_challenge_status_signature_key" ON "challenge_transition"("challenge", "status", "signature");

-- CreateIndex
CREATE INDEX "chain_event_slot_idx" ON "chain_event"("slot");

-- CreateIndex
CREATE INDEX "chain_event_name_slot_idx" ON "chain_event"("name", "slot");

-- CreateIndex
CREATE UNIQUE INDEX "chain_event_signature_index_key" ON "chain_event"("signature", "index");
