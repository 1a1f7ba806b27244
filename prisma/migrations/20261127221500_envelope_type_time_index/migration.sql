-- A type's envelopes in a time window are read through (msg_type, epoch, seq, timestamp), and
-- the collusion windows through (msg_type, seq, epoch): nothing reads (msg_type, timestamp) any
-- more. Dropping it keeps the number of indexes every insert maintains where it was before the
-- replay order index (timestamp, id) was added.

-- DropIndex
DROP INDEX "envelope_msg_type_timestamp_idx";
