/** A verifier's steps, each passed, failed or not reached, by name (lib/verify VerifyStep). */
import type { VerifyStep } from '../../lib/verify/steps';

export function StepList({ steps, testId }: { steps: VerifyStep[]; testId?: string }) {
  return (
    <ol className="verify-steps" data-testid={testId}>
      {steps.map((s) => {
        const state = s.ok ? 'pass' : s.skipped ? 'skipped' : 'fail';
        return (
          <li key={s.name} data-step={s.name} data-state={state} className={`verify-${state}`}>
            <span className="verify-mark">{s.ok ? '✓' : s.skipped ? '–' : '✗'}</span>
            <span>
              <b>{s.title}</b> <span className="mono muted small">{s.name}</span>
              <br />
              <span className="mono small verify-detail">{s.detail}</span>
            </span>
          </li>
        );
      })}
    </ol>
  );
}
