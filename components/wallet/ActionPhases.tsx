'use client';
/**
 * An action's phases as they happen: built, previewed (simulated: the balance changes it will
 * make, the accounts it creates or closes with their rent, what is at stake; then Sign or
 * Cancel), awaiting signature, sent, then confirmed, failed (with the error in a sentence, its
 * name and the program logs closed under "details"; "nothing was sent" when it failed before sending) or rejected /
 * cancelled (nothing sent). Each signature links to the explorer.
 */
import { explorerTx } from '../../lib/chain/explorer';
import { useSite } from '../site';
import { TimedText } from '../time/TimedText';
import { shortAddress, sol, usdc } from './format';
import { ProgramLogs } from './ProgramLogs';
import { type Preview, solTerms } from './preview';
import type { Phase } from './run-action';
import type { ActionView } from './useAction';

const STEPS: { phase: Phase; label: string }[] = [
  { phase: 'built', label: 'built' },
  { phase: 'simulated', label: 'previewed' },
  { phase: 'awaiting-signature', label: 'awaiting signature' },
  { phase: 'sent', label: 'sent' },
];

const RENT_TIP =
  'Rent: the SOL an account must hold to exist on Solana. It is not a fee: it stays in ' +
  'the account and comes back to whoever the program names when the account is closed.';

/** "+0.002 SOL" / "−0.000005 SOL": signed and exact. */
export function signedSol(l: bigint): string {
  return `${l < 0n ? '−' : l > 0n ? '+' : '±'}${sol(l < 0n ? -l : l)}`;
}
export function signedUsdc(b: bigint): string {
  return `${b < 0n ? '−' : b > 0n ? '+' : '±'}${usdc(b < 0n ? -b : b)}`;
}

export function PreviewBox({ p, decide }: { p: Preview; decide?: (ok: boolean) => void }) {
  const created = p.accounts.filter((a) => a.kind === 'created');
  const closed = p.accounts.filter((a) => a.kind === 'closed');
  return (
    <div
      className="preview"
      data-testid="action-preview"
      data-sol-change={p.solChange.toString()}
      data-usdc-change={p.usdcChange?.toString() ?? ''}
      data-fees={p.fees.toString()}
      data-rent-paid={p.rentPaid.toString()}
      data-rent-back={p.rentBack.toString()}
    >
      <div className="preview-line">
        <strong>SOL</strong>{' '}
        <span className="mono" data-testid="preview-sol">
          {signedSol(p.solChange)}
        </span>
        <span className="small muted">
          {' '}
          =
          {solTerms(p).map((t) => (
            <span key={t.label}>
              {' '}
              {t.sign}
              {sol(t.lamports)}{' '}
              {t.label === 'rent' ? (
                <span className="tip" title={RENT_TIP}>
                  rent
                </span>
              ) : (
                t.label
              )}
              {t.note ? ` (${t.note})` : ''}
            </span>
          ))}
        </span>
      </div>
      <div className="preview-line">
        <strong>USDC</strong>{' '}
        <span className="mono" data-testid="preview-usdc">
          {p.usdcChange === null ? 'unknown' : signedUsdc(p.usdcChange)}
        </span>
        {p.usdcUnknown ? <span className="small muted"> ({p.usdcUnknown})</span> : null}
      </div>
      {created.length || closed.length ? (
        <ul className="preview-accounts small">
          {created.map((a) => (
            <li key={a.address} data-testid="preview-created">
              <span className="good-text">creates</span> {a.label}{' '}
              <span className="mono" title={a.address}>
                {shortAddress(a.address)}
              </span>
              : rent {sol(a.lamports)} SOL, {a.rentBack ? `back ${a.rentBack}` : 'not returned (the account stays)'}
            </li>
          ))}
          {closed.map((a) => (
            <li key={a.address} data-testid="preview-closed">
              <span className="warn-text">closes</span> {a.label}{' '}
              <span className="mono" title={a.address}>
                {shortAddress(a.address)}
              </span>
              : {sol(a.lamports)} SOL of rent returned
            </li>
          ))}
        </ul>
      ) : null}
      {p.outcome ? (
        <div
          className="preview-outcome"
          data-testid="preview-outcome"
          data-target-stake={p.outcome.targetStake?.toString() ?? 'unknown'}
          data-gets={p.outcome.gets?.toString() ?? 'unknown'}
        >
          <div className="small" data-testid="preview-target-stake">
            {p.outcome.stakeText}
          </div>
          <div className="small" data-testid="preview-expected">
            <strong>{p.outcome.outcomeText}</strong>
          </div>
        </div>
      ) : null}
      {p.stakes.length ? (
        <ul className="preview-stakes small" data-testid="preview-stakes">
          {p.stakes.map((s) => (
            <li key={s}>
              <TimedText text={s} />
            </li>
          ))}
        </ul>
      ) : null}
      {decide ? (
        <div className="preview-decide">
          <button type="button" className="btn" data-testid="preview-sign" onClick={() => decide(true)}>
            Sign in wallet
          </button>{' '}
          <button type="button" className="btn ghost" data-testid="preview-cancel" onClick={() => decide(false)}>
            Cancel
          </button>
          <span className="small muted"> Nothing is sent before you sign.</span>
        </div>
      ) : null}
    </div>
  );
}

