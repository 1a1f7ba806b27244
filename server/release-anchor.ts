/**
 * The release scheduler's anchor poster (docs/datasets.md "Anchored releases"): a memo signed by
 * the release-signing key used as a Solana keypair, which pays the fee. On the embedded chain the
 * key is airdropped SOL when it has none; on a cluster the operator funds its address (logged at
 * start by server/datasets.ts as the key; its base58 form is the address), and until then every
 * anchor fails, is reported in /api/health's `lastError` and retried at the next check.
 */
import { type Connection, Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';
import { postReleaseAnchor } from '../lib/chain/node/release-anchor';
import type { AnchorStatement } from '../lib/export/release-manifest';

export function releaseAnchorer(connection: Connection, embedded: boolean) {
  return async (seed: Uint8Array, a: AnchorStatement): Promise<{ signature: string; slot: string }> => {
    const key = Keypair.fromSeed(seed).publicKey;
    if (embedded && (await connection.getBalance(key, 'confirmed')) < LAMPORTS_PER_SOL / 100) {
      const sig = await connection.requestAirdrop(key, LAMPORTS_PER_SOL);
      const bh = await connection.getLatestBlockhash();
      await connection.confirmTransaction({ signature: sig, ...bh }, 'confirmed');
    }
    return postReleaseAnchor(connection, seed, a);
  };
}
