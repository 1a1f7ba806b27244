/**
 * How the demo agents draw a deal's stance, and how often they seal their reservations. Chosen
 * so that the conversation page has every figure to show (docs/analytics.md): a curve is fitted
 * only to a side with at least FIT.minOffers offers, and the ZOPA, Nash and Rubinstein prices
 * need both reservations revealed against their commitments (NEGC then NEGR), so
 *  - most deals are sealed ({@link SEALED_SHARE}), and
 *  - each side makes up to 6–9 offers over a gap that closes late: the reservations overlap by
 *    little (a buyer's 640–820 against a seller's 560–720) compared with the distance between the
 *    openings (300–450 against 950–1,200), so even two conceders meet around their fourth offer
 *    and two Boulware agents near their last.
 * Pure: the random draws come in through `rng`.
 */
import type { Stance, StrategyName } from './strategies';

/** Share of the deals an agent opens with sealed reservations (NEGC commitment, NEGR reveal). */
export const SEALED_SHARE = 0.85;

/** Inclusive ranges of the stance a side draws (token base units, offers per side). */
export const STANCE_RANGES = {
  buyer: { initial: [300, 450], reservation: [640, 820], maxRounds: [6, 9] },
  seller: { initial: [950, 1200], reservation: [560, 720], maxRounds: [6, 9] },
} as const;

export interface StanceRng {
  int(min: number, max: number): number;
  next(): number;
}

/** A stance for one side of a new deal (three draws, always in the same order). */
export function drawStance(strategy: StrategyName, side: Stance['side'], rng: StanceRng): Stance {
  const r = STANCE_RANGES[side];
  const initial = rng.int(r.initial[0], r.initial[1]);
  const reservation = rng.int(r.reservation[0], r.reservation[1]);
  const maxRounds = rng.int(r.maxRounds[0], r.maxRounds[1]);
  return { strategy, side, initial, reservation, maxRounds };
}

/** Whether the buyer opens this deal sealed (one draw). */
export function drawSealed(rng: StanceRng): boolean {
  return rng.next() < SEALED_SHARE;
}
