/**
 * The conversation page's flight recorder section: chart, the task's timeline beside it, the
 * numbers in words, and the receipt download (or why there is none yet).
 */
import Link from 'next/link';
import type { NegotiationView } from '../../lib/wire';
import { FlightChart } from './FlightChart';
import { NegotiationNumbers } from './NegotiationNumbers';
import { Timeline } from './Timeline';

export function NegotiationRecorder({
  v,
  receiptMissing,
  nameOf,
}: {
  v: NegotiationView;
  receiptMissing: string | null;
  /** Agents by the name the rest of the site shows (app/_lib/names.ts agentNameResolver). */
  nameOf?: (hex: string) => string;
}) {
  return (
    <section
      className="card nego-recorder"
      style={{ marginBottom: 16 }}
      data-testid="flight-recorder"
      data-outcome={v.outcome}
    >
      <div className="nego-head">
        <h2>Negotiation flight recorder</h2>
        {receiptMissing === null ? (
          <span>
            <a
              className="button"
              href={`/api/conversations/${v.conversationId}/receipt`}
              download
              data-testid="download-receipt"
            >
              Download receipt
            </a>{' '}
            <Link className="small" href="/receipts/verify">
              verify a receipt
            </Link>
          </span>
        ) : (
          <span className="muted small" data-testid="no-receipt">
            No receipt: {receiptMissing}
          </span>
        )}
      </div>
      <div className="nego-grid">
        <div>
          <FlightChart v={v} nameOf={nameOf} />
          <NegotiationNumbers v={v} nameOf={nameOf} />
        </div>
        <div>
          <h2>Timeline</h2>
          <Timeline items={v.timeline} />
        </div>
      </div>
    </section>
  );
}
