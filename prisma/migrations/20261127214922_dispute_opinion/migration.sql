-- Signed opinions of reviewers on DISPUTE envelopes (the dispute desk, lib/store/disputes.ts).
-- One current row per dispute and reviewer, a newer signed message replaces it.

-- CreateEnum
CREATE TYPE "DisputeOpinionKind" AS ENUM ('upheld', 'rejected', 'unclear');

-- CreateTable
CREATE TABLE "dispute_opinion" (
    "dispute_id" BYTEA NOT NULL,
    "reviewer" BYTEA NOT NULL,
    "opinion" "DisputeOpinionKind" NOT NULL,
    "note" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "signature" BYTEA NOT NULL,
    "signed_at" TIMESTAMPTZ(3) NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "dispute_opinion_pkey" PRIMARY KEY ("dispute_id","reviewer")
);
