/**
 * `npm run demo:figures -- [--base URL] [--minutes N] [--every S] [--epoch-seconds S]`: what a
 * running demo shows, measured from its API only (a fresh `npm start` is the intended subject):
 *  - agreed conversations (GET /api/conversations?outcome=agreed), how many of them hold a deal
 *    (an ACCEPT: the negotiation view's `deal`), and how many carry a ZOPA that exists, a Nash
 *    point, a Rubinstein price and a fitted concession curve on at least one side
 *    (GET /api/conversations/{id}/negotiation);
 *  - Haggle negotiations on chain by status (GET /api/negotiations, the latest 500);
 *  - every `--every` seconds (10): whether a batch flagged `mismatch` (contradicted by its uploaded
 *    log) is inside its challenge window (current epoch <= its epoch + 2), and whether one such is
 *    also unchallenged (GET /api/batches?status=mismatch, GET /api/challenges);
 *  - lease_grace alerts of a watchlist created at the start that watches every agent
 *    (POST /api/watchlists; default rules): opened, cleared, and flaps (an alert cleared within
 *    two epochs of opening, or an agent with more than one).
 * Prints one JSON object at the end.
 */
import { parseArgs } from 'node:util';
import { CHALLENGE_WINDOW_EPOCHS } from '../lib/protocol/constants';

const { values } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://localhost:3000' },
    minutes: { type: 'string', default: '5' },
    every: { type: 'string', default: '10' },
    'epoch-seconds': { type: 'string', default: '20' },
  },
});
const base = values.base!.replace(/\/$/, '');
const minutes = Number(values.minutes);
const every = Number(values.every);
const es = Number(values['epoch-seconds']);
if (!(minutes >= 0) || !(every > 0) || !(es > 0))
  throw new RangeError('--minutes, --every and --epoch-seconds must be positive numbers');

