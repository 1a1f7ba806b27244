'use client';
/**
 * An action's phases as they happen: built, simulated, awaiting signature, sent, then confirmed,
 * failed (with the program's error in a sentence, its name and the program logs) or rejected
 * (nothing sent). Each signature is shown in full.
 */
import type { ActionView } from './useAction';
import type { Phase } from './run-action';

const STEPS: { phase: Phase; label: string }[] = [
  { phase: 'built', label: 'built' },
  { phase: 'simulated', label: 'simulated' },
  { phase: 'awaiting-signature', label: 'awaiting signature' },
  { phase: 'sent', label: 'sent' },
];

export function ActionPhases({ view }: { view: ActionView | null }) {
  if (!view) return null;
  const seen = new Set(view.events.map((e) => e.phase));
  const last = view.events[view.events.length - 1];
  const end = last && (last.phase === 'confirmed' || last.phase === 'failed' || last.phase === 'rejected') ? last : null;
  return (
    <div className={`phases ${end ? `phases-${end.phase}` : ''}`} data-testid="action-phases" data-run={view.run} data-phase={last?.phase ?? 'building'}>
      <div className="phases-head"><strong>{view.label}</strong></div>
      <ol className="phase-steps">
        {STEPS.map((s) => (
          <li key={s.phase} className={seen.has(s.phase) ? 'done' : ''} data-testid={`phase-${s.phase}`}>{seen.has(s.phase) ? '✓' : '·'} {s.label}</li>
        ))}
        <li className={end ? `end-${end.phase}` : ''} data-testid="phase-end">{end ? (end.phase === 'confirmed' ? '✓ confirmed' : end.phase === 'rejected' ? '✗ rejected' : '✗ failed') : '· confirmed'}</li>
      </ol>
      {last?.signatures.length ? (
        <div className="small">signature{last.signatures.length > 1 ? 's' : ''}: {last.signatures.map((s) => <code key={s} className="mono sig" data-testid="action-signature">{s}</code>)}</div>
      ) : null}
      {end?.error ? <p className={end.phase === 'rejected' ? 'warn-text' : 'bad-text'} data-testid="action-error" data-error-name={end.errorName ?? ''}>{end.error}</p> : null}
      {end?.phase === 'failed' && end.logs?.length ? (
        <details open>
          <summary className="small">program logs</summary>
          <pre className="logs mono" data-testid="action-logs">{end.logs.join('\n')}</pre>
        </details>
      ) : null}
    </div>
  );
}
