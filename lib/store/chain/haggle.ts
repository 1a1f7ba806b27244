/**
 * On-chain negotiations of the Haggle program (programs/README.md "Haggle (decisions)") and
 * their transitions: the chain indexer hands every decoded haggle event over as one
 * {@link HaggleEventInput} (lib/indexer/haggle.ts maps events to it), and the conversation page
 * reads a conversation's negotiations with {@link onChainNegotiations}. Idempotent: a transition
 * is stored once by (signature, index) and only a newly stored one changes its negotiation.
 */
import type { Queryable } from '../engine/db';

export type HaggleKind =
  | 'created'
  | 'joined'
  | 'offer'
  | 'committed'
  | 'revealed'
  | 'accepted'
  | 'settled'
  | 'refunded';

/** The negotiation columns one event sets; absent = unchanged. */
export interface HaggleColumns {
  joined?: boolean;
  currentOffer?: bigint;
  lastOfferBy?: number;
  rounds?: number;
  escrow?: bigint;
  decayed?: bigint;
  buyerReservation?: bigint;
  sellerReservation?: bigint;
  zopa?: boolean;
  amount?: bigint;
  fee?: bigint;
  toSeller?: bigint;
  refund?: bigint;
  reason?: string;
  /** Terminal: the account closed (settled, rejected, expired, refunded). */
  closed?: boolean;
}

/** The parameters NegotiationCreated carries. */
export interface HaggleCreated {
  buyer: string;
  seller: string;
  deposit: bigint;
  deadline: bigint;
  responseWindow: number;
  decayBps: number;
  minOfferBps: number;
  protocolFeeBps: number;
  maxRounds: number;
  zopaDetection: boolean;
}

/** One haggle event as the indexer stores it. */
export interface HaggleEventInput {
  signature: string;
  index: number;
  slot: bigint;
  at: Date | null;
  /** The Negotiation PDA, base58. */
  negotiation: string;
  conversationId: Uint8Array;
  kind: HaggleKind;
  side: number | null;
  round: number | null;
  amount: bigint | null;
  decay: bigint | null;
  escrow: bigint | null;
  /** Status after the event (created, proposed, countered, settled, rejected, expired). */
  status: string | null;
  /** The event's fields as JSON (lib/indexer toJson). */
  data: unknown;
  created?: HaggleCreated;
  set?: HaggleColumns;
}

type Row = Record<string, unknown>;
const big = (v: bigint | null | undefined) => (v === null || v === undefined ? null : v.toString());
const bigOrNull = (v: unknown) => (v === null || v === undefined ? null : BigInt(String(v)));

async function insertCreated(q: Queryable, e: HaggleEventInput, c: HaggleCreated): Promise<void> {
  await q.query(
    `INSERT INTO haggle_negotiation (id, address, conversation_id, buyer, seller, deposit, escrow, decayed, status,
      deadline,
      response_window, decay_bps, min_offer_bps, protocol_fee_bps, max_rounds, zopa_detection, created_slot, slot,
        created_at, updated_at)
    VALUES ($1, $2, $3, $4, $5, $6::numeric, $6::numeric, 0, 'created', $7::int8, $8, $9, $10, $11, $12, $13, $14::int8,
      $14::int8, $15, now())
    ON CONFLICT (id) DO NOTHING`,
    [
      e.signature,
      e.negotiation,
      e.conversationId,
      c.buyer,
      c.seller,
      c.deposit.toString(),
      c.deadline.toString(),
      c.responseWindow,
      c.decayBps,
      c.minOfferBps,
      c.protocolFeeBps,
      c.maxRounds,
      c.zopaDetection,
      e.slot.toString(),
      e.at?.toISOString() ?? null,
    ],
  );
}

/**
 * Applies haggle events in chain order. Events of an address belong to its latest negotiation
 * created at or before their slot (addresses are reused only after a close). Returns how many
 * transitions were new; events of a negotiation the store never saw created are skipped.
 */
