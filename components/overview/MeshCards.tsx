'use client';
/** The overview's graph of agents and conversations, with envelopes per type and drops per reason beside it. */
import Link from 'next/link';
import { MSG_TYPE_NAMES } from '../../lib/wire';
import { CountTable } from '../CountTable';
import { dropReasonLabel } from '../drop-reasons';
import { dropReasonText } from '../glossary';
import { ForceGraph } from '../graph/ForceGraph';
import type { OverviewState } from '../live-state';

export function MeshCards({ state, replaying }: { state: OverviewState; replaying: boolean }) {
  return (
    <div className="grid-main">
      <section className="card graph-card">
        <h2>Agents and conversations</h2>
        {state.graph.nodes.length === 0 ? <p className="muted empty">No agents seen yet.</p> : null}
        <ForceGraph graph={state.graph} pulses={state.pulses} />
        <p className="muted small">
          Circles are agents (hollow: offline); a line joins two agents in conversation, thicker with more messages and
          flashing on each one. Scroll or pinch to zoom, drag the background to pan, drag an agent to move it, click it
          to open.
        </p>
      </section>
      <div className="stack">
        <section className="card">
          <h2>Envelopes per type</h2>
          <CountTable
            counts={state.stats.byType}
            keys={MSG_TYPE_NAMES}
            label="Envelopes per type"
            testId="counts-by-type"
          />
        </section>
        <section className="card">
          <h2>Drops per reason</h2>
          {replaying ? (
            <p className="muted empty">Drops are not stored per envelope time, so a replay cannot show them.</p>
          ) : (
            <CountTable
              counts={state.stats.drops}
              label="Drops per reason"
              testId="drops-by-reason"
              tone="warn"
              empty="No drops."
              describe={dropReasonText}
              name={dropReasonLabel}
            />
          )}
          <p className="small muted">
            <Link href="/glossary#drops">What each reason means</Link>
          </p>
        </section>
      </div>
    </div>
  );
}
