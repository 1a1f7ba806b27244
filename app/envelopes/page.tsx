/**
 * /envelopes: stored envelopes newest first, filtered by msg_type, agent, conversation and time
 * window (presets 1h / 24h / 7d or custom from/to), cursor-paged. The filter is the query string,
 * checked by GET /api/envelopes's own schema, so a view is a link to share.
 */
import type { Metadata } from 'next';
import Link from 'next/link';
import { EnvelopeFeed } from '../../components/EnvelopeFeed';
import { ZonedDateInput } from '../../components/time/ZonedDateInput';
import { EnvelopesQuerySchema, MSG_TYPE_NAMES, TIME_PRESETS } from '../../lib/wire';
import { agentHex } from '../../lib/wire/agent-id';
import { loadEnvelopes } from '../_lib/data';
import { NotRunning } from '../_lib/not-running';
import { flatParams, type SearchParams, withParams } from '../_lib/query-string';
import { getServices } from '../_lib/services';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Envelopes' };

export default async function EnvelopesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const o = getServices();
  if (!o) return <NotRunning />;
  const raw = flatParams(await searchParams);
  // The form sends unix ms in the viewer's zone; without scripts its datetime-local text, read as UTC.
  for (const k of ['from', 'to'] as const)
    if (raw[k] && !/^\d+$/.test(raw[k])) raw[k] = String(Date.parse(`${raw[k]}Z`));
  const parsed = EnvelopesQuerySchema.strict().safeParse(raw);
  // The agent may be typed in base58 (as shown on every page); the store reads hex.
  const agent = parsed.success && parsed.data.agent !== undefined ? agentHex(parsed.data.agent) : undefined;
  const q = parsed.success && agent !== null ? { ...parsed.data, agent } : null;
  const both = q?.range && (q.from !== undefined || q.to !== undefined);
  const page =
    q && !both
      ? await loadEnvelopes(o, { ...q, fromMs: q.range ? Date.now() - TIME_PRESETS[q.range] : q.from, toMs: q.to })
      : null;
  const error = !parsed.success
    ? parsed.error.issues.map((i) => `${i.path.join('.') || 'query'}: ${i.message}`).join('; ')
    : agent === null
      ? 'agent: not a 32-byte agent id'
      : both
        ? 'give either a preset window or from/to, not both'
        : null;
  return (
    <>
      <header className="page-head">
        <div>
          <h1>Envelopes</h1>
          <p className="muted">Newest first. The filter is in the URL: copy it to share this view.</p>
        </div>
      </header>
      <section className="card" style={{ marginBottom: 16 }}>
        <form className="filters" method="get" action="/envelopes" data-testid="envelope-filters">
          <label>
            Type{' '}
            <select name="type" defaultValue={raw.type ?? ''}>
              <option value="">any</option>
              {MSG_TYPE_NAMES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <label>
            Agent{' '}
            <input name="agent" defaultValue={raw.agent ?? ''} placeholder="hex or base58" size={20} className="mono" />
          </label>
          <label>
            Conversation{' '}
            <input
              name="conversation"
              defaultValue={raw.conversation ?? ''}
              placeholder="32 hex"
              size={16}
              className="mono"
            />
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
            Per page <input name="limit" defaultValue={raw.limit ?? ''} placeholder="50" size={4} />
          </label>
          <button type="submit">Apply</button>
          <Link href="/envelopes" className="small">
            reset
          </Link>
        </form>
      </section>
      <section className="card">
        {error ? (
          <p className="notice" role="alert">
            Bad filter: {error}
          </p>
        ) : (
          <EnvelopeFeed envelopes={page!.envelopes} empty="No envelope matches this filter." />
        )}
        {page?.next && (
          <p style={{ marginTop: 12 }}>
            <Link href={withParams('/envelopes', raw, { before: page.next })} data-testid="next-page">
              Older →
            </Link>
          </p>
        )}
      </section>
    </>
  );
}
