/**
 * Who may sign for an agent, read over JSON-RPC by SATI's rule (docs/chain.md "Who may sign for an agent"):
 * the one reader the observer's registry (lib/chain/node/registry.ts) and the viewer's browser
 * (lib/verify/rpc.ts) both use, so the server and the page cannot disagree on the rule.
 * Browser-safe: a web3.js Connection and lib/chain/sati.ts's pure rules.
 *
 * 1. RegistryConfig (PDA ["registry"] of SATI's program) names the group; no RegistryConfig, no
 *    registry: nobody is registered.
 * 2. `satiRegistration` on the agent's mint: a Token-2022 NFT whose TokenGroupMember names that group.
 * 3. The owner: the owner of the Token-2022 account holding the one token.
 * 4. Delegates: every SAS attestation of SATI's credential and DelegateV1 schema naming the agent
 *    (getProgramAccounts with memcmp on credential, schema and agent mint), each checked with
 *    `delegationValid` against the current owner at `nowSec`.
 */
import { type Connection, PublicKey } from '@solana/web3.js';
import { findIdentityHolder } from './identity';
import {
  type DelegationReason,
  decodeDelegateAttestation,
  decodeRegistryConfig,
  delegationValid,
  type RawAccount,
  registryConfigAddress,
  SAS_ATTESTATION_HEADER,
  type SatiAddresses,
  type SatiRegistered,
  type SatiRegistrationReason,
  satiRegistration,
} from './sati';

/** The SATI addresses the rule reads. */
export type SatiRuleAddresses = Pick<SatiAddresses, 'program' | 'sas' | 'credential' | 'delegateSchema'>;

/** One DelegateV1 attestation naming the agent, with its check at the time of reading. */
export interface DelegationRead {
  /** The account as read (the observer re-checks it later against its clock and the owner). */
  account: RawAccount & { address: PublicKey };
  delegate: PublicKey;
  delegator: PublicKey;
  /** Unix seconds, 0 = never. */
  expiry: bigint;
  check: { ok: true } | { ok: false; reason: DelegationReason };
}

/** A registered agent and who may sign for it. */
export interface SatiSigners {
  ok: true;
  registration: SatiRegistered;
  owner: PublicKey;
  tokenAccount: PublicKey;
  delegations: DelegationRead[];
  /** The owner, then every delegate whose delegation is valid now. */
  keys: PublicKey[];
}

export type SatiSignersResult = SatiSigners | { ok: false; reason: SatiRegistrationReason };

/** Where the agent mint sits in a SAS attestation in SATI's layout (header, then data offset 33). */
export const ATTESTATION_AGENT_OFFSET = SAS_ATTESTATION_HEADER + 33;

/** getProgramAccounts / programSubscribe filters selecting the DelegateV1 attestations of `agent`. */
export function delegationFilters(agent: PublicKey, sati: SatiRuleAddresses) {
  return [
    { memcmp: { offset: 33, bytes: sati.credential.toBase58() } },
    { memcmp: { offset: 65, bytes: sati.delegateSchema.toBase58() } },
    { memcmp: { offset: ATTESTATION_AGENT_OFFSET, bytes: agent.toBase58() } },
  ];
}

/** A DelegateV1 attestation account of `agent` as a DelegationRead; null when it is not one. */
export function readDelegation(
  agent: PublicKey,
  address: PublicKey,
  info: { owner: PublicKey; data: Uint8Array; lamports: number },
  currentOwner: PublicKey,
  nowSec: number,
  sati: SatiRuleAddresses,
): DelegationRead | null {
  const d = decodeDelegateAttestation(info.data);
  if (!d?.agent.equals(agent)) return null;
  const account = { address, owner: info.owner, data: Uint8Array.from(info.data), lamports: info.lamports };
  const c = delegationValid(account, { agent, delegate: d.delegate, currentOwner, nowSec, addresses: sati });
  return {
    account,
    delegate: d.delegate,
    delegator: d.delegator,
    expiry: d.expiry,
    check: c.ok ? { ok: true } : { ok: false, reason: c.reason },
  };
}

/**
 * Reads everything SATI's rule needs for `agent` and applies it at `nowSec` (unix seconds).
 * RPC failures throw: an outage is not an unregistered agent.
 */
export async function readSatiSigners(
  connection: Connection,
  agent: PublicKey,
  sati: SatiRuleAddresses,
  nowSec: number,
): Promise<SatiSignersResult> {
  if (!(agent instanceof PublicKey)) throw new TypeError('agent must be a PublicKey');
  const [cfgInfo, mintInfo] = await connection.getMultipleAccountsInfo(
    [registryConfigAddress(sati.program), agent],
    'confirmed',
  );
  const cfg = cfgInfo?.owner.equals(sati.program) ? decodeRegistryConfig(cfgInfo.data) : null;
  if (!cfg) return { ok: false, reason: 'unregistered' };
  const reg = satiRegistration(
    mintInfo ? { address: agent, owner: mintInfo.owner, data: mintInfo.data, lamports: mintInfo.lamports } : null,
    cfg,
  );
  if (!reg.ok) return reg;
  const holder = await findIdentityHolder(connection, agent);
  if (!holder) return { ok: false, reason: 'unregistered' };
  const found = await connection.getProgramAccounts(sati.sas, {
    commitment: 'confirmed',
    filters: delegationFilters(agent, sati),
  });
  const delegations: DelegationRead[] = [];
  for (const a of found) {
    const d = readDelegation(agent, a.pubkey, a.account, holder.owner, nowSec, sati);
    if (d) delegations.push(d);
  }
  const keys = [holder.owner];
  for (const d of delegations) if (d.check.ok && !keys.some((k) => k.equals(d.delegate))) keys.push(d.delegate);
  return { ok: true, registration: reg, owner: holder.owner, tokenAccount: holder.tokenAccount, delegations, keys };
}
