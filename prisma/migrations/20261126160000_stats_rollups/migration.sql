-- The economy over time (lib/store/stats.ts): rollups the ingest statement and the chain indexer
-- keep in step with the rows they insert, so a chart reads a few hundred rows, never `envelope`.
-- (No semicolons in these comments: the pg driver adapter splits migration scripts at each one.)
-- Every table holds four resolutions, `res` seconds (60, 900, 3600, 86400), and `bucket` is the
-- unix second its interval starts at: floor(timestamp / res) * res of the envelope timestamp,
-- and of the block time (else the time written) for chain events.

-- Counters per interval. Envelope counts by msg_type, active_agents = distinct senders (kept by
-- stats_active below), expired = Haggle negotiations refunded as expired, batch verdicts when the
-- observatory reached them, challenges by their on-chain events.
CREATE TABLE "stats_bucket" (
    "res" INTEGER NOT NULL,
    "bucket" BIGINT NOT NULL,
    "envelopes" BIGINT NOT NULL DEFAULT 0,
    "active_agents" BIGINT NOT NULL DEFAULT 0,
    "opened" BIGINT NOT NULL DEFAULT 0,
    "agreed" BIGINT NOT NULL DEFAULT 0,
    "rejected" BIGINT NOT NULL DEFAULT 0,
    "expired" BIGINT NOT NULL DEFAULT 0,
    "disputes" BIGINT NOT NULL DEFAULT 0,
    "batches_submitted" BIGINT NOT NULL DEFAULT 0,
    "batches_verified" BIGINT NOT NULL DEFAULT 0,
    "batches_mismatched" BIGINT NOT NULL DEFAULT 0,
    "challenges_opened" BIGINT NOT NULL DEFAULT 0,
    "challenges_resolved" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "stats_bucket_pkey" PRIMARY KEY ("res","bucket")
);

-- Which agents sent in an interval: an insert that adds a row is a newly active agent there.
CREATE TABLE "stats_active" (
    "res" INTEGER NOT NULL,
    "bucket" BIGINT NOT NULL,
    "agent" BYTEA NOT NULL,

    CONSTRAINT "stats_active_pkey" PRIMARY KEY ("res","bucket","agent")
);

-- Agreed prices (the NEG1 bid_value of each ACCEPT) per interval, service and token, with how
-- many deals agreed at each price: the exact median and volume of an interval come from these.
CREATE TABLE "stats_price" (
    "res" INTEGER NOT NULL,
    "bucket" BIGINT NOT NULL,
    "service" BYTEA NOT NULL,
    "token" BYTEA NOT NULL,
    "price" DECIMAL(40,0) NOT NULL,
    "deals" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "stats_price_pkey" PRIMARY KEY ("res","bucket","service","token","price")
);

-- Backfill from what a database already holds (one scan, at upgrade only). Prices need the NEG1
-- payload decoded, which SQL cannot do: deals agreed before this migration have no price rows.
INSERT INTO "stats_active" ("res", "bucket", "agent")
SELECT DISTINCT r.res, (e.timestamp / (r.res * 1000000::bigint)) * r.res, e.sender
FROM "envelope" e CROSS JOIN (VALUES (60), (900), (3600), (86400)) AS r(res);

INSERT INTO "stats_bucket" ("res", "bucket", "envelopes", "opened", "agreed", "rejected", "disputes")
SELECT r.res, (e.timestamp / (r.res * 1000000::bigint)) * r.res, count(*),
  count(*) FILTER (WHERE e.msg_type = 3), count(*) FILTER (WHERE e.msg_type = 5),
  count(*) FILTER (WHERE e.msg_type = 6), count(*) FILTER (WHERE e.msg_type = 12)
FROM "envelope" e CROSS JOIN (VALUES (60), (900), (3600), (86400)) AS r(res)
GROUP BY 1, 2;

UPDATE "stats_bucket" b SET "active_agents" = a.n
FROM (SELECT "res", "bucket", count(*) AS n FROM "stats_active" GROUP BY 1, 2) a
WHERE a.res = b.res AND a.bucket = b.bucket;

INSERT INTO "stats_bucket" AS b ("res", "bucket", "expired", "batches_submitted", "challenges_opened", "challenges_resolved")
SELECT r.res, (floor(extract(epoch FROM COALESCE(c.block_time, now())))::bigint / r.res) * r.res,
  count(*) FILTER (WHERE c.name = 'NegotiationRefunded' AND c.data->>'status' = '6'),
  count(*) FILTER (WHERE c.name = 'BatchSubmitted'),
  count(*) FILTER (WHERE c.name = 'ChallengeSubmitted'),
  count(*) FILTER (WHERE c.name = 'ChallengeResolved')
FROM "chain_event" c CROSS JOIN (VALUES (60), (900), (3600), (86400)) AS r(res)
WHERE c.name IN ('NegotiationRefunded', 'BatchSubmitted', 'ChallengeSubmitted', 'ChallengeResolved')
GROUP BY 1, 2
ON CONFLICT ("res", "bucket") DO UPDATE SET "expired" = b.expired + excluded.expired,
  "batches_submitted" = b.batches_submitted + excluded.batches_submitted,
  "challenges_opened" = b.challenges_opened + excluded.challenges_opened,
  "challenges_resolved" = b.challenges_resolved + excluded.challenges_resolved;

INSERT INTO "stats_bucket" AS b ("res", "bucket", "batches_verified", "batches_mismatched")
SELECT r.res, (floor(extract(epoch FROM x.updated_at))::bigint / r.res) * r.res,
  count(*) FILTER (WHERE x.status = 'verified'), count(*) FILTER (WHERE x.status = 'mismatch')
FROM "batch" x CROSS JOIN (VALUES (60), (900), (3600), (86400)) AS r(res)
WHERE x.status <> 'unverified'
GROUP BY 1, 2
ON CONFLICT ("res", "bucket") DO UPDATE SET "batches_verified" = b.batches_verified + excluded.batches_verified,
  "batches_mismatched" = b.batches_mismatched + excluded.batches_mismatched;
