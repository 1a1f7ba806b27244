/**
 * Haggle events folded into negotiations in memory, by the rules applyHaggleEvents (haggle.ts)
 * writes them to the store with: a verifier re-reads a negotiation's transactions from the chain
 * and gets the row the indexer would have stored, with no database.
 */
import type { HaggleEventInput, HaggleNegotiationRow } from './haggle';

const pick = <T>(v: T | null | undefined, old: T): T => (v === null || v === undefined ? old : v);

/**
 * The negotiations `events` describe (one address's history, in chain order: slot, then index),
 * oldest first. An event before any creation at its address is skipped, as the store skips it.
 */
export function foldHaggleEvents(events: readonly HaggleEventInput[]): HaggleNegotiationRow[] {
  const out: HaggleNegotiationRow[] = [];
  const seen = new Set<string>();
  for (const e of events) {
    // The store keeps each transition once (signature, index).
    const k = `${e.signature}:${e.index}`;
    if (seen.has(k)) continue;
    seen.add(k);
    if (e.kind === 'created') {
      if (!e.created) throw new TypeError('a created haggle event needs `created`');
      if (!out.some((n) => n.id === e.signature)) {
        out.push({
          ...e.created,
          id: e.signature,
          address: e.negotiation,
          conversationId: e.conversationId,
          escrow: e.created.deposit,
          decayed: 0n,
          currentOffer: null,
          lastOfferBy: null,
          rounds: 0,
          joined: false,
          status: 'created',
          reason: null,
          buyerReservation: null,
          sellerReservation: null,
          zopa: null,
          amount: null,
          fee: null,
          toSeller: null,
          refund: null,
          createdSlot: e.slot,
          slot: e.slot,
          createdAt: e.at,
          closedAt: null,
          transitions: [],
        });
      }
    }
    // The latest negotiation at the address created at or before the event's slot.
    const n = [...out].reverse().find((x) => x.address === e.negotiation && x.createdSlot <= e.slot);
    if (!n) continue;
    n.transitions.push({
      signature: e.signature,
      index: e.index,
      slot: e.slot,
      kind: e.kind,
      side: e.side,
      round: e.round,
      amount: e.amount,
      decay: e.decay,
      escrow: e.escrow,
      status: e.status,
      at: e.at,
    });
    const s = e.set ?? {};
    if (e.kind !== 'created') n.status = pick(e.status, n.status);
    n.joined = n.joined || (s.joined ?? false);
    n.currentOffer = pick(s.currentOffer, n.currentOffer);
    n.lastOfferBy = pick(s.lastOfferBy, n.lastOfferBy);
    n.rounds = pick(s.rounds, n.rounds);
    n.decayed = s.decayed ?? (s.escrow !== undefined ? n.deposit - s.escrow : n.decayed);
    n.escrow = pick(s.escrow, n.escrow);
    n.buyerReservation = pick(s.buyerReservation, n.buyerReservation);
    n.sellerReservation = pick(s.sellerReservation, n.sellerReservation);
    n.zopa = pick(s.zopa, n.zopa);
    n.amount = pick(s.amount, n.amount);
    n.fee = pick(s.fee, n.fee);
    n.toSeller = pick(s.toSeller, n.toSeller);
    n.refund = pick(s.refund, n.refund);
    n.reason = pick(s.reason, n.reason);
    if (s.closed) n.closedAt = e.at ?? new Date();
    if (e.slot > n.slot) n.slot = e.slot;
  }
  return out;
}
