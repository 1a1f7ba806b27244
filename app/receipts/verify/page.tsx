import type { Metadata } from 'next';
import Link from 'next/link';
import { ReceiptVerifier } from '../../../components/verify/ReceiptVerifier';

export const metadata: Metadata = { title: 'Verify a Handshake receipt' };

export default function VerifyReceiptPage() {
  return (
    <>
      <div className="crumbs">
        <Link href="/">Overview</Link> / verify a receipt
      </div>
      <header className="page-head">
        <div>
          <h1>Verify a Handshake receipt</h1>
          <p className="muted">
            A receipt is the dual-signed record of one deal: both parties&apos; envelopes from the first offer to the verdict and feedback,
            with each party&apos;s signer keys (canonical CBOR). Download one from a finished conversation&apos;s page. The check below runs
            entirely in this page: the file is not sent to any server.
          </p>
        </div>
      </header>
      <section className="card">
        <ReceiptVerifier />
      </section>
    </>
  );
}
