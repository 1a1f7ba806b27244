/**
 * The overview's compact view of the economy: the last finished minute's rate and active agents,
 * the last hour's negotiations and agreement rate, and the way to /stats for the rest.
 */
import Link from 'next/link';
import { grouped, percent } from './StatsChart';
import './stats.css';

/** The last hour at a glance: exact counts, rates to two decimals of a percent. */
export interface StatsStripProps {
  /** Envelopes/s and active agents in the last finished minute (decimal strings). */
  envelopesPerS: string;
  activeAgents: string;
  /** Over the last hour. */
  opened: string;
  agreed: string;
  /** agreed ÷ (agreed + rejected + expired) over the hour, four decimals; null when none ended. */
  agreementRate: string | null;
  /** Start of the last finished minute, ISO UTC. */
  minute: string;
}

export function StatsStrip({ v }: { v: StatsStripProps }) {
  const minute = `the minute from ${v.minute.slice(11, 16)} UTC`;
  const cells: [string, string, string][] = [
    [`${grouped(v.envelopesPerS)}`, 'envelopes/s', `Stored envelopes per second in ${minute}.`],
    [grouped(v.activeAgents), 'active agents', `Distinct agents that sent an envelope in ${minute}.`],
    [grouped(v.opened), 'opened, last hour', 'PROPOSE envelopes in the last hour.'],
    [grouped(v.agreed), 'agreed, last hour', 'ACCEPT envelopes in the last hour.'],
    [v.agreementRate === null ? 'unknown' : percent(v.agreementRate), 'agreement rate, last hour',
      v.agreementRate === null ? 'No negotiation was agreed, rejected or expired in the last hour: nothing to divide.' : 'Agreed ÷ (agreed + rejected + expired) in the last hour.'],
  ];
  return (
    <section className="stats-strip" aria-label="Economy at a glance" data-testid="stats-strip">
      {cells.map(([value, label, help]) => (
        <div key={label} className="cell" title={help}>
          <div className="v">{value}</div>
          <div className="l">{label}</div>
        </div>
      ))}
      <div className="more"><Link href="/stats">Economy over time →</Link></div>
    </section>
  );
}
