import type { Metadata } from 'next';
import Link from 'next/link';
import { ReceiptVerifier } from '../../../components/verify/ReceiptVerifier';
import { getServices } from '../../_lib/services';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Verify a Handshake receipt' };

/** The chain's RPC URL and SATI's addresses come from the server's configuration, never from the page's URL. */
export default function VerifyReceiptPage() {
  const chain = getServices()?.chain ?? null;
  return (
    <>
      <div className="crumbs">
        <Link href="/">Overview</Link> / verify a receipt
      </div>
      <header className="page-head">
        <div>
          <h1>Verify a Handshake receipt</h1>
          <p className="muted">
            A receipt is the dual-signed record of one deal: both parties&apos; envelopes from the first offer to the
            verdict and feedback, with each party&apos;s signer keys (canonical CBOR). Download one from a finished
            conversation&apos;s page. The check below runs entirely in this page: the file is not sent to any server.
            The keys written in the receipt are not taken on trust: this page asks the chain who may sign for each party
            (its SATI owner or a delegate with a valid DelegateV1 attestation).
          </p>
        </div>
      </header>
      <section className="card">
        <ReceiptVerifier rpcUrl={chain?.rpcUrl ?? null} sati={chain?.sati ?? null} />
      </section>
    </>
  );
}
