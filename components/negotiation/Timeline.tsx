/**
 * The whole task in order (lib/wire TimelineItem): DISCOVER/ADVERTISE, PROPOSE … ACCEPT/REJECT,
 * DELIVER, the notary auction, VERDICT, DISPUTE, FEEDBACK, each with a link to verify the
 * envelope in the browser.
 */
import Link from 'next/link';
import type { TimelineItem } from '../../lib/wire';
import { AgentLink } from '../EnvelopeFeed';

const TONE = { neutral: 'var(--muted)', good: 'var(--good)', bad: 'var(--bad)' } as const;

export function Timeline({ items }: { items: TimelineItem[] }) {
  if (items.length === 0) return <p className="muted empty">No messages.</p>;
  const t0 = items[0].timestampMs;
  // Demo agents haggle within a second: offsets in ms then, in seconds for longer tasks.
  const span = items[items.length - 1].timestampMs - t0;
  const offset = (ms: number) => (span < 10_000 ? `+${Math.round(ms - t0)}ms` : `+${((ms - t0) / 1000).toFixed(1)}s`);
  return (
    <ol className="nego-timeline" data-testid="timeline">
      {items.map((it) => (
        <li key={it.envelopeId} data-type={it.type}>
          <span className="nego-dot" style={{ background: TONE[it.tone] }} />
          <span className="mono muted small nego-t">{offset(it.timestampMs)}</span>
          <span className="nego-type mono small">{it.type}</span>
          {/* An int128 amount is 50 characters without a break: it wraps rather than running out of the card. */}
          <span className="nego-text" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
            <AgentLink id={it.sender} /> {it.text}
          </span>
          <Link className="small nego-verify" prefetch={false} href={`/envelopes/${it.envelopeId}`}>
            verify
          </Link>
        </li>
      ))}
    </ol>
  );
}
