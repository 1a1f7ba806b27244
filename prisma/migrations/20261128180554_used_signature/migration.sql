-- Wallet signatures accepted once (lib/store/used-signatures.ts), keyed by their decoded bytes,
-- kept until the signed message could no longer be accepted anyway.

-- CreateTable
CREATE TABLE "used_signature" (
    "sig" BYTEA NOT NULL,
    "purpose" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "used_signature_pkey" PRIMARY KEY ("sig")
);

-- CreateIndex
CREATE INDEX "used_signature_expires_at_idx" ON "used_signature"("expires_at");
