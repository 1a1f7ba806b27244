/**
 * Haggle events (programs/README.md "Haggle (decisions)") as the store's negotiation transitions:
 * one {@link HaggleEventInput} per event, with the columns of its negotiation the event sets.
 * Every value comes from the event itself (escrow after the round, totals at settlement), so
 * applying an event twice gives the same row; lib/store/chain/haggle.ts keeps each transition once.
 */
import type { PublicKey } from '../chain';
import type { ProgramEvent } from '../chain/events';
import { HAGGLE_REFUND_REASONS, HAGGLE_STATUS_NAMES } from '../chain/haggle';
import type { HaggleEventInput } from '../store/chain';
import { toJson } from './json';

/** A 16-byte big-endian two's complement integer (NEGR / reveal_reservation price). */
export function int128FromBytes(b: Uint8Array): bigint {
  if (b.length !== 16) throw new RangeError('int128 must be 16 bytes');
  let v = 0n;
  for (const x of b) v = (v << 8n) | BigInt(x);
  return b[0] & 0x80 ? v - (1n << 128n) : v;
}

const statusName = (s: number) => HAGGLE_STATUS_NAMES[s] ?? String(s);

/** The store input for one haggle event of a transaction, or null for anything else. */
export function haggleEventInput(
  ev: ProgramEvent,
  tx: { signature: string; slot: number; blockTime: Date | null },
  index: number,
): HaggleEventInput | null {
  if (ev.program !== 'haggle' || ev.event.name === 'HaggleInitialized') return null;
  const d = ev.event.data as unknown as Record<string, unknown> & {
    negotiation: PublicKey;
    conversationId: Uint8Array;
  };
  const base = {
    signature: tx.signature,
    index,
    slot: BigInt(tx.slot),
    at: tx.blockTime,
    negotiation: d.negotiation.toBase58(),
    conversationId: new Uint8Array(d.conversationId),
    data: toJson(d),
    side: null,
    round: null,
    amount: null,
    decay: null,
    escrow: null,
  };
  const e = ev.event;
  switch (e.name) {
    case 'NegotiationCreated': {
      const c = e.data;
      return {
        ...base,
        kind: 'created',
        status: 'created',
        amount: c.deposit,
        escrow: c.deposit,
        created: {
          buyer: c.buyer.toBase58(),
          seller: c.seller.toBase58(),
          deposit: c.deposit,
          deadline: c.deadline,
          responseWindow: c.responseWindow,
          decayBps: c.decayBps,
          minOfferBps: c.minOfferBps,
          protocolFeeBps: c.protocolFeeBps,
          maxRounds: c.maxRounds,
          zopaDetection: c.zopaDetection !== 0,
        },
      };
    }
    case 'NegotiationJoined':
      return { ...base, kind: 'joined', status: null, side: 2, set: { joined: true } };
    case 'OfferSubmitted': {
      const o = e.data;
      // Escrow only shrinks by decay until settlement, so the store sets decayed = deposit − escrow;
      // settlement and refunds then carry the program's own total.
      return {
        ...base,
        kind: 'offer',
        status: statusName(o.status),
        side: o.side,
        round: o.round,
        amount: o.amount,
        decay: o.decay,
        escrow: o.escrow,
        set: { currentOffer: o.amount, lastOfferBy: o.side, rounds: o.round, escrow: o.escrow },
      };
    }
    case 'ReservationCommitted':
      return { ...base, kind: 'committed', status: null, side: e.data.side };
    case 'ReservationRevealed': {
      const r = e.data;
      const price = int128FromBytes(r.price);
      return {
        ...base,
        kind: 'revealed',
        status: null,
        side: r.side,
        set: {
          ...(r.side === 1 ? { buyerReservation: price } : { sellerReservation: price }),
          ...(r.bothRevealed ? { zopa: r.zopa !== 0 } : {}),
        },
      };
    }
    case 'OfferAccepted':
      return {
        ...base,
        kind: 'accepted',
        status: 'accepted',
        side: e.data.side,
        round: e.data.round,
        amount: e.data.amount,
      };
    case 'NegotiationSettled': {
      const s = e.data;
      return {
        ...base,
        kind: 'settled',
        status: 'settled',
        amount: s.amount,
        escrow: 0n,
        set: {
          amount: s.amount,
          fee: s.fee,
          toSeller: s.toSeller,
          refund: s.refund,
          decayed: s.decayed,
          escrow: 0n,
          closed: true,
        },
      };
    }
    case 'NegotiationRefunded': {
      const r = e.data;
      return {
        ...base,
        kind: 'refunded',
        status: statusName(r.status),
        side: r.side || null,
        amount: r.refund,
        escrow: 0n,
        set: {
          refund: r.refund,
          decayed: r.decayed,
          escrow: 0n,
          reason: HAGGLE_REFUND_REASONS[r.reason] ?? String(r.reason),
          closed: true,
        },
      };
    }
    default:
      return null;
  }
}
