/**
 * One negotiation's figures in words (docs/analytics.md): roles and where they come from, each
 * side's movement and concession curve with its fit error, the sealed reservations' check, ZOPA,
 * Nash point, surplus split, Rubinstein price, escrow burned, the agreed tier. A figure that is
 * unknown says so and why. Each sentence's tooltip, and the legend below, are the definitions of
 * lib/protocol/analytics-defs.ts, the text docs/analytics.md is generated from.
 */

import { FIGURE_KEYS, FIGURES, type FigureKey, ROLE_SOURCE_TEXT } from '../../lib/protocol/analytics-defs';
import type { NegotiationView } from '../../lib/wire';
import { agentDisplayName } from '../../lib/wire/agent-name';
import { base58, formatAmount, shortHex } from '../format';

/** An agent (hex id) by its name, the one the rest of the site shows; by default the label derived from its id. */
export type NameOf = (hex: string) => string;

/** The agent's name and its short base58 id: "Zerox1 demo agent 2 (Fjhj9…1fNL)". */
export const namedAgent = (hex: string, nameOf: NameOf = agentDisplayName) =>
  `${nameOf(hex)} (${shortHex(base58(hex), 5, 4)})`;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const TIERS = ['self-verifying tests', 'mechanical check', 'peer/notary review'];
const CLASS_WORDS = {
  boulware: 'held firm and conceded late (Boulware)',
  linear: 'conceded at a steady pace (linear)',
  conceder: 'conceded early (conceder)',
} as const;
const RESERVATION_WORDS = {
  verified: 'verified: its reveal opens its earlier commitment',
  'no commitment': 'no commitment: revealed without an earlier sealed commitment, so not used',
  mismatch: 'does NOT match its commitment, so not used',
  'not revealed': 'committed, not revealed',
} as const;

/** One sentence and the figure whose definition explains it. */
export interface NegotiationFact {
  key: FigureKey | null;
  text: string;
}

