/**
 * SATI identity accounts on a real cluster (0x01 spec §10.1; docs/architecture.md "Identity").
 * Browser-safe (hashes from @noble/hashes).
 *
 * ASSUMPTION: the SATI text is not available here, so this is the layout we read, kept in this
 * one parser so a correction touches one file. (SATI v2 as published by cascade-protocol binds
 * an agent to a Token-2022 NFT as well; lib/chain/identity.ts reads that binding directly.)
 *
 * | offset | size   | field |
 * |--------|--------|-------|
 * | 0      | 8      | discriminator = sha256("account:AgentIdentity")[0..8] |
 * | 8      | 32     | agent_id (the identity mint) |
 * | 40     | 32     | owner (the wallet allowed to sign, docs/protocol.md §2 "Signer") |
 * | 72     | 1      | delegate_count n, 0..{@link SATI_MAX_DELEGATES} |
 * | 73     | 32 × n | delegates (hot wallets also allowed to sign) |
 *
 * Bytes after the delegates are ignored. Address: PDA [b"agent", agent_id] of the SATI program.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { PublicKey } from '@solana/web3.js';

/** Most delegates an identity account may list. */
export const SATI_MAX_DELEGATES = 8;
/** sha256("account:AgentIdentity")[0..8]. */
export const SATI_AGENT_DISCRIMINATOR: Uint8Array = sha256(new TextEncoder().encode('account:AgentIdentity')).slice(0, 8);
/** Fixed part before the delegates. */
export const SATI_HEADER_SIZE = 73;

/** A decoded SATI identity account. */
export interface SatiIdentity {
  agent: PublicKey;
  owner: PublicKey;
  delegates: PublicKey[];
}

/** The SATI account address of `agent` (PDA [b"agent", agent] of `programId`). */
export function findSatiIdentityPda(agent: PublicKey, programId: PublicKey): PublicKey {
  if (!(agent instanceof PublicKey) || !(programId instanceof PublicKey)) throw new TypeError('agent and programId must be PublicKeys');
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('agent'), agent.toBytes()], programId)[0];
}

/** Decodes a SATI identity account (layout above). Null on any mismatch; never throws. */
export function parseSatiIdentity(data: Uint8Array): SatiIdentity | null {
  if (!(data instanceof Uint8Array) || data.length < SATI_HEADER_SIZE) return null;
  for (let i = 0; i < 8; i++) if (data[i] !== SATI_AGENT_DISCRIMINATOR[i]) return null;
  const n = data[72];
  if (n > SATI_MAX_DELEGATES || data.length < SATI_HEADER_SIZE + 32 * n) return null;
  const delegates: PublicKey[] = [];
  for (let i = 0; i < n; i++) delegates.push(new PublicKey(data.subarray(SATI_HEADER_SIZE + 32 * i, SATI_HEADER_SIZE + 32 * (i + 1))));
  return { agent: new PublicKey(data.subarray(8, 40)), owner: new PublicKey(data.subarray(40, 72)), delegates };
}

/** Encodes an identity account in the layout above (tests, local fixtures). */
export function encodeSatiIdentity(v: SatiIdentity): Uint8Array {
  if (!(v?.agent instanceof PublicKey) || !(v.owner instanceof PublicKey)) throw new TypeError('agent and owner must be PublicKeys');
  if (!Array.isArray(v.delegates) || v.delegates.length > SATI_MAX_DELEGATES) throw new RangeError(`delegates must be an array of at most ${SATI_MAX_DELEGATES}`);
  const out = new Uint8Array(SATI_HEADER_SIZE + 32 * v.delegates.length);
  out.set(SATI_AGENT_DISCRIMINATOR, 0);
  out.set(v.agent.toBytes(), 8);
  out.set(v.owner.toBytes(), 40);
  out[72] = v.delegates.length;
  v.delegates.forEach((d, i) => out.set(d.toBytes(), SATI_HEADER_SIZE + 32 * i));
  return out;
}
