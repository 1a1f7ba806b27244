/**
 * How much of an agent's gossip score comes from unbacked feedback (components/glossary.ts
 * `unbackedFeedback`): a sentence for the agent page, a short figure for the agents list.
 */
import { unbackedPercent } from '../../lib/protocol/reputation-backing';
import { scorePoints } from '../../lib/wire/score';
import type { AgentView } from '../../lib/wire/views';
import { Term } from '../Term';

type Backing = NonNullable<AgentView['backing']>;
// Score points, the unit of every other reliability on the pages (lib/wire/score.ts).
const reliability = (v: string) => scorePoints(v, 3);

/**
 * "12 of 40 FEEDBACK (30 %) about this agent come from identities with no stake and no deal with it; without them …".
 */
export function BackingSentence({ b, reliabilityNow }: { b: Backing; reliabilityNow: string | null }) {
  if (b.feedback === 0) return null;
  const pct = unbackedPercent(b.feedback, b.unbacked);
  return (
    <p className="small muted" data-testid="reputation-backing" data-unbacked={b.unbacked} data-feedback={b.feedback}>
      {b.unbacked === 0 ? (
        <>
          All {b.feedback} FEEDBACK about this agent come from identities with a stake or a deal with it (none{' '}
          <Term k="unbackedFeedback">unbacked</Term>).
        </>
      ) : (
        <>
          {b.unbacked} of {b.feedback} FEEDBACK ({pct} %) about this agent come from identities with no stake and no
          deal with it (<Term k="unbackedFeedback">unbacked</Term>)
          {b.reliabilityWithout !== null && reliabilityNow !== null ? (
            <>
              <span>; without them its reliability would be</span>{' '}
              <span className="mono">{reliability(b.reliabilityWithout)}</span> instead of{' '}
              <span className="mono">{reliability(reliabilityNow)}</span>.
            </>
          ) : (
            '.'
          )}
        </>
      )}
    </p>
  );
}

/** The unbacked share as a short figure for a table cell, with the definition as its tooltip. */
export function BackingShare({ b }: { b: Backing | null | undefined }) {
  if (!b || b.unbacked === 0) return null;
  return (
    <span
      className="small muted"
      data-testid="backing-share"
      title={
        `${b.unbacked} of ${b.feedback} FEEDBACK about this agent ` +
        `come from identities with no stake and no deal with it`
      }
    >
      {' '}
      ({unbackedPercent(b.feedback, b.unbacked)} % unbacked)
    </span>
  );
}
