/**
 * The overview's compact view of the economy: the last finished minute's rate and active agents
 * ("measuring" until the observer has received a whole minute), the last hour's negotiations and
 * agreement rate, and the way to /stats for the rest.
 */
import Link from 'next/link';
import type { StatsStripView } from '../../lib/wire/stats';
import { Time } from '../time/Time';
import { grouped, percent } from './StatsChart';
import './stats.css';

/** The strip's data (app/_lib/stats.ts builds it on the server). */
export type StatsStripProps = StatsStripView;

export function StatsStrip({ v }: { v: StatsStripProps }) {
  const minute = `the minute from ${v.minute.slice(11, 16)} UTC`;
  const measuring =
    `Measuring: the observer started at ${v.startedAt.slice(11, 19)} UTC and has not yet received a whole minute ` +
    `(a part of one would read low). The first ends at ${v.firstWholeMinuteEnds.slice(11, 16)} UTC.`;
  const hour = v.hourBeforeStart
    ? ` The observer started at ${v.startedAt.slice(11, 16)} UTC: before that, only what the database already held.`
    : '';
  // Said on the cell, not only in its tooltip: "measuring" alone would read as a broken figure.
  const until = (
    <div className="why">
      first whole minute ends <Time ms={Date.parse(v.firstWholeMinuteEnds)} date={false} />
    </div>
  );
  const cells: [string, string, string, React.ReactNode?][] = [
    v.envelopesPerS === null
      ? ['measuring', 'envelopes/s', measuring, until]
      : [grouped(v.envelopesPerS), 'envelopes/s', `Stored envelopes per second in ${minute}.`],
    v.activeAgents === null
      ? ['measuring', 'active agents', measuring, until]
      : [grouped(v.activeAgents), 'active agents', `Distinct agents that sent an envelope in ${minute}.`],
    [grouped(v.opened), 'opened, last hour', `PROPOSE envelopes in the last hour.${hour}`],
    [grouped(v.agreed), 'agreed, last hour', `ACCEPT envelopes in the last hour.${hour}`],
    [
      v.agreementRate === null ? 'unknown' : percent(v.agreementRate),
      'agreement rate, last hour',
      v.agreementRate === null
        ? 'No negotiation was agreed, rejected or expired in the last hour: nothing to divide.'
        : 'Agreed ÷ (agreed + rejected + expired) in the last hour.',
    ],
  ];
  return (
    <section className="stats-strip" aria-label="Economy at a glance" data-testid="stats-strip">
      {cells.map(([value, label, help, note]) => (
        <div key={label} className="cell" title={help} data-measuring={note ? '' : undefined}>
          <div className="v">{value}</div>
          <div className="l">{label}</div>
          {note}
        </div>
      ))}
      <div className="more">
        <Link href="/stats">Economy over time →</Link>
      </div>
    </section>
  );
}