export async function applyHaggleEvents(q: Queryable, events: readonly HaggleEventInput[]): Promise<number> {
  let fresh = 0;
  for (const e of events) {
    if (e.kind === 'created') {
      if (!e.created) throw new TypeError('a created haggle event needs `created`');
      await insertCreated(q, e, e.created);
    }
    const [n] = await q.query<Row>(
      `SELECT id FROM haggle_negotiation WHERE address = $1 AND created_slot <= ` +
        `$2::int8 ORDER BY created_slot DESC, created_at DESC NULLS LAST LIMIT 1`,
      [e.negotiation, e.slot.toString()],
    );
    if (!n) continue;
    const id = e.kind === 'created' ? e.signature : String(n.id);
    const ins = await q.query(
      `INSERT INTO haggle_transition (negotiation_id, signature, index, slot, kind, side, round, amount, decay, escrow,
        status, data, at)
      VALUES ($1, $2, $3, $4::int8, $5, $6, $7, $8::numeric, $9::numeric, $10::numeric, $11, $12::jsonb, $13)
      ON CONFLICT (signature, index) DO NOTHING RETURNING 1`,
      [
        id,
        e.signature,
        e.index,
        e.slot.toString(),
        e.kind,
        e.side,
        e.round,
        big(e.amount),
        big(e.decay),
        big(e.escrow),
        e.status,
        JSON.stringify(e.data ?? null),
        e.at?.toISOString() ?? null,
      ],
    );
    if (ins.length === 0) continue;
    fresh++;
    const s = e.set ?? {};
    await q.query(
      `UPDATE haggle_negotiation SET
        status = COALESCE($2, status), joined = joined OR COALESCE($3, false), current_offer = COALESCE($4::numeric,
          current_offer),
        last_offer_by = COALESCE($5, last_offer_by), rounds = COALESCE($6, rounds), escrow = COALESCE($7::numeric,
          escrow),
        decayed = COALESCE($8::numeric, deposit - $7::numeric, decayed), buyer_reservation = COALESCE($9::numeric,
          buyer_reservation),
        seller_reservation = COALESCE($10::numeric, seller_reservation), zopa = COALESCE($11, zopa), amount =
          COALESCE($12::numeric, amount),
        fee = COALESCE($13::numeric, fee), to_seller = COALESCE($14::numeric, to_seller), refund =
          COALESCE($15::numeric, refund),
        reason = COALESCE($16, reason), closed_at = CASE WHEN $17 THEN COALESCE($18::timestamptz, now()) ELSE closed_at
          END,
        slot = GREATEST(slot, $19::int8), updated_at = now()
      WHERE id = $1`,
      [
        id,
        e.kind === 'created' ? null : e.status,
        s.joined ?? null,
        big(s.currentOffer),
        s.lastOfferBy ?? null,
        s.rounds ?? null,
        big(s.escrow),
        big(s.decayed),
        big(s.buyerReservation),
        big(s.sellerReservation),
        s.zopa ?? null,
        big(s.amount),
        big(s.fee),
        big(s.toSeller),
        big(s.refund),
        s.reason ?? null,
        s.closed ?? false,
        e.at?.toISOString() ?? null,
        e.slot.toString(),
      ],
    );
  }
  return fresh;
}

/** One stored transition. */
export interface HaggleTransitionRow {
  signature: string;
  index: number;
  slot: bigint;
  kind: HaggleKind;
  side: number | null;
  round: number | null;
  amount: bigint | null;
  decay: bigint | null;
  escrow: bigint | null;
  status: string | null;
  at: Date | null;
}

/** One stored negotiation with its transitions in chain order. */
export interface HaggleNegotiationRow extends HaggleCreated {
  id: string;
  address: string;
  conversationId: Uint8Array;
  escrow: bigint;
  decayed: bigint;
  currentOffer: bigint | null;
  lastOfferBy: number | null;
  rounds: number;
  joined: boolean;
  status: string;
  reason: string | null;
  buyerReservation: bigint | null;
  sellerReservation: bigint | null;
  zopa: boolean | null;
  amount: bigint | null;
  fee: bigint | null;
  toSeller: bigint | null;
  refund: bigint | null;
  createdSlot: bigint;
  slot: bigint;
  createdAt: Date | null;
  closedAt: Date | null;
  transitions: HaggleTransitionRow[];
}

const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));

/** The negotiations of one 0x01 conversation, oldest first, each with its transitions. */
export async function onChainNegotiations(q: Queryable, conversationId: Uint8Array): Promise<HaggleNegotiationRow[]> {
  if (!(conversationId instanceof Uint8Array) || conversationId.length !== 16)
    throw new TypeError('conversationId must be 16 bytes');
  return selectNegotiations(q, 'WHERE n.conversation_id = $1 ORDER BY n.created_slot, n.id', [conversationId]);
}

/**
 * The negotiations of many conversations at once (the negotiations dataset asks once per page
 * of conversations, not once per conversation), ordered by conversation, then oldest first,
 * each with its transitions.
 */
export async function onChainNegotiationsOf(
  q: Queryable,
  conversationIds: readonly Uint8Array[],
): Promise<HaggleNegotiationRow[]> {
  if (conversationIds.some((c) => !(c instanceof Uint8Array) || c.length !== 16))
    throw new TypeError('conversationIds must be 16 bytes each');
  if (conversationIds.length === 0) return [];
  // Hex text: PGlite and node-postgres both pass a text[] parameter the same way.
  const ids = conversationIds.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength).toString('hex'));
  return selectNegotiations(
    q,
    `WHERE n.conversation_id IN (SELECT decode(x, 'hex') FROM unnest($1::text[]) AS x)
    ORDER BY n.conversation_id, n.created_slot, n.id`,
    [ids],
  );
}

