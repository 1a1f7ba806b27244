-- Watchlists, alert rules, alerts and the webhook outbox (lib/alerts, docs/app.md "Alerts and watchlists").
-- Only token hashes are stored. The unique key on alert with a nullable dedupe_key keeps one open
-- alert per subject (NULLs are distinct, so cleared alerts never collide).
-- CreateTable
CREATE TABLE "watchlist" (
    "id" TEXT NOT NULL,
    "wallet" TEXT,
    "all_agents" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "watchlist_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "watchlist_token" (
    "hash" BYTEA NOT NULL,
    "watchlist_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "watchlist_token_pkey" PRIMARY KEY ("hash")
);

-- CreateTable
CREATE TABLE "watch_item" (
    "watchlist_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "target" BYTEA NOT NULL,
    "added_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "watch_item_pkey" PRIMARY KEY ("watchlist_id","kind","target")
);

-- CreateTable
CREATE TABLE "watch_rule" (
    "watchlist_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "params" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "watch_rule_pkey" PRIMARY KEY ("watchlist_id","kind")
);

-- CreateTable
CREATE TABLE "alert_webhook" (
    "id" TEXT NOT NULL,
    "watchlist_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "secret" TEXT,
    "env" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'new',
    "last_error" TEXT,
    "last_delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_webhook_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert" (
    "id" BIGSERIAL NOT NULL,
    "watchlist_id" TEXT NOT NULL,
    "agent" BYTEA NOT NULL,
    "kind" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "dedupe_key" TEXT,
    "why" TEXT NOT NULL,
    "opened_at" TIMESTAMPTZ(3) NOT NULL,
    "cleared_at" TIMESTAMPTZ(3),
    "cleared_why" TEXT,
    "read" BOOLEAN NOT NULL DEFAULT false,
    "throttled" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "alert_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_delivery" (
    "id" TEXT NOT NULL,
    "alert_id" BIGINT NOT NULL,
    "webhook_id" TEXT NOT NULL,
    "watchlist_id" TEXT NOT NULL,
    "event" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_at" TIMESTAMPTZ(3) NOT NULL,
    "claimed_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "delivered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_delivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "watchlist_wallet_key" ON "watchlist"("wallet");

-- CreateIndex
CREATE INDEX "watchlist_token_watchlist_id_idx" ON "watchlist_token"("watchlist_id");

-- CreateIndex
CREATE INDEX "watch_item_kind_target_idx" ON "watch_item"("kind", "target");

-- CreateIndex
CREATE INDEX "alert_webhook_watchlist_id_idx" ON "alert_webhook"("watchlist_id");

-- CreateIndex
CREATE INDEX "alert_watchlist_id_id_idx" ON "alert"("watchlist_id", "id");

-- CreateIndex
CREATE INDEX "alert_watchlist_id_kind_opened_at_idx" ON "alert"("watchlist_id", "kind", "opened_at");

-- CreateIndex
CREATE UNIQUE INDEX "alert_watchlist_id_agent_kind_dedupe_key_key" ON "alert"("watchlist_id", "agent", "kind", "dedupe_key");

-- CreateIndex
CREATE INDEX "alert_delivery_status_next_at_idx" ON "alert_delivery"("status", "next_at");

-- CreateIndex
CREATE INDEX "alert_delivery_watchlist_id_created_at_idx" ON "alert_delivery"("watchlist_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "alert_delivery_alert_id_webhook_id_event_key" ON "alert_delivery"("alert_id", "webhook_id", "event");
