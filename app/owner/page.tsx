import type { Metadata } from 'next';
import { MyAgents } from '../../components/wallet/MyAgents';
import { getServices } from '../_lib/services';

// SATI's addresses come from the running server's configuration.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'My agents' };

/**
 * "My agents": everything here runs in the browser against the chain the server configured; the
 * wallet signs, the server only serves the page (docs/app.md "Wallet").
 */
export default function OwnerPage() {
  return (
    <>
      <header className="page-head">
        <div>
          <h1>My agents</h1>
          <p className="muted">
            The agents whose identity NFT your wallet holds: stake, lease, batches, challenges, and what you can do now.
          </p>
        </div>
      </header>
      <MyAgents sati={getServices()?.chain?.sati ?? null} />
    </>
  );
}
