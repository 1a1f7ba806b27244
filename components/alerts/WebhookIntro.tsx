/**
 * What the webhook form says before anyone types: where alerts go, and that receivers on the
 * server's own machine or network are refused unless its operator allows them, with the refusal
 * the API gives.
 */
import { Term } from '../Term';
import { PRIVATE_REFUSAL_EXAMPLE } from './api';

export function WebhookIntro() {
  return (
    <>
      <p className="muted small">
        Every alert of this list, when it opens and when it clears, is also sent to these addresses.
      </p>
      <p className="muted small" data-testid="webhook-private-note">
        The receiver must be reachable from the public internet: this server refuses{' '}
        <Term k="privateAddress">private addresses</Term> such as <span className="mono">localhost</span>,{' '}
        <span className="mono">127.0.0.1</span> or <span className="mono">192.168.x.x</span>, answering &ldquo;
        {PRIVATE_REFUSAL_EXAMPLE}&rdquo;. Its operator can allow them, for a local test, by starting it with{' '}
        <span className="mono">ALERT_WEBHOOK_ALLOW_PRIVATE=1</span>.
      </p>
    </>
  );
}