async function api<T>(path: string, init?: RequestInit): Promise<T> {
  const r = await fetch(`${base}${path}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init?.headers ?? {}) },
  });
  if (!r.ok) throw new Error(`${init?.method ?? 'GET'} ${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

interface Batch {
  agent: string;
  epoch: string;
  status: string;
}
interface Challenge {
  agent: string;
  epoch: string;
}
interface Alert {
  id: string;
  agent: string;
  state: string;
  openedAt: number;
  clearedAt: number | null;
  why: string;
  clearedWhy: string | null;
}
interface Side {
  offers: string[];
  curve: unknown | null;
}
interface Negotiation {
  deal: unknown | null;
  sealed: boolean;
  zopa: { exists: boolean } | null;
  nash: unknown | null;
  rubinstein: unknown | null;
  sides: Side[];
}

const epochNow = () => BigInt(Math.floor(Date.now() / 1000 / es));

/** A watchlist over every agent the observatory knows now (lease_grace is on by default). */
async function watchEveryAgent(): Promise<{ id: string; token: string; agents: number }> {
  const wl = await api<{ id: string; token: string }>('/api/watchlists', { method: 'POST', body: '{}' });
  const { agents } = await api<{ agents: { id: string }[] }>('/api/agents?limit=1000');
  for (const a of agents) {
    await api(`/api/watchlists/${wl.id}/items`, {
      method: 'PUT',
      headers: { 'x-watchlist-token': wl.token },
      body: JSON.stringify({ kind: 'agent', target: a.id }),
    });
  }
  return { ...wl, agents: agents.length };
}

async function sample(): Promise<{ inWindow: boolean; unchallengedInWindow: boolean }> {
  const cur = epochNow();
  const { batches } = await api<{ batches: Batch[] }>('/api/batches?status=mismatch&limit=200');
  const open = batches.filter((b) => cur <= BigInt(b.epoch) + CHALLENGE_WINDOW_EPOCHS);
  if (open.length === 0) return { inWindow: false, unchallengedInWindow: false };
  const { challenges } = await api<{ challenges: Challenge[] }>('/api/challenges?order=desc&limit=500');
  const challenged = new Set(challenges.map((c) => `${c.agent}:${c.epoch}`));
  return { inWindow: true, unchallengedInWindow: open.some((b) => !challenged.has(`${b.agent}:${b.epoch}`)) };
}

async function conversations(): Promise<Record<string, number>> {
  const ids: string[] = [];
  let before: string | null = null;
  do {
    const page: { conversations: { id: string }[]; next: string | null } = await api(
      `/api/conversations?outcome=agreed&limit=500${before ? `&before=${encodeURIComponent(before)}` : ''}`,
    );
    ids.push(...page.conversations.map((c) => c.id));
    before = page.next;
  } while (before);
  const out = {
    agreed: ids.length,
    withDeal: 0,
    sealed: 0,
    fourOffersPerSide: 0,
    zopa: 0,
    nash: 0,
    rubinstein: 0,
    curve: 0,
    allFigures: 0,
  };
  for (const id of ids) {
    const n = await api<Negotiation>(`/api/conversations/${id}/negotiation`);
    if (n.deal) out.withDeal++;
    if (n.sealed) out.sealed++;
    if (n.sides.length === 2 && n.sides.every((s) => s.offers.length >= 4)) out.fourOffersPerSide++;
    const zopa = !!n.zopa?.exists,
      curve = n.sides.some((s) => s.curve);
    if (zopa) out.zopa++;
    if (n.nash) out.nash++;
    if (n.rubinstein) out.rubinstein++;
    if (curve) out.curve++;
    if (zopa && n.nash && n.rubinstein && curve) out.allFigures++;
  }
  return out;
}

async function main(): Promise<void> {
  const started = Date.now();
  const wl = await watchEveryAgent();
  const samples: Array<{ at: number; inWindow: boolean; unchallengedInWindow: boolean }> = [];
  while (Date.now() - started < minutes * 60_000) {
    samples.push({ at: Date.now(), ...(await sample()) });
    process.stderr.write(`sample ${samples.length}: ${JSON.stringify(samples[samples.length - 1])}\n`);
    await new Promise((r) => setTimeout(r, every * 1000));
  }
  const { alerts } = await api<{ alerts: Alert[] }>(
    `/api/alerts?watchlist=${wl.id}&kind=lease_grace&state=all&limit=500`,
    { headers: { 'x-watchlist-token': wl.token } },
  );
  const perAgent = new Map<string, number>();
  for (const a of alerts) perAgent.set(a.agent, (perAgent.get(a.agent) ?? 0) + 1);
  const quick = alerts.filter((a) => a.clearedAt !== null && a.clearedAt - a.openedAt < 2 * es * 1000);
  const conv = await conversations();
  const { negotiations } = await api<{ negotiations: { status: string }[] }>('/api/negotiations?limit=500');
  const haggle: Record<string, number> = {};
  for (const n of negotiations) haggle[n.status] = (haggle[n.status] ?? 0) + 1;
  const share = (n: number, d: number) => (d ? Math.round((n / d) * 1000) / 1000 : null);
  console.log(
    JSON.stringify(
      {
        base,
        minutes,
        epochSeconds: es,
        watchedAgents: wl.agents,
        conversations: {
          ...conv,
          allFiguresOfAgreed: share(conv.allFigures, conv.agreed),
          allFiguresOfDeals: share(conv.allFigures, conv.withDeal),
        },
        haggle,
        contradictedInWindow: {
          samples: samples.length,
          present: samples.filter((s) => s.inWindow).length,
          share: share(samples.filter((s) => s.inWindow).length, samples.length),
          unchallengedPresent: samples.filter((s) => s.unchallengedInWindow).length,
          unchallengedShare: share(samples.filter((s) => s.unchallengedInWindow).length, samples.length),
        },
        leaseGrace: {
          alerts: alerts.length,
          open: alerts.filter((a) => a.state === 'open').length,
          cleared: alerts.filter((a) => a.clearedAt !== null).length,
          clearedWithinTwoEpochs: quick.length,
          agentsWithMoreThanOne: [...perAgent.values()].filter((n) => n > 1).length,
          list: alerts.map((a) => ({
            agent: a.agent.slice(0, 8),
            openedAt: new Date(a.openedAt).toISOString(),
            clearedAfterS: a.clearedAt === null ? null : (a.clearedAt - a.openedAt) / 1000,
            why: a.why,
          })),
        },
      },
      null,
      2,
    ),
  );
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
