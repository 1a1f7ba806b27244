/**
 * Concession strategies of the demo agents (Haggle alternating offers; Faratin et al.
 * time-dependent family for Boulware / linear / conceder, plus relative tit-for-tat).
 * Pure: prices are integers in the token's smallest unit, nothing reads a clock or RNG.
 */

export const STRATEGIES = ['boulware', 'linear', 'conceder', 'tit-for-tat'] as const;
export type StrategyName = (typeof STRATEGIES)[number];

/** Exponent β of the time-dependent family: α(t) = t^(1/β); β < 1 Boulware, 1 linear, > 1 conceder. */
export const STRATEGY_BETA: Record<Exclude<StrategyName, 'tit-for-tat'>, number> = {
  boulware: 0.25,
  linear: 1,
  conceder: 4,
};

/** One side's negotiation stance. `initial` is its opening price, `reservation` its walk-away price. */
export interface Stance {
  strategy: StrategyName;
  /** 'buyer' wants low prices (initial < reservation), 'seller' high ones (initial > reservation). */
  side: 'buyer' | 'seller';
  initial: number;
  reservation: number;
  /** Rounds this side will make offers in, >= 1. */
  maxRounds: number;
}

function checkStance(s: Stance): void {
  if (!STRATEGIES.includes(s.strategy)) throw new RangeError(`stance.strategy: unknown ${String(s.strategy)}`);
  if (s.side !== 'buyer' && s.side !== 'seller') throw new RangeError('stance.side must be buyer or seller');
  if (!Number.isSafeInteger(s.initial) || !Number.isSafeInteger(s.reservation)) {
    throw new TypeError('stance.initial and stance.reservation must be integers');
  }
  if (s.side === 'buyer' ? s.initial > s.reservation : s.initial < s.reservation) {
    throw new RangeError(`stance: a ${s.side}'s initial price must not be past its reservation`);
  }
  if (!Number.isInteger(s.maxRounds) || s.maxRounds < 1) throw new RangeError('stance.maxRounds must be >= 1');
}

/**
 * The price this side offers in its `index`-th offer (0-based), given the opponent's offers so
 * far (oldest first). Never past the reservation price.
 */
export function nextOffer(
  stance: Stance,
  index: number,
  opponentOffers: readonly number[],
  ownOffers: readonly number[],
): number {
  checkStance(stance);
  if (!Number.isInteger(index) || index < 0) throw new RangeError('index must be a non-negative integer');
  const { initial, reservation } = stance;
  const range = reservation - initial; // signed: + for buyer, - for seller
  if (index === 0) return initial;
  let price: number;
  if (stance.strategy === 'tit-for-tat') {
    // Mirror the opponent's last concession (at least 2% of the range so two mirrors cannot stall).
    const prev = ownOffers.length ? ownOffers[ownOffers.length - 1] : initial;
    const n = opponentOffers.length;
    const theirs = n >= 2 ? Math.abs(opponentOffers[n - 1] - opponentOffers[n - 2]) : 0;
    const step = Math.max(theirs, Math.ceil(Math.abs(range) * 0.02));
    price = prev + Math.sign(range) * step;
  } else {
    const t = stance.maxRounds <= 1 ? 1 : Math.min(1, index / (stance.maxRounds - 1));
    const alpha = t ** (1 / STRATEGY_BETA[stance.strategy]);
    price = initial + Math.round(range * alpha);
  }
  return stance.side === 'buyer' ? Math.min(price, reservation) : Math.max(price, reservation);
}

/** True when `price` is at least as good for this side as `reference` (lower for a buyer). */
export function atLeastAsGood(side: Stance['side'], price: number, reference: number): boolean {
  return side === 'buyer' ? price <= reference : price >= reference;
}

/**
 * Acceptance (AC_next): accept the opponent's offer when it is within the reservation price
 * and at least as good as the offer this side would make next.
 */
export function shouldAccept(stance: Stance, opponentOffer: number, myNextOffer: number): boolean {
  checkStance(stance);
  return (
    atLeastAsGood(stance.side, opponentOffer, stance.reservation) &&
    atLeastAsGood(stance.side, opponentOffer, myNextOffer)
  );
}

/** Whether a deal can exist at all: the buyer's reservation reaches the seller's. */
export function zopaExists(buyerReservation: number, sellerReservation: number): boolean {
  return buyerReservation >= sellerReservation;
}
