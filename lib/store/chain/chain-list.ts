/**
 * Batches and challenges as pages for the lists (GET /api/batches, /api/challenges, /batches):
 * filtered, sorted and keyset-paged on a unique key, so following `next` neither repeats nor
 * skips a row while the indexer keeps adding batches. The indexer's own reads (chain.ts
 * listBatches / listChallenges) stay unpaged: it needs every row.
 */

import type { Queryable } from '../engine/db';
import type { BatchRow, BatchStatus, ChallengeRow } from './chain';

type Row = Record<string, unknown>;
const u8 = (v: unknown) =>
  v instanceof Uint8Array ? new Uint8Array(v.buffer, v.byteOffset, v.byteLength) : new Uint8Array(0);
const big = (v: unknown) => BigInt(String(v));

export type BatchSort = 'epoch' | 'slot';

export interface BatchPageFilter {
  agent?: Uint8Array;
  epoch?: bigint;
  status?: BatchStatus;
  /** Newest first by epoch (key epoch, agent) or by submission slot (key slot, agent, epoch). */
  sort: BatchSort;
  limit: number;
  /** The last row of the previous page (its slot is only read for sort=slot). */
  cursor?: { slot: bigint; agent: Uint8Array; epoch: bigint };
}

export async function listBatchesPage(q: Queryable, f: BatchPageFilter): Promise<{ rows: BatchRow[]; more: boolean }> {
  const where: string[] = [];
  const args: unknown[] = [];
  const arg = (v: unknown) => {
    args.push(v);
    return `$${args.length}`;
  };
  if (f.agent) where.push(`agent_id = ${arg(f.agent)}`);
  if (f.epoch !== undefined) where.push(`epoch = ${arg(f.epoch.toString())}::int8`);
  if (f.status) where.push(`status = ${arg(f.status)}::"BatchStatus"`);
  const c = f.cursor;
  // (agent, epoch) is the primary key, so each order below is total.
  if (c && f.sort === 'epoch') where.push(`(epoch, agent_id) < (${arg(c.epoch.toString())}::int8, ${arg(c.agent)})`);
  if (c && f.sort === 'slot')
    where.push(
      `(slot, agent_id, epoch) < (${arg(c.slot.toString())}::int8, ${arg(c.agent)}, ${arg(c.epoch.toString())}::int8)`,
    );
  // Qualified: a bare `epoch` or `slot` in ORDER BY would name the ::text output columns and sort
  // as text (220 before 76), out of step with the numeric cursor comparison.
  const order =
    f.sort === 'epoch'
      ? 'batch.epoch DESC, batch.agent_id DESC'
      : 'batch.slot DESC, batch.agent_id DESC, batch.epoch DESC';
  const r = await q.query<Row>(
    `SELECT agent_id, epoch::text AS epoch, batch_hash, root, slot::text AS slot, signature, status::text AS status,
      log_root, data, updated_at
    FROM batch ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ${arg(f.limit + 1)}`,
    args,
  );
  return {
    more: r.length > f.limit,
    rows: r.slice(0, f.limit).map((x) => ({
      agentId: u8(x.agent_id),
      epoch: big(x.epoch),
      batchHash: u8(x.batch_hash),
      root: u8(x.root),
      slot: big(x.slot),
      signature: (x.signature as string | null) ?? null,
      status: x.status as BatchStatus,
      logRoot: x.log_root ? u8(x.log_root) : null,
      data: x.data ?? undefined,
      updatedAt: x.updated_at as Date,
    })),
  };
}

export type ChallengeSort = 'opened_slot' | 'epoch';

export interface ChallengePageFilter {
  agent?: Uint8Array;
  epoch?: bigint;
  status?: string;
  /** Key (opened_slot, address) or (epoch, address); address is the primary key. */
  sort: ChallengeSort;
  order: 'asc' | 'desc';
  limit: number;
  /** The sort key and address of the last row of the previous page. */
  cursor?: { key: bigint; address: string };
}

export async function listChallengesPage(
  q: Queryable,
  f: ChallengePageFilter,
): Promise<{ rows: ChallengeRow[]; more: boolean }> {
  const where: string[] = [];
  const args: unknown[] = [];
  const arg = (v: unknown) => {
    args.push(v);
    return `$${args.length}`;
  };
  // Qualified for the same reason as in listBatchesPage: the output column `epoch` is text.
  const col = f.sort === 'epoch' ? 'challenge.epoch' : 'challenge.opened_slot';
  const dir = f.order === 'desc' ? 'DESC' : 'ASC';
  if (f.agent) where.push(`agent_id = ${arg(f.agent)}`);
  if (f.epoch !== undefined) where.push(`epoch = ${arg(f.epoch.toString())}::int8`);
  if (f.status) where.push(`status = ${arg(f.status)}`);
  // COLLATE "C" here and in ORDER BY: the address tie-break in byte order, the same in PGlite and
  // any Postgres locale, so the cursor comparison and the page order agree.
  if (f.cursor)
    where.push(
      `(${col}, challenge.address COLLATE "C") ${f.order === 'desc' ? '<' : '>'} (` +
        `${arg(f.cursor.key.toString())}::int8, ${arg(f.cursor.address)} COLLATE "C")`,
    );
  const r = await q.query<Row>(
    `SELECT address, agent_id, epoch::text AS epoch, challenger, status, slot::text AS slot, opened_slot::text AS
      opened, data, updated_at
    FROM challenge ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${col} ${dir}, challenge.address
      COLLATE "C" ${dir} LIMIT ${arg(f.limit + 1)}`,
    args,
  );
  const page = r.slice(0, f.limit);
  const t = page.length
    ? await q.query<Row>(
        `SELECT challenge, status, slot::text AS slot, signature FROM challenge_transition WHERE ` +
          `challenge = ANY($1::text[]) ORDER BY challenge_transition.slot, challenge_transition.id`,
        [page.map((x) => x.address)],
      )
    : [];
  return {
    more: r.length > f.limit,
    rows: page.map((x) => ({
      address: x.address as string,
      agentId: u8(x.agent_id),
      epoch: big(x.epoch),
      challenger: u8(x.challenger),
      status: x.status as string,
      slot: big(x.slot),
      openedSlot: big(x.opened),
      data: x.data ?? null,
      updatedAt: x.updated_at as Date,
      transitions: t
        .filter((y) => y.challenge === x.address)
        .map((y) => ({ status: y.status as string, slot: big(y.slot), signature: y.signature as string })),
    })),
  };
}
