'use client';
/**
 * One row of a dispute's evidence, checkable in place: "check here" opens a full-width row under it
 * with the envelope page's own verifier (components/verify/EnvelopeVerifier.tsx), mounted only when
 * asked, so a page of evidence does not start a chain read per envelope on load.
 */
import Link from 'next/link';
import { useState } from 'react';
import type { SatiAddressesView } from '../../lib/wire';
import { EnvelopeVerifier } from '../verify/EnvelopeVerifier';

export function EvidenceRow({
  id,
  type,
  highlight,
  rpcUrl,
  sati = null,
  columns,
  children,
}: {
  id: string;
  type: string;
  highlight: boolean;
  rpcUrl: string | null;
  sati?: SatiAddressesView | null;
  /** Cells in the row, the check cell included: the verifier row spans them. */
  columns: number;
  /** The row's cells before the check cell (rendered on the server). */
  children: React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <tr data-envelope-id={id} data-type={type} className={highlight ? 'evidence-dispute' : undefined}>
        {children}
        <td>
          <span className="evidence-check">
            <button
              type="button"
              className="theme-toggle"
              onClick={() => setOpen((v) => !v)}
              aria-expanded={open}
              data-testid="evidence-check"
            >
              {open ? 'hide check' : 'check here'}
            </button>
            <Link href={`/envelopes/${id}`} prefetch={false} className="small">
              verify page
            </Link>
          </span>
        </td>
      </tr>
      {open ? (
        <tr className="evidence-verifier-row" data-verifies={id}>
          <td colSpan={columns}>
            <div className="evidence-verifier">
              <EnvelopeVerifier id={id} rpcUrl={rpcUrl} sati={sati} />
            </div>
          </td>
        </tr>
      ) : null}
    </>
  );
}
