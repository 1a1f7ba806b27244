/**
 * Collusion signals as GET /api/collusion and the /collusion page show them: the store's rows
 * (lib/store/collusion/collusion.ts) in the wire form of lib/wire/collusion.ts, shared so the page and the
 * API can never disagree on a figure.
 */
import 'server-only';
import { toHex } from '../../lib/protocol/hex';
import { DEFAULT_WINDOW, MIN_DEALS, type WindowRead } from '../../lib/store/collusion';
import type { CollusionView } from '../../lib/wire/collusion';
import type { Services } from './services';

export { DEFAULT_WINDOW };

/** A ratio rounded to `places` decimals for display; the counts it comes from travel beside it. */
const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;
const usToMs = (us: bigint | null) => (us === null ? null : Number(us / 1000n) + Number(us % 1000n) / 1000);

const windowView = (w: WindowRead, oldestMs: number | null) => ({
  limit: w.limit,
  read: w.read,
  truncated: w.truncated,
  oldestMs,
});

export async function loadCollusion(
  o: Services,
  p: { agent?: Uint8Array; limit: number; window: number },
): Promise<CollusionView> {
  const started = performance.now();
  const s = await o.reads.collusionSignals({ agent: p.agent, limit: p.limit, window: p.window });
  const tookMs = round(performance.now() - started, 1);
  return {
    agent: p.agent ? toHex(p.agent) : null,
    limit: p.limit,
    windows: {
      feedback: windowView(s.windows.feedback, usToMs(s.windows.feedback.oldest)),
      // A conversation's last activity is read in milliseconds already.
      conversations: windowView(
        s.windows.conversations,
        s.windows.conversations.oldest === null ? null : Number(s.windows.conversations.oldest),
      ),
      assignments: windowView(s.windows.assignments, usToMs(s.windows.assignments.oldest)),
    },
    reciprocal: s.reciprocal.map((r) => ({
      agent: toHex(r.agent),
      counterparts: r.counterparts,
      counterpartsWithoutDeal: r.counterpartsWithoutDeal,
      given: r.given,
      received: r.received,
      meanGiven: round(r.givenScoreSum / r.given, 2),
      meanReceived: round(r.receivedScoreSum / r.received, 2),
      medianGapMs: usToMs(r.medianGapUs),
      pairs: r.pairs.slice(0, 5).map((x) => ({
        counterpart: toHex(x.counterpart),
        given: x.given,
        received: x.received,
        givenWithoutDeal: x.givenWithoutDeal,
        receivedWithoutDeal: x.receivedWithoutDeal,
        latestGiven: toHex(x.latestGiven),
        latestReceived: toHex(x.latestReceived),
      })),
    })),
    concentration: s.concentration.map((r) => {
      const known = r.deals >= MIN_DEALS;
      return {
        agent: toHex(r.agent),
        deals: r.deals,
        counterparties: r.counterparties,
        topCounterparty: toHex(r.topCounterparty),
        topDeals: r.topDeals,
        topShare: known ? round(r.topDeals / r.deals, 4) : null,
        hhi: known ? round(r.squares / (r.deals * r.deals), 4) : null,
        unknownReason: known
          ? null
          : `only ${r.deals} deal${r.deals === 1 ? '' : 's'} (fewer than ` +
            `${MIN_DEALS}): every share is large whatever the agent does`,
        latestDeal: toHex(r.latestDeal),
      };
    }),
    notaryReuse: {
      rows: s.notaryReuse.map((r) => ({
        agents: [toHex(r.agents[0]), toHex(r.agents[1])] as [string, string],
        assigned: r.assigned,
        distinctNotaries: r.distinctNotaries,
        notary: toHex(r.notary),
        sameNotary: r.sameNotary,
        share: round(r.sameNotary / r.assigned, 4),
        conversations: r.conversations.map(toHex),
      })),
      unknownNotary: s.notaryUnknown.notary,
      unknownPair: s.notaryUnknown.pair,
    },
    dealless: s.dealless.map((r) => ({
      agent: toHex(r.agent),
      received: r.received,
      fromDealless: r.fromDealless,
      raterCount: r.raterCount,
      raters: r.raters.map(toHex),
      meanScore: round(r.scoreSum / r.fromDealless, 2),
      latest: r.latest.map(toHex),
    })),
    stakes: Object.fromEntries(
      s.stakes.map((x) => [toHex(x.agent), { amount: x.amount.toString(), status: x.status }]),
    ),
    tookMs,
  };
}
