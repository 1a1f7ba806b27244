/**
 * What the conversations list shows of each deal: buyer and seller (the flight recorder's roles),
 * the service (the advertised name whose hash the PROPOSE carries, else the hash), rounds, the last
 * price in its token, the outcome, and whether the deal was mirrored on chain and differs from the
 * gossip there. Built from the same readers as the conversation page (app/_lib/negotiation.ts,
 * app/_lib/haggle.ts), so the list and the page never disagree; a few conversations at a time, so a
 * page of 50 costs about 100 indexed reads.
 */
import 'server-only';
import { toHex } from '../../lib/protocol/hex';
import { parseNegotiationPayload } from '../../lib/protocol/neg1';
import { MsgType } from '../../lib/protocol/types';
import type { DealColumns } from '../../lib/wire/deals';
import { loadAdvertised } from './advertise';
import { onChainNegotiationView } from './haggle';
import { negotiationView } from './negotiation';
import type { Services } from './services';
import { pricePath } from './views';

/** One conversation's deal columns, as the conversations list shows them. */
export type DealSummary = DealColumns;

const CONCURRENCY = 6;
const ZERO = '0'.repeat(64);

/** Service names by their hash (hex) from an agent's ADVERTISE capabilities (`service` with `serviceHash`). */
export function servicesOf(caps: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (v: unknown) => {
    if (!v || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      v.forEach(visit);
      return;
    }
    const o = v as Record<string, unknown>;
    if (typeof o.service === 'string' && typeof o.serviceHash === 'string')
      out.set(o.serviceHash.replace(/^0x/, '').toLowerCase(), o.service);
    for (const x of Object.values(o)) if (x && typeof x === 'object') visit(x);
  };
  visit(caps);
  return out;
}

export async function loadDealSummaries(o: Services, ids: readonly string[]): Promise<Record<string, DealSummary>> {
  const out: Record<string, DealSummary> = {};
  const adverts = new Map<string, Promise<Map<string, string>>>();
  const servicesFor = (agent: string) => {
    let p = adverts.get(agent);
    if (!p)
      adverts.set(
        agent,
        (p = loadAdvertised(o, agent)
          .then((a) => servicesOf(a?.capabilities ?? null))
          .catch(() => new Map())),
      );
    return p;
  };
  let next = 0;
  const work = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      try {
        const bytes = Buffer.from(id, 'hex');
        const [c, chain] = await Promise.all([o.reads.getConversation(bytes), o.reads.onChainNegotiations(bytes)]);
        if (!c) continue;
        const haggle = chain[chain.length - 1] ?? null;
        const v = negotiationView(c, { haggle });
        let serviceHash: string | null = null;
        for (const s of c.envelopes) {
          if (s.envelope.msgType < MsgType.PROPOSE || s.envelope.msgType > MsgType.REJECT) continue;
          const p = parseNegotiationPayload(s.envelope.payload);
          if (p.kind === 'neg1' && toHex(p.neg1.serviceHash) !== ZERO) {
            serviceHash = toHex(p.neg1.serviceHash);
            break;
          }
        }
        let service: string | null = null;
        if (serviceHash) {
          for (const agent of [v.roles.seller, ...v.parties].filter((a): a is string => !!a)) {
            service = (await servicesFor(agent)).get(serviceHash) ?? null;
            if (service) break;
          }
        }
        const views = haggle ? chain.map((n) => onChainNegotiationView(n, pricePath(c.envelopes))) : [];
        // The agreed price, else the last offer by round (v.offers is in round order).
        const last =
          v.deal?.price ?? v.offers.filter((x) => x.type === 'PROPOSE' || x.type === 'COUNTER').at(-1)?.price ?? null;
        out[id] = {
          buyer: v.roles.buyer,
          seller: v.roles.seller,
          service,
          serviceHash,
          rounds: v.rounds,
          lastPrice: last,
          token: { decimals: v.token.decimals, symbol: v.token.symbol },
          outcome: v.outcome,
          onChain: chain.length > 0,
          differences: views.reduce((n, x) => n + x.differences, 0),
          parties: v.parties,
        };
      } catch {
        // One unreadable conversation leaves its row with the plain columns.
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, ids.length) }, work));
  return out;
}
