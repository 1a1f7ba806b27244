/**
 * Uploaded epoch logs (a batch whose root does not match the agent's uploaded log is flagged):
 * the ordered envelope ids an agent says its epoch batch commits to (docs/protocol.md §5
 * log order), one row per position. The envelopes themselves are ingested like any upload and
 * read back from `envelope` by id.
 *
 * Who may store a log is decided before this (lib/observer/log-upload.ts): the agent's signed
 * upload, or an unsigned one whose root is the on-chain root. Here: re-uploading the same log is a
 * no-op; a different log for the same (agent, epoch) replaces the stored one only when the caller
 * says it may (`replace`: the agent's own signed upload) and only while that epoch's batch is not
 * `verified` (a verified batch keeps the log it was verified against). An unsigned upload never
 * replaces a stored log: the stored one is the agent's own word. Uploads of one (agent, epoch)
 * are serialised with a transaction-scoped advisory lock.
 */
import type { Db, Queryable } from '../engine/db';

/** What {@link saveEpochLog} did. */
export type SaveEpochLogResult = 'saved' | 'unchanged' | 'replaced' | 'conflict' | 'kept';

/** One position of an uploaded log; `raw` is null when the envelope is not stored. */
export interface EpochLogEntryRow {
  position: number;
  id: Uint8Array;
  raw: Uint8Array | null;
}

const I64_MAX = (1n << 63n) - 1n;
const u8 = (v: unknown) =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);

function check(agent: Uint8Array, epoch: bigint): void {
  if (!(agent instanceof Uint8Array) || agent.length !== 32) throw new TypeError('agent must be 32 bytes');
  if (typeof epoch !== 'bigint' || epoch < 0n || epoch > I64_MAX)
    throw new RangeError('epoch must be a bigint in 0..2^63-1');
}

/**
 * Stores the agent's log of `epoch` as the ordered envelope ids `ids` (module comment for the
 * replace rule). When a different log exists nothing is written and the answer is 'kept' without
 * `replace`, 'conflict' when the batch of that epoch is verified.
 */
export async function saveEpochLog(
  db: Pick<Db, 'transaction'>,
  agent: Uint8Array,
  epoch: bigint,
  ids: readonly Uint8Array[],
  opts: { replace: boolean } = { replace: true },
): Promise<SaveEpochLogResult> {
  check(agent, epoch);
  if (!Array.isArray(ids) || ids.length === 0 || ids.some((i) => !(i instanceof Uint8Array) || i.length !== 32)) {
    throw new TypeError('ids must be a non-empty array of 32-byte envelope ids');
  }
  const e = epoch.toString();
  return db.transaction(async (tx) => {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [
      `zx_epoch_log:${Buffer.from(agent).toString('hex')}:${e}`,
    ]);
    const old = await tx.query<Record<string, unknown>>(
      `SELECT envelope_id FROM epoch_log_entry WHERE agent_id = $1 AND epoch = $2::int8 ORDER BY position`,
      [agent, e],
    );
    if (old.length === ids.length && old.every((r, i) => Buffer.from(u8(r.envelope_id)).equals(ids[i])))
      return 'unchanged';
    if (old.length > 0) {
      if (!opts.replace) return 'kept';
      const b = await tx.query<Record<string, unknown>>(
        `SELECT status::text AS status FROM batch WHERE agent_id = $1 AND epoch = $2::int8`,
        [agent, e],
      );
      if (b[0]?.status === 'verified') return 'conflict';
      await tx.query(`DELETE FROM epoch_log_entry WHERE agent_id = $1 AND epoch = $2::int8`, [agent, e]);
    }
    await tx.query(
      `INSERT INTO epoch_log_entry (agent_id, epoch, position, envelope_id)
      SELECT $1, $2::int8, p - 1, id FROM unnest($3::bytea[]) WITH ORDINALITY AS t(id, p)`,
      [agent, e, ids],
    );
    return old.length > 0 ? 'replaced' : 'saved';
  });
}

/** The uploaded log of (agent, epoch) in order, with each envelope's bytes; [] when none was uploaded. */
export async function epochLogEntries(q: Queryable, agent: Uint8Array, epoch: bigint): Promise<EpochLogEntryRow[]> {
  check(agent, epoch);
  const rows = await q.query<Record<string, unknown>>(
    `SELECT l.position, l.envelope_id, e.raw FROM epoch_log_entry l
    LEFT JOIN envelope e ON e.id = l.envelope_id
    WHERE l.agent_id = $1 AND l.epoch = $2::int8 ORDER BY l.position`,
    [agent, epoch.toString()],
  );
  return rows.map((r) => ({
    position: Number(r.position),
    id: u8(r.envelope_id),
    raw: r.raw == null ? null : u8(r.raw),
  }));
}

/**
 * Batches still `unverified` although a log of theirs is stored now (uploaded after the batch was
 * checked, however late): the indexer checks these on every poll, so a batch's status moves when
 * its log arrives rather than only while it is among the newest epochs. At most `limit`, oldest first.
 */
export async function unverifiedBatchesWithLog(
  q: Queryable,
  limit = 200,
): Promise<{ agentId: Uint8Array; epoch: bigint; root: Uint8Array; data: unknown }[]> {
  const rows = await q.query<Record<string, unknown>>(
    `SELECT b.agent_id, b.epoch::text AS epoch, b.root, b.data FROM batch b
    WHERE b.status = 'unverified' AND EXISTS (SELECT 1 FROM epoch_log_entry l WHERE l.agent_id = b.agent_id AND l.epoch
      = b.epoch)
    ORDER BY b.epoch LIMIT $1`,
    [limit],
  );
  return rows.map((r) => ({
    agentId: u8(r.agent_id),
    epoch: BigInt(String(r.epoch)),
    root: u8(r.root),
    data: r.data ?? undefined,
  }));
}
