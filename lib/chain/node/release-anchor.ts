/**
 * NODE-ONLY: posts a release anchor (lib/chain/release-anchor.ts) signed by the observer's
 * release-signing key used as a Solana keypair; that key's address pays the fee, so it needs SOL
 * (the embedded chain airdrops it; on a public cluster the operator funds it).
 */
import { type Connection, Keypair } from '@solana/web3.js';
import { anchorInstruction, type ReleaseAnchorStatement } from '../release-anchor';
import { sendIxs } from './send';

/** Sends the anchor of `a`; returns the transaction signature and its slot. */
export async function postReleaseAnchor(
  connection: Connection,
  seed: Uint8Array,
  a: ReleaseAnchorStatement,
): Promise<{ signature: string; slot: string }> {
  const kp = Keypair.fromSeed(seed);
  const signature = await sendIxs(connection, [anchorInstruction(kp.publicKey, a)], [kp]);
  const st = await connection.getSignatureStatus(signature);
  return { signature, slot: String(st.value?.slot ?? 0) };
}
