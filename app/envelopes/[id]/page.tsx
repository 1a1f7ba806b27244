import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { shortHex } from '../../../components/format';
import { EnvelopeVerifier } from '../../../components/verify/EnvelopeVerifier';
import { NotRunning } from '../../_lib/not-running';
import { getServices } from '../../_lib/services';

export const dynamic = 'force-dynamic';

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Verify envelope ${shortHex((await params).id, 8, 0)}` };
}

/**
 * Verify one envelope in the browser. The RPC URL is the chain this process is configured with
 * (server/config.ts: the embedded chain or SOLANA_RPC_URL), handed to the page by the server and
 * never read from the page's URL, so a link cannot point the verifier at a chain of its choosing.
 */
export default async function EnvelopePage({ params }: { params: Promise<{ id: string }> }) {
  const o = getServices();
  if (!o) return <NotRunning />;
  const id = (await params).id.toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(id)) notFound();
  const s = await o.reads.getEnvelope(Uint8Array.from(Buffer.from(id, 'hex')));
  if (!s) notFound();
  const conv = Buffer.from(s.envelope.conversationId).toString('hex');
  return (
    <>
      <div className="crumbs">
        <Link href="/">Overview</Link>
        {/^0+$/.test(conv) ? null : (
          <>
            {' '}
            / <Link href={`/conversations/${conv}`}>conversation</Link>
          </>
        )}{' '}
        / verify envelope
      </div>
      <header className="page-head">
        <div>
          <h1 className="mono" style={{ fontSize: 16 }}>
            {id}
          </h1>
          <p className="muted">
            Your browser fetches this envelope&apos;s bytes from us and trusts nothing else we say: it decodes them,
            recomputes the id and payload hash, asks the chain who holds the sender&apos;s identity NFT and checks the
            signature against that key, then checks the merkle proof of each epoch log holding it against the root the
            agent committed on chain.
          </p>
        </div>
      </header>
      <section className="card">
        <EnvelopeVerifier id={id} rpcUrl={o.chain?.rpcUrl ?? null} sati={o.chain?.sati ?? null} />
      </section>
    </>
  );
}
