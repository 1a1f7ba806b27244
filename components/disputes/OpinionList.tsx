'use client';
/**
 * Reviewers' opinions on one dispute, each re-checked in this browser (lib/verify/dispute-opinion.ts):
 * the signed text must be this dispute's review with the opinion and note shown, and the Ed25519
 * signature the reviewer's. The server's word is not taken: a ✗ means the stored row does not hold.
 * An opinion of a reviewer the deployment does not name (DISPUTE_REVIEWERS) is shown as such: it is
 * kept and checkable, but moves neither the dispute's status nor any count.
 */
import { useEffect, useState } from 'react';
import { checkDisputeOpinion } from '../../lib/verify/dispute-opinion';
import type { VerifyStep } from '../../lib/verify/steps';
import type { DisputeOpinionView } from '../../lib/wire/disputes';
import { CopyId } from '../CopyId';
import { Time } from '../time/Time';
import { StepList } from '../verify/StepList';
import './disputes.css';

const WORDS = { upheld: 'upheld', rejected: 'rejected', unclear: 'unclear' } as const;
const short = (s: string) => (s.length > 12 ? `${s.slice(0, 5)}…${s.slice(-4)}` : s);

export function OpinionList({ disputeId, opinions }: { disputeId: string; opinions: DisputeOpinionView[] }) {
  const [checks, setChecks] = useState<Record<string, { ok: boolean; steps: VerifyStep[] }> | null>(null);
  useEffect(() => {
    setChecks(Object.fromEntries(opinions.map((o) => [o.reviewer, checkDisputeOpinion(disputeId, o)])));
  }, [disputeId, opinions]);
  if (opinions.length === 0)
    return (
      <p className="muted empty" data-testid="no-opinions">
        No reviewer has recorded an opinion yet.
      </p>
    );
  return (
    <ul className="opinion-list" data-testid="opinions">
      {opinions.map((o) => {
        const c = checks?.[o.reviewer];
        return (
          <li
            key={o.reviewer}
            className="opinion"
            data-testid="opinion"
            data-reviewer={o.reviewer}
            data-opinion={o.opinion}
            data-verified={c ? String(c.ok) : 'checking'}
            data-counted={String(o.counted)}
          >
            <div className="opinion-head">
              <span className={`badge opinion-${o.opinion}`}>{WORDS[o.opinion]}</span>
              <span className="agent-id">
                <span className="agent-short mono" title={o.reviewer} data-testid="opinion-reviewer">
                  {short(o.reviewer)}
                </span>
                <CopyId value={o.reviewer} what="reviewer address" />
              </span>
              <span className="small muted">
                signed <Time ms={Date.parse(o.signedAt)} />
              </span>
              {o.counted ? null : (
                <span
                  className="small muted"
                  data-testid="opinion-not-counted"
                  title={
                    'Only opinions of the reviewers this deployment names (DISPUTE_REVIEWERS) ' +
                    "move a dispute's status and the counts; anyone can sign an " +
                    'opinion, so the others are kept and shown but count for nothing.'
                  }
                >
                  {o.notCounted ?? 'not counted: reviewer not named by this deployment'}
                </span>
              )}
              <span
                className={c ? (c.ok ? 'verify-ok-title' : 'verify-bad-title') : 'muted'}
                data-testid="opinion-check"
                title="checked in this browser"
              >
                {c ? (c.ok ? '✓ signature verified in your browser' : '✗ does not verify') : 'checking…'}
              </span>
            </div>
            {o.note ? <p className="opinion-note">{o.note}</p> : null}
            <details className="small">
              <summary>signed text and checks</summary>
              <pre className="mono opinion-text">{o.message}</pre>
              <p className="mono small verify-detail">signature {o.signature}</p>
              {c ? <StepList steps={c.steps} testId="opinion-steps" /> : null}
            </details>
          </li>
        );
      })}
    </ul>
  );
}
