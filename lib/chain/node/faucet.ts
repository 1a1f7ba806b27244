/**
 * NODE-ONLY (server): the embedded chain's faucet for browser wallets. SOL comes from the chain's
 * requestAirdrop (the embedded chain's faucet account), demo USDC is minted by the deployment's
 * admin, which is the local USDC mint's authority (deployment.ts). Only the admin key signs here;
 * the wallet that receives never signs anything on the server.
 */

import {
  createAssociatedTokenAccountIdempotentInstruction,
  createMintToInstruction,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { type Connection, type Keypair, LAMPORTS_PER_SOL, PublicKey } from '@solana/web3.js';
import { type EconomyConfig, usdcAccountOf } from '../config';
import { sendIxs } from './send';

/** What one faucet drop sends by default: 2 SOL and 100 USDC. */
export const FAUCET_LAMPORTS = 2 * LAMPORTS_PER_SOL;
export const FAUCET_USDC = 100_000_000n;

/** Airdrops `lamports` and mints `usdc` base units to `to`; returns what was sent and the signatures. */
export async function faucetDrop(
  connection: Connection,
  p: { admin: Keypair; config: EconomyConfig; to: PublicKey; lamports?: number; usdc?: bigint },
): Promise<{ lamports: bigint; usdc: bigint; signatures: string[] }> {
  if (!(p.to instanceof PublicKey)) throw new TypeError('to must be a PublicKey');
  const lamports = p.lamports ?? FAUCET_LAMPORTS;
  const usdc = p.usdc ?? FAUCET_USDC;
  const sig = await connection.requestAirdrop(p.to, lamports);
  await connection.confirmTransaction(
    { signature: sig, ...(await connection.getLatestBlockhash('confirmed')) },
    'confirmed',
  );
  const ata = usdcAccountOf(p.config.usdcMint, p.to);
  const mintSig = await sendIxs(
    connection,
    [
      createAssociatedTokenAccountIdempotentInstruction(
        p.admin.publicKey,
        ata,
        p.to,
        p.config.usdcMint,
        TOKEN_PROGRAM_ID,
      ),
      createMintToInstruction(p.config.usdcMint, ata, p.admin.publicKey, usdc, [], TOKEN_PROGRAM_ID),
    ],
    [p.admin],
  );
  return { lamports: BigInt(lamports), usdc, signatures: [sig, mintSig] };
}
