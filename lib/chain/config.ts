/**
 * The deployment an owner acts on: USDC mint, treasury and stake vault, as the stake_lock Config
 * account records them (0x01 spec §10.5). Browser-safe: a web3.js Connection works in a page.
 */

import { getAssociatedTokenAddressSync, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { type Connection, PublicKey } from '@solana/web3.js';
import { ChainAccountError, ChainConfigError } from './errors';
import { stakeLock } from './programs';

/** What every owner action needs to know about the deployment (read from the stake_lock config). */
export interface EconomyConfig {
  usdcMint: PublicKey;
  treasury: PublicKey;
  /** stake_lock's vault: USDC account of the PDA [b"vault_authority"]. */
  stakeVault: PublicKey;
  epochSeconds: bigint;
  /** The SATI program whose registered agents may lock stake (fixed at stake_lock's initialize). */
  satiProgram: PublicKey;
}

/** The economy config in stake_lock Config account data, or null when it is not one. */
export function decodeEconomyConfig(data: Uint8Array): EconomyConfig | null {
  const cfg = data instanceof Uint8Array ? stakeLock.decodeStakeConfig(data) : null;
  return cfg
    ? {
        usdcMint: cfg.usdcMint,
        treasury: cfg.treasury,
        stakeVault: cfg.vault,
        epochSeconds: cfg.epochSeconds,
        satiProgram: cfg.satiProgram,
      }
    : null;
}

/** Reads the deployment's configuration from the stake_lock Config account; ChainAccountError when absent. */
export async function loadEconomyConfig(connection: Connection): Promise<EconomyConfig> {
  const info = await connection.getAccountInfo(stakeLock.findConfigPda()[0], 'confirmed');
  const cfg = info ? decodeEconomyConfig(info.data) : null;
  if (info && !cfg)
    throw new ChainConfigError(
      'stake_lock Config does not decode (a chain from before ' +
        'stake_lock recorded its SATI program?): start on a new DATA_DIR',
    );
  if (!cfg)
    throw new ChainAccountError('stake_lock is not initialized (no Config account): run initializePrograms first');
  return cfg;
}

/** The USDC associated token account of `owner` (SPL Token). */
export function usdcAccountOf(usdcMint: PublicKey, owner: PublicKey): PublicKey {
  if (!(usdcMint instanceof PublicKey) || !(owner instanceof PublicKey))
    throw new TypeError('usdcMint and owner must be PublicKeys');
  return getAssociatedTokenAddressSync(usdcMint, owner, true, TOKEN_PROGRAM_ID);
}
