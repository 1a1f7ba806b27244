-- CreateTable
CREATE TABLE "haggle_negotiation" (
    "id" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "conversation_id" BYTEA NOT NULL,
    "buyer" TEXT NOT NULL,
    "seller" TEXT NOT NULL,
    "deposit" DECIMAL(20,0) NOT NULL,
    "escrow" DECIMAL(20,0) NOT NULL,
    "decayed" DECIMAL(20,0) NOT NULL,
    "current_offer" DECIMAL(20,0),
    "last_offer_by" INTEGER,
    "rounds" INTEGER NOT NULL DEFAULT 0,
    "joined" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL,
    "reason" TEXT,
    "deadline" BIGINT NOT NULL,
    "response_window" INTEGER NOT NULL,
    "decay_bps" INTEGER NOT NULL,
    "min_offer_bps" INTEGER NOT NULL,
    "protocol_fee_bps" INTEGER NOT NULL,
    "max_rounds" INTEGER NOT NULL,
    "zopa_detection" BOOLEAN NOT NULL,
    "buyer_reservation" DECIMAL(40,0),
    "seller_reservation" DECIMAL(40,0),
    "zopa" BOOLEAN,
    "amount" DECIMAL(20,0),
    "fee" DECIMAL(20,0),
    "to_seller" DECIMAL(20,0),
    "refund" DECIMAL(20,0),
    "created_slot" BIGINT NOT NULL,
    "slot" BIGINT NOT NULL,
    "created_at" TIMESTAMPTZ(3),
    "closed_at" TIMESTAMPTZ(3),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "haggle_negotiation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "haggle_transition" (
    "id" BIGSERIAL NOT NULL,
    "negotiation_id" TEXT NOT NULL,
    "signature" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "slot" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "side" INTEGER,
    "round" INTEGER,
    "amount" DECIMAL(20,0),
    "decay" DECIMAL(20,0),
    "escrow" DECIMAL(20,0),
    "status" TEXT,
    "data" JSONB NOT NULL,
    "at" TIMESTAMPTZ(3),

    CONSTRAINT "haggle_transition_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "haggle_negotiation_conversation_id_idx" ON "haggle_negotiation"("conversation_id");

-- CreateIndex
CREATE INDEX "haggle_negotiation_address_created_slot_idx" ON "haggle_negotiation"("address", "created_slot");

-- CreateIndex
CREATE INDEX "haggle_transition_negotiation_id_slot_idx" ON "haggle_transition"("negotiation_id", "slot");

-- CreateIndex
CREATE UNIQUE INDEX "haggle_transition_signature_index_key" ON "haggle_transition"("signature", "index");