/** The latest negotiations (newest first), optionally in one status, each with its transitions. */
export async function recentOnChainNegotiations(
  q: Queryable,
  p: { status?: string; limit?: number } = {},
): Promise<HaggleNegotiationRow[]> {
  const limit = p.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new RangeError('limit must be an integer in 1..500');
  return p.status === undefined
    ? selectNegotiations(q, 'ORDER BY n.created_slot DESC, n.id LIMIT $1', [limit])
    : selectNegotiations(q, 'WHERE n.status = $1 ORDER BY n.created_slot DESC, n.id LIMIT $2', [p.status, limit]);
}

/**
 * `tail` filters and orders by table columns through the alias `n`: the select list turns the
 * numeric columns into text under their own names, and an unqualified ORDER BY would sort those
 * texts ("10" before "9").
 */
async function selectNegotiations(q: Queryable, tail: string, args: unknown[]): Promise<HaggleNegotiationRow[]> {
  const rows = await q.query<Row>(
    `SELECT id, address, conversation_id, buyer, seller, deposit::text, escrow::text, decayed::text,
      current_offer::text,
      last_offer_by, rounds, joined, status, reason, deadline::text, response_window, decay_bps, min_offer_bps,
        protocol_fee_bps, max_rounds,
      zopa_detection, buyer_reservation::text, seller_reservation::text, zopa, amount::text, fee::text, to_seller::text,
        refund::text,
      created_slot::text, slot::text, created_at, closed_at
    FROM haggle_negotiation n ${tail}`,
    args,
  );
  if (rows.length === 0) return [];
  const ts = await q.query<Row>(
    `SELECT negotiation_id, signature, index, slot::text, kind, side, round, amount::text, decay::text, escrow::text,
      status, at
    FROM haggle_transition t WHERE t.negotiation_id = ANY($1::text[]) ORDER BY t.slot, t.id`,
    [rows.map((r) => String(r.id))],
  );
  // Grouped once: a dataset page asks for thousands of negotiations at a time.
  const byNegotiation = new Map<string, Row[]>();
  for (const t of ts) {
    const k = String(t.negotiation_id);
    const list = byNegotiation.get(k);
    if (list) list.push(t);
    else byNegotiation.set(k, [t]);
  }
  return rows.map((r) => ({
    id: String(r.id),
    address: String(r.address),
    conversationId: new Uint8Array(r.conversation_id as Uint8Array),
    buyer: String(r.buyer),
    seller: String(r.seller),
    deposit: BigInt(String(r.deposit)),
    escrow: BigInt(String(r.escrow)),
    decayed: BigInt(String(r.decayed)),
    currentOffer: bigOrNull(r.current_offer),
    lastOfferBy: r.last_offer_by === null ? null : Number(r.last_offer_by),
    rounds: Number(r.rounds),
    joined: Boolean(r.joined),
    status: String(r.status),
    reason: r.reason === null ? null : String(r.reason),
    deadline: BigInt(String(r.deadline)),
    responseWindow: Number(r.response_window),
    decayBps: Number(r.decay_bps),
    minOfferBps: Number(r.min_offer_bps),
    protocolFeeBps: Number(r.protocol_fee_bps),
    maxRounds: Number(r.max_rounds),
    zopaDetection: Boolean(r.zopa_detection),
    buyerReservation: bigOrNull(r.buyer_reservation),
    sellerReservation: bigOrNull(r.seller_reservation),
    zopa: r.zopa === null ? null : Boolean(r.zopa),
    amount: bigOrNull(r.amount),
    fee: bigOrNull(r.fee),
    toSeller: bigOrNull(r.to_seller),
    refund: bigOrNull(r.refund),
    createdSlot: BigInt(String(r.created_slot)),
    slot: BigInt(String(r.slot)),
    createdAt: date(r.created_at),
    closedAt: date(r.closed_at),
    transitions: (byNegotiation.get(String(r.id)) ?? []).map((t) => ({
      signature: String(t.signature),
      index: Number(t.index),
      slot: BigInt(String(t.slot)),
      kind: t.kind as HaggleKind,
      side: t.side === null ? null : Number(t.side),
      round: t.round === null ? null : Number(t.round),
      amount: bigOrNull(t.amount),
      decay: bigOrNull(t.decay),
      escrow: bigOrNull(t.escrow),
      status: t.status === null ? null : String(t.status),
      at: date(t.at),
    })),
  }));
}
