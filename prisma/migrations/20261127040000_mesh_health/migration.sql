-- Mesh health per observer, topic and interval (minutes and hours), written by the observer
-- once an interval ends and pruned by age. Topic "*" is the whole node.
CREATE TABLE "mesh_health" (
    "res" INTEGER NOT NULL,
    "bucket" BIGINT NOT NULL,
    "topic" TEXT NOT NULL,
    "observer" TEXT NOT NULL,
    "seconds" INTEGER NOT NULL,
    "messages" INTEGER NOT NULL,
    "received" INTEGER,
    "duplicates" INTEGER,
    "invalid" INTEGER,
    "latency_p50" DOUBLE PRECISION,
    "latency_p90" DOUBLE PRECISION,
    "latency_p99" DOUBLE PRECISION,
    "latency_samples" INTEGER NOT NULL,
    "mesh_peers" INTEGER,
    "topic_peers" INTEGER,
    "grafts" INTEGER,
    "prunes" INTEGER,
    "score_min" DOUBLE PRECISION,
    "score_median" DOUBLE PRECISION,
    "connections" INTEGER,
    "rate_limited_peers" INTEGER,
    "drops" JSONB,

    CONSTRAINT "mesh_health_pkey" PRIMARY KEY ("res","bucket","topic","observer")
);
