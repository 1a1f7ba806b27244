-- Indexes that answer the feed's pages from the index alone (lib/store/queries.ts recentEnvelopes):
-- the page's (seq, epoch) keys come from index-only scans, then only the page's rows are read
-- from the table. With (x, seq) alone, a newest-first merge over the partitions reads one table
-- row of every partition it opens, and a time window checks each candidate row in the table.
-- (msg_type, epoch, seq, timestamp): a type's newest page in a time window, one epoch at a
-- time: within one epoch it is in seq order, so each epoch's page is the start of one index
-- range. Without it the newest-first scan walks every envelope of the window's last partition
-- that is newer than the window (up to a week of them).

-- DropIndex
DROP INDEX "envelope_msg_type_seq_idx";

-- DropIndex
DROP INDEX "envelope_recipient_seq_idx";

-- DropIndex
DROP INDEX "envelope_sender_seq_idx";

-- CreateIndex
CREATE INDEX "envelope_msg_type_seq_epoch_idx" ON "envelope"("msg_type", "seq", "epoch");

-- CreateIndex
CREATE INDEX "envelope_msg_type_epoch_seq_timestamp_idx" ON "envelope"("msg_type", "epoch", "seq", "timestamp");

-- CreateIndex
CREATE INDEX "envelope_sender_seq_epoch_timestamp_idx" ON "envelope"("sender", "seq", "epoch", "timestamp");

-- CreateIndex
CREATE INDEX "envelope_recipient_seq_epoch_timestamp_idx" ON "envelope"("recipient", "seq", "epoch", "timestamp");
