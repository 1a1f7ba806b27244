/**
 * Batches as agents uploaded them with their epoch log (lib/observer/log-upload.ts, the optional
 * fourth item): the canonical CBOR a challenger's evidence must carry. Uploads are not trusted:
 * several may exist per (agent, epoch), keyed by their batch hash, and only the one whose hash
 * equals the batch_hash the chain recorded (table `batch`, written by the indexer) is ever read,
 * so a forged upload is never served. Uploads of one (agent, epoch) are capped.
 */
import type { Queryable } from '../engine/db';

/** Uploads kept per (agent, epoch): an honest agent sends one; the cap bounds junk. */
export const MAX_BATCH_UPLOADS = 8;

const u8 = (v: unknown) => (v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : null);

function check(agent: Uint8Array, epoch: bigint, hash?: Uint8Array): void {
  if (!(agent instanceof Uint8Array) || agent.length !== 32) throw new TypeError('agent must be 32 bytes');
  if (typeof epoch !== 'bigint' || epoch < 0n || epoch >= 1n << 63n)
    throw new RangeError('epoch must be a bigint in 0..2^63-1');
  if (hash !== undefined && (!(hash instanceof Uint8Array) || hash.length !== 32))
    throw new TypeError('hash must be 32 bytes');
}

/** Stores one uploaded batch; 'full' (nothing written) past {@link MAX_BATCH_UPLOADS} for the pair. */
export async function saveBatchUpload(
  q: Queryable,
  agent: Uint8Array,
  epoch: bigint,
  hash: Uint8Array,
  cbor: Uint8Array,
): Promise<'saved' | 'unchanged' | 'full'> {
  check(agent, epoch, hash);
  if (!(cbor instanceof Uint8Array) || cbor.length === 0) throw new TypeError('cbor must be non-empty bytes');
  const rows = await q.query<Record<string, unknown>>(
    `WITH n AS (SELECT count(*) AS c FROM batch_upload WHERE agent_id = $1 AND epoch = $2::int8)
    INSERT INTO batch_upload (agent_id, epoch, batch_hash, cbor) SELECT $1, $2::int8, $3, $4 FROM n WHERE n.c < $5
    ON CONFLICT (agent_id, epoch, batch_hash) DO NOTHING RETURNING 1 AS ok`,
    [agent, epoch.toString(), hash, cbor, MAX_BATCH_UPLOADS],
  );
  if (rows.length > 0) return 'saved';
  const had = await q.query(`SELECT 1 FROM batch_upload WHERE agent_id = $1 AND epoch = $2::int8 AND batch_hash = $3`, [
    agent,
    epoch.toString(),
    hash,
  ]);
  return had.length > 0 ? 'unchanged' : 'full';
}

/** The uploaded batch CBOR whose hash is the on-chain batch_hash of (agent, epoch), or null. */
export async function onChainBatchUpload(q: Queryable, agent: Uint8Array, epoch: bigint): Promise<Uint8Array | null> {
  check(agent, epoch);
  const rows = await q.query<Record<string, unknown>>(
    `SELECT u.cbor FROM batch_upload u
    JOIN batch b ON b.agent_id = u.agent_id AND b.epoch = u.epoch AND b.batch_hash = u.batch_hash
    WHERE u.agent_id = $1 AND u.epoch = $2::int8`,
    [agent, epoch.toString()],
  );
  return rows.length ? u8(rows[0].cbor) : null;
}
