'use client';
/**
 * The agent page's collusion section, read on request: the signals are computed over windows of
 * the whole mesh's newest rows (GET /api/collusion, a heavy read of a second or more on a large
 * store), so the page does not pay for them on every view; the reader asks, and the answer is
 * this agent's signals in a few lines (AgentCollusionSummary) with the evidence one click away.
 */
import Link from 'next/link';
import { useState } from 'react';
import { type CollusionView, CollusionViewSchema } from '../../lib/wire/collusion';
import { AgentCollusionSummary } from '../collusion/CollusionTables';

type State =
  | { phase: 'idle' }
  | { phase: 'reading' }
  | { phase: 'done'; v: CollusionView }
  | { phase: 'failed'; why: string };

export function AgentCollusion({
  agent,
  agentAddress,
  chain,
}: {
  agent: string;
  agentAddress: string;
  chain: boolean;
}) {
  const [s, set] = useState<State>({ phase: 'idle' });
  const href = `/collusion?agent=${agentAddress}`;
  const read = async () => {
    set({ phase: 'reading' });
    try {
      const r = await fetch(`/api/collusion?agent=${agent}&limit=20`, { cache: 'no-store' });
      const body: unknown = await r.json();
      if (!r.ok) throw new Error((body as { error?: string } | null)?.error ?? `HTTP ${r.status}`);
      set({ phase: 'done', v: CollusionViewSchema.parse(body) });
    } catch (e) {
      set({ phase: 'failed', why: (e as Error).message });
    }
  };
  if (s.phase === 'done') return <AgentCollusionSummary v={s.v} agent={agent} chain={chain} href={href} />;
  return (
    <div data-testid="agent-collusion-ask">
      <p className="muted small" style={{ marginTop: 0 }}>
        Reciprocal feedback, counterparty concentration, notary reuse and ratings from agents without deals, read over
        the mesh&apos;s newest rows when you ask.
      </p>
      <p className="small">
        <button
          type="button"
          className="btn small"
          data-testid="read-collusion"
          onClick={() => void read()}
          disabled={s.phase === 'reading'}
        >
          {s.phase === 'reading' ? 'Reading the signals…' : "Read this agent's signals"}
        </button>{' '}
        <Link href={href} prefetch={false}>
          or open them with the other agents →
        </Link>
      </p>
      {s.phase === 'failed' ? (
        <p className="notice" role="alert">
          The collusion signals could not be read: {s.why}
        </p>
      ) : null}
    </div>
  );
}
