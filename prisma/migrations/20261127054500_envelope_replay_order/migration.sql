-- Replay order (lib/store/replay.ts): a window's envelopes by (timestamp, id), read one keyset
-- page at a time. Each partition's index gives its rows of the window in that order and the
-- planner merges the partitions, so a page reads about its own rows, not the window's.
-- The id breaks ties on the timestamp, which makes the order total and the cursor exact.

-- CreateIndex
CREATE INDEX "envelope_timestamp_id_idx" ON "envelope"("timestamp", "id");
