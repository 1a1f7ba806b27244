/**
 * What each negotiation figure means, in one place: docs/analytics.md holds exactly the text
 * {@link analyticsMarkdown} renders (a test compares them), and the conversation page's legend and
 * tooltips show the same `what` and `undefinedWhen` sentences. The thresholds the analytics use are
 * here too, so the docs quote the numbers the code runs with.
 */

/** Where a party's role can come from, strongest first (analyzeNegotiation tries them in this order). */
export const ROLE_SOURCES = ['haggle', 'deliver', 'advertise', 'discover'] as const;
export type RoleSource = (typeof ROLE_SOURCES)[number];

/** Words for each role source (page and docs). */
export const ROLE_SOURCE_TEXT: Record<RoleSource, string> = {
  haggle: 'the Haggle account on chain (its buyer and seller)',
  deliver: 'DELIVER (the party that delivers is the seller)',
  advertise: 'ADVERTISE (the role a party advertises)',
  discover: 'DISCOVER (a party that looked for a provider is the buyer)',
};

/** Curve fit settings (docs/analytics.md "Concession curve"). */
export const FIT = {
  /** Fewest offers of one side that get a fit: three parameters and at least one residual. */
  minOffers: 4,
  /** ln β is searched in [-lnBetaBound, lnBetaBound]; an optimum at the edge gets no class. */
  lnBetaBound: 5,
  /** |ln β| at most this is "linear" (β in [0.951, 1.051]). */
  linearBand: 0.05,
  /** RMSE over the side's price range above this is a poor fit: no class. */
  maxRelativeRmse: 0.05,
} as const;

/** Figures the analytics report; each is a value or "unknown" with a reason. */
export const FIGURE_KEYS = [
  'roles',
  'concessions',
  'movement',
  'curve',
  'reservations',
  'zopa',
  'nash',
  'nashDistance',
  'surplus',
  'rubinstein',
  'escrowBurned',
] as const;
export type FigureKey = (typeof FIGURE_KEYS)[number];

export interface FigureDefinition {
  title: string;
  /** One or two sentences: what the figure is (the page's tooltip). */
  what: string;
  formula: string;
  inputs: string;
  /** When the figure is "unknown" instead of a number. */
  undefinedWhen: string;
  reference: string;
}

