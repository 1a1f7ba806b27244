-- All-time deals and volume per service and token, as rows of resolution 0 (bucket 0), added to
-- by the ingest statement with the other levels. The "all" range ranks the services from these
-- few rows instead of grouping every daily row of every service (tens of thousands after
-- months), then reads the shown services' days in one scan of the window's key range.
INSERT INTO "stats_service" ("res", "bucket", "service", "token", "deals", "volume")
SELECT 0, 0, "service", "token", sum("deals"), sum("volume") FROM "stats_service" WHERE "res" = 86400 GROUP BY "service", "token";


-- One service's days are one range of this index: what the "all" range reads of its top
-- services. Partial, so ingest adds an entry only when a service's day begins (updates of an
-- existing day change no indexed column).
CREATE INDEX "stats_service_day_idx" ON "stats_service"("service", "token", "bucket") WHERE "res" = 86400;
