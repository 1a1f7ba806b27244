-- A type's newest envelopes in a time window, one epoch at a time (lib/store/queries.ts recentEnvelopes):
-- within one epoch this index is in seq order, so each epoch's page is the first rows of one index
-- range, and with the timestamp in it the window is checked without reading the table. Without
-- it the newest-first scan of (msg_type, seq) or (seq, epoch) walks every envelope of the
-- partition that is newer than the window before reaching it (up to a week of them).

-- CreateIndex
CREATE INDEX "envelope_msg_type_epoch_seq_timestamp_idx" ON "envelope"("msg_type", "epoch", "seq", "timestamp");
