'use client';
/**
 * One piece of a dispute's evidence checked in place: the envelope page's own verifier
 * (components/verify/EnvelopeVerifier.tsx), mounted only when asked, so a page of evidence does not
 * start a chain read per envelope on load.
 */
import { useState } from 'react';
import Link from 'next/link';
import type { SatiAddressesView } from '../../lib/wire';
import { EnvelopeVerifier } from '../verify/EnvelopeVerifier';

export function InlineEnvelopeCheck({ id, rpcUrl, sati = null }: { id: string; rpcUrl: string | null; sati?: SatiAddressesView | null }) {
  const [open, setOpen] = useState(false);
  return (
    <div className="evidence-check">
      <button type="button" className="theme-toggle" onClick={() => setOpen((v) => !v)} aria-expanded={open} data-testid="evidence-check">
        {open ? 'hide check' : 'check here'}
      </button>{' '}
      <Link href={`/envelopes/${id}`} prefetch={false} className="small">verify page</Link>
      {open ? <div className="evidence-verifier"><EnvelopeVerifier id={id} rpcUrl={rpcUrl} sati={sati} /></div> : null}
    </div>
  );
}
