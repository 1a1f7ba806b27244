-- Agreed deals per interval, service and token (lib/store/stats.ts). A per-service chart read
-- these rows instead of every agreed price of the range: at a daily resolution over months the
-- price rows number hundreds of thousands, a median needs all of them, and a closed interval's
-- median never changes. The ingest statement adds to deals and volume with its stats_price rows.
-- The median is stored by the first read after the count changed, with the count it covers
-- (median_deals), so the interval still receiving deals is the only one a read recomputes.
-- (No semicolons in these comments: the pg driver adapter splits migration scripts at each one.)
CREATE TABLE "stats_service" (
    "res" INTEGER NOT NULL,
    "bucket" BIGINT NOT NULL,
    "service" BYTEA NOT NULL,
    "token" BYTEA NOT NULL,
    "deals" BIGINT NOT NULL DEFAULT 0,
    "volume" DECIMAL(60,0) NOT NULL DEFAULT 0,
    "median" DECIMAL(40,0),
    "median_deals" BIGINT,

    CONSTRAINT "stats_service_pkey" PRIMARY KEY ("res","bucket","service","token")
);

-- Backfill from the price rows a database already holds, medians included (one pass, at upgrade only).
INSERT INTO "stats_service" ("res", "bucket", "service", "token", "deals", "volume", "median", "median_deals")
SELECT res, bucket, service, token, max(total), sum(price * deals), min(price) FILTER (WHERE cum * 2 >= total), max(total)
FROM (
  SELECT res, bucket, service, token, price, deals,
    sum(deals) OVER (PARTITION BY res, bucket, service, token ORDER BY price) AS cum,
    sum(deals) OVER (PARTITION BY res, bucket, service, token) AS total
  FROM "stats_price"
) x
GROUP BY res, bucket, service, token;

-- Prices are kept per minute only: a coarser interval's median is computed from its minutes of
-- one service (a range of the new key) by the first read after the interval closed, and stored
-- above. The ingest statement then writes one price row per minute instead of one per level.
DELETE FROM "stats_price" WHERE "res" <> 60;
ALTER TABLE "stats_price" DROP CONSTRAINT "stats_price_pkey";
ALTER TABLE "stats_price" ADD CONSTRAINT "stats_price_pkey" PRIMARY KEY ("res", "service", "token", "bucket", "price");