export const FIGURES: Record<FigureKey, FigureDefinition> = {
  roles: {
    title: 'Buyer and seller',
    what:
      'Which negotiating party buys and which sells, taken from what ' +
      'the protocol and the chain say, never from the prices offered.',
    formula:
      "The first source that names a role wins, in this order: the Haggle account's buyer and " +
      "seller on chain; the party that sent DELIVER is the seller; the role in a party's ADVERTISE; " +
      'a party that sent DISCOVER before the negotiation is the buyer. A source that contradicts ' +
      'itself or an earlier source is ignored. With two parties, naming one names the other.',
    inputs:
      'Haggle accounts of the conversation (wallets matched to agents by the offers ' +
      'they signed), DELIVER senders, ADVERTISE payloads with a role, DISCOVER senders.',
    undefinedWhen:
      'No source names a role: both roles are unknown and every figure that needs them ' +
      '(concessions, movement class, ZOPA, Nash, surplus, Rubinstein) is unknown too.',
    reference: 'Haggle and Handshake roles over 0x01 (docs/protocol.md §8).',
  },
  concessions: {
    title: 'Concessions',
    what: "How far each of a side's offers moved toward the other side, offer by offer, in exact token units.",
    formula: 'buyer: p[i+1] − p[i]; seller: p[i] − p[i+1]; offers in NEG1 round order. Positive is a concession.',
    inputs: "The side's NEG1 PROPOSE and COUNTER prices and rounds; its role.",
    undefinedWhen: 'The roles are unknown (which way is a concession is then unknown).',
    reference: 'Faratin, Sierra & Jennings (1998), §4.',
  },
  movement: {
    title: 'Movement',
    what: "The shape of a side's offers: one offer, no movement, conceding, moving away, or zig-zag.",
    formula:
      'Steps between consecutive offers (round order): all zero → no movement; both signs ' +
      '→ zig-zag; all toward the other side → conceding; all away from it → moving away.',
    inputs: "The side's offers and its role.",
    undefinedWhen:
      'Only the direction is unknown when the roles are: a monotone side is then "monotone, direction unknown".',
    reference: 'Faratin, Sierra & Jennings (1998): time-dependent tactics are monotone concessions.',
  },
  curve: {
    title: 'Concession curve (β)',
    what:
      "The Faratin time-dependent tactic that best fits a side's offers on the negotiation's shared clock: β < 1 " +
      "Boulware (holds firm, concedes late), β = 1 linear, β > 1 conceder (concedes early); with the fit's error.",
    formula:
      'x(t) = a + b·(t / t_max)^(1/β), t from the first offer of either side; a and b by least squares ' +
      'for each β, β by minimising the squared error over ln β in [−5, 5]. Fit error: RMSE / (highest ' +
      '− lowest offer of the side). Class: |ln β| ≤ 0.05 linear, else β < 1 Boulware, β > 1 conceder.',
    inputs:
      "The side's offers and envelope times on the clock both sides share. t_max (the " +
      'deadline, else the last message) only rescales t/t_max, which the free span ' +
      'b absorbs, so β does not depend on it; the fit runs on t / (last NEG1 message).',
    undefinedWhen:
      'No fit with fewer than 4 offers, no movement, or all offers at one ' +
      'instant. A fit but no class when the roles are unknown, the offers zig-zag ' +
      'or move away, β is at the search bound, or the fit error is above 5%.',
    reference:
      'Faratin, Sierra & Jennings (1998), "Negotiation decision functions ' +
      'for autonomous agents", Robotics and Autonomous Systems 24, §4.2.1.',
  },
  reservations: {
    title: 'Sealed reservations',
    what:
      "Whether each party's revealed reservation price (NEGR) opens a commitment (NEGC) " +
      'it sent earlier: verified, no commitment, mismatch, or committed but not revealed.',
    formula:
      "verified ⇔ SHA-256(price as 16-byte two's complement ‖ salt) " +
      "equals the party's latest NEGC sent before its first NEGR.",
    inputs: 'NEGC and NEGR messages, by sender, in order.',
    undefinedWhen: 'Never; a party that sent neither is not listed. Only verified reservations feed any other figure.',
    reference: 'Haggle sealed-bid ZOPA detection (docs/protocol.md §8).',
  },
  zopa: {
    title: 'ZOPA',
    what:
      'The zone of possible agreement: prices both the buyer (at most ' +
      'its reservation) and the seller (at least its reservation) accept.',
    formula: 'exists ⇔ r_buyer ≥ r_seller; width = r_buyer − r_seller (exact; 0 is a single-price ZOPA).',
    inputs: 'Both verified reservations and the roles.',
    undefinedWhen: 'The roles are unknown, a reservation is missing or not verified, or a price is negative.',
    reference: 'Raiffa (1982), The Art and Science of Negotiation; Haggle sealed bids.',
  },
  nash: {
    title: 'Nash bargaining point',
    what:
      "The price that maximises the product of both sides' gains over their " +
      'reservations (linear utilities, disagreement at the reservations).',
    formula: 'argmax_p (r_buyer − p)(p − r_seller) = (r_buyer + r_seller) / 2.',
    inputs: 'The ZOPA.',
    undefinedWhen: 'The ZOPA is unknown or does not exist.',
    reference: 'Nash (1950), "The Bargaining Problem", Econometrica 18.',
  },
  nashDistance: {
    title: 'Distance from the Nash point',
    what: 'How far the agreed price is from the Nash point, in token units and as a share of the ZOPA width.',
    formula: '|p_deal − p_Nash|; relative: |p_deal − p_Nash| / width.',
    inputs: 'The deal price and the Nash point.',
    undefinedWhen: 'No deal or no Nash point; the relative distance also when the ZOPA has zero width.',
    reference: 'Nash (1950).',
  },
  surplus: {
    title: 'Surplus split',
    what: 'What each side gained at the deal price over its reservation, and its share of the ZOPA.',
    formula:
      'buyer r_buyer − p_deal, seller p_deal − r_seller (exact; negative ' +
      'when the deal is outside the ZOPA); shares divided by the width.',
    inputs: 'The deal price and the ZOPA.',
    undefinedWhen: 'No deal or the ZOPA is unknown or does not exist; the shares also when the width is 0.',
    reference: 'Raiffa (1982).',
  },
  rubinstein: {
    title: 'Rubinstein price',
    what:
      'The subgame-perfect alternating-offers price when each round ' +
      "shrinks the escrow by its decay: the first mover's share of the ZOPA.",
    formula:
      'x* = (1 − δ_B) / (1 − δ_A·δ_B), A the first mover, B the other, δ = 1 − decay_bps / 10,000 of ' +
      "each side's own NEG1 terms; with no decay on either side (δ_A = δ_B = 1) x* = ½, the limit " +
      'of equal discounting. Price: seller first r_seller + x*·width, buyer first r_buyer − x*·width.',
    inputs: "The ZOPA, the first mover, each side's decay_bps.",
    undefinedWhen:
      "The ZOPA is unknown or does not exist, or a side's decay is unknown " +
      '(it sent no NEG1, or its NEG1 messages state different rates).',
    reference: 'Rubinstein (1982), "Perfect Equilibrium in a Bargaining Model", Econometrica 50; Haggle escrow decay.',
  },
  escrowBurned: {
    title: 'Escrow burned by decay',
    what: 'The escrow the Haggle program moved to the treasury by per-round decay, as the chain recorded it.',
    formula: 'Sum over on-chain offers of floor(escrow × decay_bps / 10,000), read from the chain, not recomputed.',
    inputs: "The conversation's Haggle negotiation account (deposit, decayed total).",
    undefinedWhen: 'The negotiation has no escrow on chain: off-chain deals burn nothing.',
    reference: 'Haggle program decay rule (programs/README.md "Haggle (decisions)").',
  },
};

export const ANALYTICS_DOCS_BEGIN = '<!-- figures:begin (generated from lib/protocol/analytics-defs.ts) -->';
export const ANALYTICS_DOCS_END = '<!-- figures:end -->';

/** The figure-by-figure section of docs/analytics.md. */
export function analyticsMarkdown(): string {
  const out = [ANALYTICS_DOCS_BEGIN];
  for (const k of FIGURE_KEYS) {
    const f = FIGURES[k];
    out.push(
      '',
      `### ${f.title} (\`${k}\`)`,
      '',
      f.what,
      '',
      `- **Formula.** ${f.formula}`,
      `- **Inputs.** ${f.inputs}`,
      `- **Unknown when.** ${f.undefinedWhen}`,
      `- **Reference.** ${f.reference}`,
    );
  }
  out.push('', ANALYTICS_DOCS_END);
  return out.join('\n');
}
