/**
 * An agent's DelegateV1 delegations as its owner sees them on "My agents": every SAS attestation
 * of SATI's credential and DelegateV1 schema naming the agent mint (read over RPC with
 * lib/chain/sati-signers.ts, the same read the observer and the verifier use), each with the
 * status `delegationValid` gives it now. Browser-safe.
 *
 * Revoking a delegation is SAS's close_attestation, which only exists where the SAS program is
 * deployed; `sasProgramDeployed` tells the page whether this chain has it (the embedded chain
 * writes attestation accounts as fixtures and runs no SAS).
 */
import { type Connection, PublicKey } from '@solana/web3.js';
import type { DelegationReason, SatiRegistrationReason } from './sati';
import { type DelegationRead, readSatiSigners, type SatiRuleAddresses } from './sati-signers';

/** What the owner is told about one delegation. */
export type DelegationStatus = 'valid' | 'expired' | 'delegator_not_owner' | 'invalid';

export interface DelegationRow {
  /** The attestation account (SAS PDA). */
  address: PublicKey;
  delegate: PublicKey;
  /** The owner who delegated (the attestation's data_hash). */
  delegator: PublicKey;
  /** Unix seconds; 0 = never expires. */
  expiry: bigint;
  status: DelegationStatus;
  /** delegationValid's reason when not valid. */
  reason: DelegationReason | null;
}

export type DelegationList =
  | { ok: true; owner: PublicKey; rows: DelegationRow[] }
  | { ok: false; reason: SatiRegistrationReason };

/** One read delegation as a row: valid, expired, voided by a transfer, or otherwise invalid. */
export function delegationRow(d: DelegationRead): DelegationRow {
  const reason = d.check.ok ? null : d.check.reason;
  const status: DelegationStatus =
    reason === null
      ? 'valid'
      : reason === 'delegation_expired'
        ? 'expired'
        : reason === 'delegator_not_owner'
          ? 'delegator_not_owner'
          : 'invalid';
  return { address: d.account.address, delegate: d.delegate, delegator: d.delegator, expiry: d.expiry, status, reason };
}

/**
 * The delegations of `agent` at `nowSec` (unix seconds), valid ones first, then by expiry.
 * RPC failures throw (an outage is not "no delegations").
 */
export async function listDelegations(
  connection: Connection,
  agent: PublicKey,
  sati: SatiRuleAddresses,
  nowSec: number,
): Promise<DelegationList> {
  const r = await readSatiSigners(connection, agent, sati, nowSec);
  if (!r.ok) return r;
  const order: Record<DelegationStatus, number> = { valid: 0, expired: 1, delegator_not_owner: 2, invalid: 3 };
  const rows = r.delegations
    .map(delegationRow)
    .sort(
      (a, b) =>
        order[a.status] - order[b.status] ||
        (a.expiry === b.expiry
          ? a.delegate.toBase58().localeCompare(b.delegate.toBase58())
          : a.expiry === 0n
            ? 1
            : b.expiry === 0n
              ? -1
              : a.expiry < b.expiry
                ? -1
                : 1),
    );
  return { ok: true, owner: r.owner, rows };
}

/** True when the SAS program is deployed (an executable account) on this chain. */
export async function sasProgramDeployed(connection: Connection, sas: PublicKey): Promise<boolean> {
  if (!(sas instanceof PublicKey)) throw new TypeError('sas must be a PublicKey');
  const info = await connection.getAccountInfo(sas, 'confirmed');
  return !!info && info.executable;
}
