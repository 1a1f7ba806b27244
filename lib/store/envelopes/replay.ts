/**
 * Replay reads: the envelopes of a time window in the store's replay order, envelope timestamp
 * then id, one keyset page at a time. The order is total (the id is unique) and the cursor is the
 * last row's (timestamp, id), so pages never skip or repeat a row, ties on the timestamp
 * included, however they fall on a page boundary. The (timestamp, id) index serves each page as
 * one range scan per partition of the window, merged in order; the epoch bounds prune the
 * partitions outside it (the table is partitioned on epoch, not on timestamp).
 */
import { decodeNotarizeBid } from '../../protocol/payloads';
import { MsgType } from '../../protocol/types';
import type { Queryable } from '../engine/db';
import type { EnvelopeSource } from '../types';
import { epochOfFn } from './ingest';
import { payloadOf } from './queries';

/** One page's bound: rows at most; the route keeps its own lower cap. */
export const REPLAY_PAGE_MAX = 1000;

export interface ReplayParams {
  /** Window, envelope timestamp in unix µs, both inclusive. */
  fromUs: bigint;
  toUs: bigint;
  /** Start strictly after this (timestamp, id). */
  after?: { timestampUs: bigint; id: Uint8Array };
  limit: number;
}

/** The header of a stored envelope, what a live `message` event carries. */
export interface ReplayRow {
  id: Uint8Array;
  msgType: number;
  sender: Uint8Array;
  recipient: Uint8Array;
  conversationId: Uint8Array;
  nonce: bigint;
  /** Unix µs, as stored. */
  timestamp: bigint;
  blockRef: bigint;
  payloadLen: number;
  source: EnvelopeSource;
  topic: string | null;
  receivedAt: Date;
  /** NOTARIZE_BID only, as the live event has it. */
  bidType?: number;
}

const u8 = (v: unknown) =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);
const I8_MAX = 9_223_372_036_854_775_807n;

export async function replayEnvelopes(q: Queryable, p: ReplayParams, epochSeconds?: number): Promise<ReplayRow[]> {
  if (!Number.isInteger(p.limit) || p.limit < 1 || p.limit > REPLAY_PAGE_MAX)
    throw new RangeError(`limit must be an integer in 1..${REPLAY_PAGE_MAX}`);
  const fromUs = p.fromUs < 0n ? 0n : p.fromUs;
  const toUs = p.toUs > I8_MAX ? I8_MAX : p.toUs;
  if (toUs < fromUs) return [];
  const args: unknown[] = [String(fromUs), String(toUs)];
  const where = ['timestamp >= $1::int8', 'timestamp <= $2::int8'];
  if (epochSeconds) {
    const epochOf = epochOfFn(epochSeconds);
    args.push(epochOf(fromUs), epochOf(toUs));
    where.push(`epoch >= $${args.length - 1}::int4`, `epoch <= $${args.length}::int4`);
  }
  if (p.after) {
    args.push(String(p.after.timestampUs), p.after.id);
    where.push(`(timestamp, id) > ($${args.length - 1}::int8, $${args.length}::bytea)`);
  }
  args.push(p.limit);
  // The raw bytes only where the live event needs a payload field (a NOTARIZE_BID's bid type).
  const rows = await q.query<Record<string, unknown>>(
    `SELECT id, msg_type, sender, recipient, conversation_id, nonce::text AS nonce, timestamp::text AS ts,
       block_ref::text AS block_ref, payload_len, source::text AS source, topic, received_at,
       CASE WHEN msg_type = ${MsgType.NOTARIZE_BID} THEN raw END AS raw
     FROM envelope WHERE ${where.join(' AND ')}
     ORDER BY timestamp, id LIMIT $${args.length}`,
    args,
  );
  return rows.map((r) => {
    const row: ReplayRow = {
      id: u8(r.id),
      msgType: Number(r.msg_type),
      sender: u8(r.sender),
      recipient: u8(r.recipient),
      conversationId: u8(r.conversation_id),
      nonce: BigInt(String(r.nonce)),
      timestamp: BigInt(String(r.ts)),
      blockRef: BigInt(String(r.block_ref)),
      payloadLen: Number(r.payload_len),
      source: r.source as EnvelopeSource,
      topic: (r.topic as string | null) ?? null,
      receivedAt: new Date(r.received_at as Date),
    };
    if (r.raw) {
      const b = decodeNotarizeBid(payloadOf(u8(r.raw), row.payloadLen));
      if (b.ok) row.bidType = b.value.bidType;
    }
    return row;
  });
}
