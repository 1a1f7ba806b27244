'use client';
/**
 * A reviewer records an opinion on a dispute with their wallet (docs/app.md "Dispute desk"): the
 * page builds the canonical text (lib/wire/disputes.ts), shows it, and the connected Wallet
 * Standard wallet signs it with signMessage (Ed25519); the server rebuilds the text, checks the
 * signature and keeps it as this reviewer's current opinion. Signing a message moves nothing and
 * costs nothing: no transaction is built. Lives in components/wallet because only the wallet
 * island talks to the wallet adapter (docs/architecture.md).
 */
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import {
  DISPUTE_OPINIONS,
  type DisputeOpinionKind,
  disputeReviewMessage,
  REVIEW_NOTE_MAX,
  reviewNoteProblem,
} from '../../lib/wire/disputes';
import { ConnectWalletButton, useHasWallet, useMessageSigner, useMounted } from '../wallet/message-signer';
import './disputes.css';
import { toHex } from '../../lib/protocol/hex';

const MEANING: Record<DisputeOpinionKind, string> = {
  upheld: 'upheld: the disputer is right',
  rejected: 'rejected: the disputer is wrong',
  unclear: 'unclear: the evidence does not decide it',
};

type Phase =
  | { kind: 'idle' }
  | { kind: 'signing' }
  | { kind: 'sending' }
  | { kind: 'done'; stored: string; counted: boolean }
  | { kind: 'failed'; message: string };

export function DisputeReview({ disputeId }: { disputeId: string }) {
  if (!useHasWallet())
    return (
      <p className="muted small">
        This observatory runs without a chain, so there is no wallet connection here to sign a review with.
      </p>
    );
  return <Review disputeId={disputeId} />;
}

function Review({ disputeId }: { disputeId: string }) {
  const { address, signText } = useMessageSigner();
  const mounted = useMounted();
  const router = useRouter();
  const [opinion, setOpinion] = useState<DisputeOpinionKind | null>(null);
  const [note, setNote] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  if (!mounted) return <p className="muted small">Looking for wallets…</p>;
  if (!address) {
    return (
      <div className="review-form" data-testid="review-disconnected">
        <p className="small" style={{ margin: 0 }}>
          Connect a wallet to record your opinion. The wallet signs a short text naming this dispute, your opinion and
          note; nothing is sent on chain.
        </p>
        <div>
          <ConnectWalletButton />
        </div>
      </div>
    );
  }
  const trimmed = note.trim();
  const noteProblem = reviewNoteProblem(trimmed);
  const preview = disputeReviewMessage({
    dispute: disputeId,
    opinion: opinion ?? 'unclear',
    note: trimmed,
    at: '<the time you sign>',
  });
  const busy = phase.kind === 'signing' || phase.kind === 'sending';
  const submit = async () => {
    if (!opinion || noteProblem) return;
    if (!signText)
      return setPhase({
        kind: 'failed',
        message: 'This wallet cannot sign messages (it has no signMessage): nothing was recorded.',
      });
    const message = disputeReviewMessage({ dispute: disputeId, opinion, note: trimmed, at: new Date().toISOString() });
    setPhase({ kind: 'signing' });
    let signature: Uint8Array;
    try {
      signature = await signText(message);
    } catch (e) {
      return setPhase({
        kind: 'failed',
        message: `The wallet did not sign (${e instanceof Error ? e.message : String(e)}): nothing was recorded.`,
      });
    }
    setPhase({ kind: 'sending' });
    try {
      const res = await fetch(`/api/disputes/${disputeId}/opinions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reviewer: address, message, signature: toHex(signature) }),
      });
      const body = (await res.json().catch(() => null)) as {
        stored?: string;
        error?: string;
        opinion?: { counted?: boolean };
      } | null;
      if (!res.ok)
        return setPhase({
          kind: 'failed',
          message: `Not recorded: ${body?.error ?? `the server answered ${res.status}`}`,
        });
      setPhase({ kind: 'done', stored: body?.stored ?? 'saved', counted: body?.opinion?.counted !== false });
      setNote('');
      router.refresh();
    } catch (e) {
      setPhase({
        kind: 'failed',
        message: `Not recorded: the request failed (${e instanceof Error ? e.message : String(e)}).`,
      });
    }
  };
  return (
    <form
      className="review-form"
      data-testid="review-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <p className="small" style={{ margin: 0 }}>
        Reviewing as{' '}
        <span className="mono" style={{ overflowWrap: 'anywhere' }} title={address} data-testid="review-as">
          {address}
        </span>
        . Your newer opinion replaces an earlier one of yours.
      </p>
      <fieldset>
        <legend className="small muted">Opinion</legend>
        {DISPUTE_OPINIONS.map((k) => (
          <label key={k} className="small">
            <input
              type="radio"
              name="opinion"
              value={k}
              checked={opinion === k}
              onChange={() => setOpinion(k)}
              data-testid={`review-${k}`}
            />{' '}
            {MEANING[k]}
          </label>
        ))}
      </fieldset>
      <label className="small">
        Note (one line, at most {REVIEW_NOTE_MAX} characters; {[...trimmed].length} used)
        <input
          type="text"
          value={note}
          maxLength={REVIEW_NOTE_MAX}
          onChange={(e) => setNote(e.target.value)}
          data-testid="review-note"
          placeholder="What the evidence shows"
        />
      </label>
      {noteProblem ? (
        <p className="verify-bad-title small" role="alert">
          {noteProblem}
        </p>
      ) : null}
      <details className="small">
        <summary>the text your wallet will sign</summary>
        <pre className="mono opinion-text" data-testid="review-preview">
          {preview}
        </pre>
      </details>
      <div className="review-actions">
        <button
          type="submit"
          className="theme-toggle"
          disabled={!opinion || !!noteProblem || busy}
          data-testid="review-sign"
        >
          {phase.kind === 'signing'
            ? 'Waiting for the wallet…'
            : phase.kind === 'sending'
              ? 'Recording…'
              : 'Sign and record'}
        </button>
        {!opinion ? <span className="muted small">Pick an opinion first.</span> : null}
        {phase.kind === 'done' ? (
          <span className="verify-ok-title small" data-testid="review-result">
            Recorded ({phase.stored}).
          </span>
        ) : null}
        {phase.kind === 'done' && !phase.counted ? (
          <span className="muted small" data-testid="review-not-counted">
            Not counted: your wallet is not a reviewer this deployment names, so the dispute&apos;s status does not
            change.
          </span>
        ) : null}
        {phase.kind === 'failed' ? (
          <span className="verify-bad-title small" role="alert" data-testid="review-result">
            {phase.message}
          </span>
        ) : null}
      </div>
    </form>
  );
}