export function negotiationFacts(v: NegotiationView, nameOf: NameOf = agentDisplayName): NegotiationFact[] {
  const amt = (a: string | null | undefined) => formatAmount(a ?? null, v.token);
  const who = (agent: string | null) => {
    if (!agent) return 'an unknown party';
    const role = agent === v.roles.buyer ? 'the buyer' : agent === v.roles.seller ? 'the seller' : 'a party';
    return `${role} ${namedAgent(agent, nameOf)}`;
  };
  const out: NegotiationFact[] = [];
  const n = (k: number, w: string) => `${k} ${w}${k === 1 ? '' : 's'}`;
  const head =
    (v.outcome === 'agreed' || v.outcome === 'disputed') && v.deal
      ? (v.outcome === 'disputed' ? 'Agreed, then disputed,' : 'Agreed') +
        ` at ${amt(v.deal.price)} after ${n(v.rounds, 'offer')}`
      : v.outcome === 'rejected'
        ? `Rejected after ${n(v.rounds, 'offer')} (${v.rejectReason ?? 'no reason'})`
        : v.outcome === 'no_deal'
          ? 'No deal: no ACCEPT was seen'
          : `Still open after ${n(v.rounds, 'offer')}`;
  out.push({ key: null, text: `${head}${v.maxRounds ? `, of at most ${v.maxRounds} rounds` : ''}.` });

  out.push(
    v.roles.buyer || v.roles.seller
      ? {
          key: 'roles',
          text:
            `Roles from ${v.roles.sources.map((s) => ROLE_SOURCE_TEXT[s]).join('; ')}: ` +
            `buyer ${v.roles.buyer ? namedAgent(v.roles.buyer, nameOf) : 'unknown'}, ` +
            `seller ${v.roles.seller ? namedAgent(v.roles.seller, nameOf) : 'unknown'}.`,
        }
      : {
          key: 'roles',
          text: `Roles unknown: ${v.unknown.roles ?? 'no evidence'}; figures that need them are not computed.`,
        },
  );

  for (const s of v.sides) {
    const total = s.concessions?.reduce((a, b) => a + BigInt(b), 0n);
    const moved =
      total === undefined || s.concessions!.length === 0 ? '' : `, concessions totalling ${amt(total.toString())}`;
    const c = s.curve;
    const curve = c
      ? c.class
        ? ` and ${CLASS_WORDS[c.class]}, β = ${c.beta.toFixed(2)} (fit error ${pct(c.relativeRmse)})`
        : `; fitted β = ${c.beta.toFixed(2)}${c.atBound ? ' (at the search bound)' : ''} ` +
          `(fit error ${pct(c.relativeRmse)}), class unknown: ${s.unknown.class ?? 'withheld'}`
      : `; no curve: ${s.unknown.fit ?? 'not fitted'}`;
    out.push({
      key: 'curve',
      text:
        `${who(s.agent).replace(/^./, (x) => x.toUpperCase())} made ` +
        `${n(s.offers.length, 'offer')} (${s.movement})${moved}${curve}.`,
    });
  }

  for (const r of v.reservations) {
    out.push({
      key: 'reservations',
      text:
        `Sealed reservation of ${who(r.agent)}` +
        `${r.revealed !== null ? ` (${amt(r.revealed)})` : ''}: ${RESERVATION_WORDS[r.status]}.`,
    });
  }
  if (v.zopa) {
    out.push({
      key: 'zopa',
      text: v.zopa.exists
        ? `Verified reservations leave a ZOPA of ${amt(v.zopa.width)} (seller ` +
          `${amt(v.zopa.sellerReservation)}, buyer ${amt(v.zopa.buyerReservation)}).`
        : `Verified reservations leave no ZOPA: the seller needs ${amt(v.zopa.sellerReservation)}` +
          `, the buyer pays at most ${amt(v.zopa.buyerReservation)}.`,
    });
  } else out.push({ key: 'zopa', text: `ZOPA unknown: ${v.unknown.zopa ?? 'no verified reservations'}.` });

  if (v.nash) {
    const dist =
      v.nash.distance === null
        ? ''
        : `; the deal is ${amt(v.nash.distance)} from it` +
          (v.nash.relativeDistance !== null
            ? ` (${pct(v.nash.relativeDistance)} of the ZOPA)`
            : ' (no share: the ZOPA has zero width)');
    out.push({ key: 'nash', text: `The Nash bargaining point is ${amt(v.nash.price)}${dist}.` });
  } else if (v.zopa && !v.zopa.exists)
    out.push({ key: 'nash', text: `Nash point unknown: ${v.unknown.nash ?? 'no ZOPA'}.` });

  // A deal outside the ZOPA is said with its distance, never as a negative share.
  const outside = v.outsideZopaBy !== null && v.outsideZopaBy !== '0' ? v.outsideZopaBy : null;
  if (outside !== null && v.deal && v.zopa) {
    const b = BigInt(v.zopa.buyerReservation),
      s = BigInt(v.zopa.sellerReservation),
      p = BigInt(v.deal.price);
    const past = [
      p > b ? `the buyer paid ${amt((p - b).toString())} above its reservation` : null,
      p < s ? `the seller took ${amt((s - p).toString())} below its reservation` : null,
    ]
      .filter(Boolean)
      .join(' and ');
    out.push({ key: 'surplus', text: `The deal is outside the ZOPA by ${amt(outside)}: ${past}.` });
  } else if (v.surplus) {
    const share = (x: number | null) => (x === null ? '' : ` (${pct(x)})`);
    out.push({
      key: 'surplus',
      text:
        `Surplus split: buyer ${amt(v.surplus.buyer)}${share(v.surplus.buyerShare)}` +
        `, seller ${amt(v.surplus.seller)}${share(v.surplus.sellerShare)}.`,
    });
  }
  if (v.rubinstein) {
    const r = v.rubinstein;
    const deltas =
      r.deltaFirst === r.deltaSecond
        ? `δ = ${r.deltaFirst.toFixed(4)} for both`
        : `δ = ${r.deltaFirst.toFixed(4)} for the first mover, ${r.deltaSecond.toFixed(4)} for the other`;
    out.push({
      key: 'rubinstein',
      text:
        (r.limit
          ? "With no escrow decay on either side, Rubinstein's limit gives"
          : `With escrow decay (${deltas}), Rubinstein gives`) +
        ` the first mover, ${who(r.firstMover)}, ${pct(r.share)} of the ZOPA: a price of ${amt(r.price)}.`,
    });
  } else if (v.zopa?.exists)
    out.push({ key: 'rubinstein', text: `Rubinstein price unknown: ${v.unknown.rubinstein ?? 'no decay stated'}.` });

  out.push(
    v.escrowBurned
      ? {
          key: 'escrowBurned',
          text:
            `Escrow burned by decay on chain: ${amt(v.escrowBurned.burned)} of the ${amt(v.escrowBurned.deposit)}` +
            ` deposited, over ${n(v.escrowBurned.rounds, 'on-chain round')} at ${v.escrowBurned.decayBps} bps.`,
        }
      : { key: 'escrowBurned', text: 'No escrow on chain, so nothing was burned by decay.' },
  );
  if (v.tier !== null)
    out.push({
      key: null,
      text:
        `Handshake verification tier ${v.tier} (${TIERS[v.tier] ?? '?'}) agreed` +
        `${v.verdict ? `; the verdict ${v.verdict === 'issued' ? 'was issued' : v.verdict}` : '; no verdict yet'}.`,
    });
  return out;
}

export function negotiationSentences(v: NegotiationView, nameOf?: NameOf): string[] {
  return negotiationFacts(v, nameOf).map((f) => f.text);
}

export function NegotiationNumbers({ v, nameOf }: { v: NegotiationView; nameOf?: NameOf }) {
  return (
    <>
      <ul className="nego-words" data-testid="negotiation-words">
        {negotiationFacts(v, nameOf).map((f) => (
          <li key={f.text} title={f.key ? FIGURES[f.key].what : undefined} data-figure={f.key ?? undefined}>
            {f.text}
          </li>
        ))}
      </ul>
      <details className="small muted" data-testid="figure-legend">
        <summary>What these figures mean</summary>
        <dl>
          {FIGURE_KEYS.map((k) => (
            <div key={k}>
              <dt>{FIGURES[k].title}</dt>
              <dd>
                {FIGURES[k].what} Unknown when: {FIGURES[k].undefinedWhen}
              </dd>
            </div>
          ))}
        </dl>
      </details>
    </>
  );
}
