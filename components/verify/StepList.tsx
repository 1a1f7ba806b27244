/** A verifier's steps, each passed, failed or not reached, by name (lib/verify VerifyStep). */
import type { VerifyStep } from '../../lib/verify/steps';
import { whyFailed } from './why';

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
              {state === 'fail' ? (
                <span className="verify-why" data-testid="verify-why">
                  {whyFailed(s.name)}
                </span>
              ) : null}
              {state === 'skipped' ? (
                <span className="verify-why muted">Not checked: an earlier step it depends on failed.</span>
              ) : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
