/**
 * /conversations: every conversation, filtered by participant, stage, outcome and time window
 * (presets 1h / 24h / 7d or a custom from/to), sorted by last activity, first seen or message
 * count, paged with the keyset cursor of that sort. The filter is the URL's query string (the same parameters as GET
 * /api/conversations, checked by the same schema), so a filtered view is a link to share.
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import { ConversationList } from '../../components/ConversationList';
import { ZonedDateInput } from '../../components/time/ZonedDateInput';
import {
  OUTCOME_LABELS,
  CONVERSATION_OUTCOMES as OUTCOME_ORDER,
  STAGE_LABELS,
} from '../../lib/protocol/conversation-state';
import { agentHex } from '../../lib/wire/agent-id';
import {
  CONVERSATION_OUTCOMES,
  CONVERSATION_SORTS,
  CONVERSATION_STATES,
  ConversationsQuerySchema,
} from '../../lib/wire/params';
import { loadDealSummaries } from '../_lib/deals';
import { loadConversationsPage } from '../_lib/lists';
import { NotRunning } from '../_lib/not-running';
import { flatParams, type SearchParams, withParams } from '../_lib/query-string';
import { getServices } from '../_lib/services';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Conversations' };

const SORT_LABEL: Record<(typeof CONVERSATION_SORTS)[number], string> = {
  last_seen: 'last activity',
  first_seen: 'first seen',
  messages: 'messages',
};

export default async function ConversationsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const o = getServices();
  if (!o) return <NotRunning />;
  const raw = flatParams(await searchParams);
  // `by` re-sorts the loaded page by a deal column (rounds, price, outcome); the rest is the API's query.
  const by = raw.by === 'rounds' || raw.by === 'price' || raw.by === 'outcome' ? raw.by : null;
  delete raw.by;
  // The form sends unix ms in the viewer's zone; without scripts its datetime-local text, read as UTC.
  for (const k of ['from', 'to'] as const)
    if (raw[k] && !/^\d+$/.test(raw[k])) raw[k] = String(Date.parse(`${raw[k]}Z`));
  const parsed = ConversationsQuerySchema.strict().safeParse(raw);
  // The agent may be typed in base58 (as shown on every page); the store reads hex.
  const agent = parsed.success && parsed.data.agent !== undefined ? agentHex(parsed.data.agent) : undefined;
  const q = parsed.success && agent !== null ? { ...parsed.data, agent } : null;
  const page =
    q && !(q.range && (q.from !== undefined || q.to !== undefined)) ? await loadConversationsPage(o, q) : null;
  const error = !parsed.success
    ? parsed.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ')
    : agent === null
      ? 'agent: not a 32-byte agent id'
      : !page
        ? 'give either a preset range or from/to, not both'
        : null;
  const keep = (extra: Record<string, string | undefined>) => withParams('/conversations', raw, extra);
  const deals = page
    ? await loadDealSummaries(
        o,
        page.conversations.map((c) => c.id),
      )
    : {};
  let rows = page?.conversations ?? [];
  if (by) {
    const price = (id: string) => {
      const v = deals[id]?.lastPrice;
      return v === null || v === undefined ? null : BigInt(v.split('.')[0]);
    };
    rows = [...rows].sort((a, b) => {
      if (by === 'rounds') return (deals[b.id]?.rounds ?? -1) - (deals[a.id]?.rounds ?? -1);
      if (by === 'outcome') return OUTCOME_ORDER.indexOf(a.outcome) - OUTCOME_ORDER.indexOf(b.outcome);
      const pa = price(a.id),
        pb = price(b.id);
      return pa === pb ? 0 : pa === null ? 1 : pb === null ? -1 : pb > pa ? 1 : -1;
    });
  }
  const sortBy = q?.sort ?? 'last_seen';
  const sortLinks = {
    last_seen: { href: keep({ sort: undefined, before: undefined }), active: !by && sortBy === 'last_seen' },
    messages: { href: keep({ sort: 'messages', before: undefined }), active: !by && sortBy === 'messages' },
    rounds: { href: keep({ by: 'rounds' }), active: by === 'rounds' },
    price: { href: keep({ by: 'price' }), active: by === 'price' },
    outcome: { href: keep({ by: 'outcome' }), active: by === 'outcome' },
  };
  return (
    <>
      <header className="page-head">
        <div>
          <h1>Conversations</h1>
          <p className="muted">
            By {by ? `${by} within this page` : SORT_LABEL[q?.sort ?? 'last_seen']}, highest first
            {q?.before ? ' (continued)' : ''}. The filter is in the URL: copy it to share this view. Notaries and notary
            bidders are not parties: they are listed on each conversation&apos;s page.
          </p>
        </div>
      </header>
      <section className="card" style={{ marginBottom: 16 }}>
        <form className="filters" method="get" action="/conversations" data-testid="conversation-filters">
          <label>
            Agent{' '}
            <input name="agent" defaultValue={raw.agent ?? ''} placeholder="hex or base58" size={20} className="mono" />
          </label>
          <label>
            State{' '}
            <select name="state" defaultValue={raw.state ?? ''}>
              <option value="">any</option>
              {CONVERSATION_STATES.map((s) => (
                <option key={s} value={s}>
                  {STAGE_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Outcome{' '}
            <select name="outcome" defaultValue={raw.outcome ?? ''}>
              <option value="">any</option>
              {CONVERSATION_OUTCOMES.map((s) => (
                <option key={s} value={s}>
                  {OUTCOME_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Window{' '}
            <select name="range" defaultValue={raw.range ?? ''}>
              <option value="">all time / custom</option>
              <option value="1h">last hour</option>
              <option value="24h">last 24 h</option>
              <option value="7d">last 7 days</option>
            </select>
          </label>
          <ZonedDateInput label="From" name="from" ms={q?.from} />
          <ZonedDateInput label="To" name="to" ms={q?.to} />
          <label>
            Sort by{' '}
            <select name="sort" defaultValue={raw.sort ?? 'last_seen'}>
              {CONVERSATION_SORTS.map((s) => (
                <option key={s} value={s}>
                  {SORT_LABEL[s]}
                </option>
              ))}
            </select>
          </label>
          <label>
            Per page <input name="limit" defaultValue={raw.limit ?? '50'} size={4} />
          </label>
          <button type="submit">Apply</button>
          <Link href="/conversations" className="small">
            reset
          </Link>
        </form>
        <p className="small muted" style={{ margin: '10px 0 0' }}>
          Quick:{' '}
          {(['1h', '24h', '7d'] as const).map((r) => (
            <Link
              key={r}
              href={keep({ range: r, from: undefined, to: undefined, before: undefined })}
              style={{ marginRight: 10 }}
            >
              {r}
            </Link>
          ))}
          <Link href={keep({ outcome: 'agreed', before: undefined })} style={{ marginRight: 10 }}>
            agreed
          </Link>
          <Link href={keep({ outcome: 'disputed', before: undefined })} style={{ marginRight: 10 }}>
            disputed
          </Link>
          <Link href={keep({ state: 'feedback_without_deal', before: undefined })}>
            {STAGE_LABELS.feedback_without_deal}
          </Link>
        </p>
      </section>
      <section className="card">
        {error ? (
          <p className="notice" role="alert">
            Bad filter: {error}
          </p>
        ) : (
          <ConversationList conversations={rows} deals={deals} sort={sortLinks} />
        )}
        {page?.next && (
          <p style={{ marginTop: 12 }}>
            {raw.before && (
              <Link href={keep({ before: undefined })} style={{ marginRight: 12 }}>
                ← first page
              </Link>
            )}
            <Link href={keep({ before: page.next })} data-testid="next-page">
              Next page →
            </Link>
          </p>
        )}
      </section>
    </>
  );
}
