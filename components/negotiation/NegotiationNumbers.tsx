/**
 * One negotiation's numbers in words (docs/protocol.md §8; lib/protocol/analytics.ts): rounds,
 * concessions per side and their curve class, distance from the Nash point, the surplus split,
 * the escrow burned by decay, the agreed verification tier and its outcome.
 */
import type { NegotiationView } from '../../lib/wire';
import { base58, shortHex, tokenAmount } from '../format';

const amt = (n: number) => tokenAmount(String(Math.round(n)));
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const TIERS = ['self-verifying tests', 'mechanical check', 'peer/notary review'];
const CLASS_WORDS = { boulware: 'held firm and conceded late (Boulware)', linear: 'conceded at a steady pace (linear)', conceder: 'conceded early (conceder)' } as const;

export function negotiationSentences(v: NegotiationView): string[] {
  const out: string[] = [];
  const head = v.outcome === 'agreed' && v.deal
    ? `Agreed at ${amt(v.deal.price)} after ${v.rounds} offer${v.rounds === 1 ? '' : 's'}`
    : v.outcome === 'rejected'
      ? `Rejected after ${v.rounds} offer${v.rounds === 1 ? '' : 's'} (${v.rejectReason ?? 'no reason'})`
      : `Still open after ${v.rounds} offer${v.rounds === 1 ? '' : 's'}`;
  out.push(`${head}${v.maxRounds ? `, of at most ${v.maxRounds} rounds` : ''}.`);
  for (const s of v.sides) {
    const moves = s.concessions.filter((c) => c !== 0);
    const total = s.concessions.reduce((a, b) => a + b, 0);
    const style = s.curve ? ` and ${CLASS_WORDS[s.curve.class]}, β = ${s.curve.beta.toFixed(2)}` : '';
    out.push(`The ${s.role} (${shortHex(base58(s.agent), 5, 4)}) made ${s.offers.length} offer${s.offers.length === 1 ? '' : 's'} with ${moves.length} concession${moves.length === 1 ? '' : 's'} totalling ${amt(total)}${style}.`);
  }
  if (v.zopa) {
    out.push(v.zopa.exists
      ? `Revealed reservations leave a ZOPA of ${amt(v.zopa.width)} (seller ${amt(v.zopa.sellerReservation)}, buyer ${amt(v.zopa.buyerReservation)})${v.zopa.commitmentsValid ? '; both sealed commitments match their reveals' : '; a sealed commitment does NOT match its reveal'}.`
      : `Revealed reservations leave no ZOPA: the seller needs ${amt(v.zopa.sellerReservation)}, the buyer pays at most ${amt(v.zopa.buyerReservation)}.`);
  } else if (v.sealed) out.push('Reservation prices were sealed and not both revealed: no ZOPA can be shown.');
  else out.push('Reservation prices were not revealed, so the ZOPA, Nash point and surplus split are unknown.');
  if (v.nash) out.push(`The Nash bargaining point is ${amt(v.nash.price)}; the deal is ${amt(v.nash.distance)} from it (${pct(v.nash.relativeDistance)} of the ZOPA).`);
  if (v.surplus && v.zopa && v.zopa.width > 0) {
    out.push(`Surplus split: buyer ${amt(v.surplus.buyer)} (${pct(v.surplus.buyer / v.zopa.width)}), seller ${amt(v.surplus.seller)} (${pct(v.surplus.seller / v.zopa.width)}).`);
  }
  if (v.rubinstein) out.push(`With ${v.decayBps} bps escrow decay per round (δ = ${v.rubinstein.delta.toFixed(4)}), Rubinstein gives the first mover ${pct(v.rubinstein.share)} of the ZOPA: a price of ${amt(v.rubinstein.price)}.`);
  if (v.escrowDecay && v.escrowDecay.cost > 0) out.push(`Escrow burned by decay over ${v.escrowDecay.rounds} round${v.escrowDecay.rounds === 1 ? '' : 's'}: ${amt(v.escrowDecay.cost)} of ${amt(v.escrowDecay.amount)}.`);
  else if (v.decayBps === 0) out.push('No escrow decay was in force.');
  if (v.tier !== null) out.push(`Handshake verification tier ${v.tier} (${TIERS[v.tier] ?? '?'}) agreed${v.verdict ? `; the verdict ${v.verdict === 'issued' ? 'was issued' : v.verdict}` : '; no verdict yet'}.`);
  return out;
}

export function NegotiationNumbers({ v }: { v: NegotiationView }) {
  return (
    <ul className="nego-words" data-testid="negotiation-words">
      {negotiationSentences(v).map((s) => <li key={s}>{s}</li>)}
    </ul>
  );
}