export function ActionPhases({ view }: { view: ActionView | null }) {
  const { explorer } = useSite();
  if (!view) return null;
  const seen = new Set(view.events.map((e) => e.phase));
  const last = view.events[view.events.length - 1];
  const end = last && ['confirmed', 'failed', 'rejected', 'cancelled'].includes(last.phase) ? last : null;
  const preview = last?.preview;
  const endText = !end
    ? '· confirmed'
    : end.phase === 'confirmed'
      ? '✓ confirmed'
      : end.phase === 'rejected'
        ? '✗ rejected'
        : end.phase === 'cancelled'
          ? '✗ cancelled'
          : '✗ failed';
  return (
    <div
      className={`phases ${end ? `phases-${end.phase}` : ''}`}
      data-testid="action-phases"
      data-run={view.run}
      data-phase={view.decide ? 'previewed' : (last?.phase ?? 'building')}
    >
      <div className="phases-head">
        <strong>{view.label}</strong>
      </div>
      <ol className="phase-steps">
        {STEPS.map((s) => (
          <li key={s.phase} className={seen.has(s.phase) ? 'done' : ''} data-testid={`phase-${s.phase}`}>
            {seen.has(s.phase) ? '✓' : '·'} {s.label}
          </li>
        ))}
        <li className={end ? `end-${end.phase}` : ''} data-testid="phase-end">
          {endText}
        </li>
      </ol>
      {preview ? <PreviewBox p={preview} decide={view.decide} /> : null}
      {end?.outcome ? (
        <p className="good-text" data-testid="action-outcome">
          {end.outcome}
        </p>
      ) : null}
      {last?.signatures.length ? (
        <div className="small">
          signature{last.signatures.length > 1 ? 's' : ''}:{' '}
          {last.signatures.map((s) =>
            explorer && explorerTx(s, explorer) ? (
              <a
                key={s}
                className="mono sig"
                data-testid="action-signature"
                href={explorerTx(s, explorer)!}
                target="_blank"
                rel="noreferrer"
                title="open in Solana Explorer"
              >
                {s}
              </a>
            ) : (
              <span key={s} className="mono sig" data-testid="action-signature">
                {s}
              </span>
            ),
          )}
        </div>
      ) : null}
      {end?.error ? (
        <p
          className={end.phase === 'rejected' || end.phase === 'cancelled' ? 'warn-text' : 'bad-text'}
          data-testid="action-error"
          data-error-name={end.errorName ?? ''}
          data-nothing-sent={end.nothingSent ? 'true' : undefined}
        >
          {end.error}
        </p>
      ) : null}
      {end?.phase === 'failed' && end.logs?.length ? <ProgramLogs logs={end.logs} /> : null}
    </div>
  );
}
