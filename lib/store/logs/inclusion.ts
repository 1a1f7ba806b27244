/**
 * Which uploaded epoch logs hold an envelope (docs/protocol.md §5), for the inclusion proofs the
 * browser verifier checks. The lookup is limited to the agents whose log can hold the envelope
 * (sender, recipient, a FEEDBACK's target), so it runs on the (agent_id, epoch, position) key
 * rather than scanning every log.
 */
import type { Queryable } from '../engine/db';

export interface EpochLogHit {
  agent: Uint8Array;
  epoch: bigint;
  position: number;
  /** The indexer's status of that epoch's batch, null when none was indexed. */
  batchStatus: string | null;
}

const u8 = (v: unknown) =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);

/** Every (agent, epoch) log among `agents` whose uploaded log has `envelopeId`, newest epoch first. */
export async function epochLogsWith(
  q: Queryable,
  envelopeId: Uint8Array,
  agents: readonly Uint8Array[],
): Promise<EpochLogHit[]> {
  if (!(envelopeId instanceof Uint8Array) || envelopeId.length !== 32)
    throw new TypeError('envelopeId must be 32 bytes');
  if (agents.length === 0) return [];
  const rows = await q.query<Record<string, unknown>>(
    `SELECT l.agent_id, l.epoch::text AS epoch, l.position, b.status::text AS status
    FROM epoch_log_entry l LEFT JOIN batch b ON b.agent_id = l.agent_id AND b.epoch = l.epoch
    WHERE l.agent_id = ANY($1::bytea[]) AND l.envelope_id = $2 ORDER BY l.epoch DESC, l.agent_id`,
    [agents.map((a) => new Uint8Array(a)), envelopeId],
  );
  return rows.map((r) => ({
    agent: u8(r.agent_id),
    epoch: BigInt(String(r.epoch)),
    position: Number(r.position),
    batchStatus: (r.status as string | null) ?? null,
  }));
}
