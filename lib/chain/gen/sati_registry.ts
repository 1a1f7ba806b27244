// Generated from programs/sati_registry/program.json by programs/tools/gen.ts. Do not edit.
/** Stand-in for SATI's agent registry on the embedded chain only: SATI's initialize and register_agent (Anchor discriminators and Borsh arguments, decoded by hand in sati_registry.c and built by lib/chain/sati.ts), leaving SATI's accounts and Token-2022 state. Loaded at the configured SATI program id; PDAs derive from the running id. */
import { PublicKey, TransactionInstruction } from '@solana/web3.js';
import { decodeFields, encodeFields, hasDiscriminator, instructionData, type FieldSpec } from '../codec';

export const PROGRAM_ID = new PublicKey('satiRkxEiwZ51cv8PRu8UMzuaqeaNU9jABo6oAFMsLe');
const u64le = (v: bigint) => { const b = new Uint8Array(8); new DataView(b.buffer).setBigUint64(0, v, true); return b; };
void u64le;

/** PDA [b"registry"] of sati_registry. */
export function findRegistryPda(programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('registry')], programId);
}

/** PDA [b"agent_index", member_number u64 LE] of sati_registry. */
export function findAgentIndexPda(memberNumber: bigint, programId: PublicKey = PROGRAM_ID): [PublicKey, number] {
  return PublicKey.findProgramAddressSync([new TextEncoder().encode('agent_index'), u64le(memberNumber)], programId);
}

/** PDA [b"registry"]: SATI's group mint, authority (zeros = immutable), total_agents, bump. 81 bytes. */
export interface RegistryConfig {
  groupMint: PublicKey;
  authority: PublicKey;
  totalAgents: bigint;
  bump: number;
}
export const REGISTRY_CONFIG_DISCRIMINATOR = Uint8Array.from([0x17, 0x76, 0x0a, 0xf6, 0xad, 0xe7, 0xf3, 0x9c]);
export const REGISTRY_CONFIG_FIELDS: readonly FieldSpec[] = [{ name: 'groupMint', type: 'pubkey' }, { name: 'authority', type: 'pubkey' }, { name: 'totalAgents', type: 'u64' }, { name: 'bump', type: 'u8' }];
export const REGISTRY_CONFIG_SIZE = 81;
export function encodeRegistryConfig(v: RegistryConfig): Uint8Array {
  return encodeFields(REGISTRY_CONFIG_DISCRIMINATOR, REGISTRY_CONFIG_FIELDS, v as unknown as Record<string, unknown>);
}
/** Decodes account data; null when the discriminator or size is wrong. */
export function decodeRegistryConfig(data: Uint8Array): RegistryConfig | null {
  return hasDiscriminator(data, REGISTRY_CONFIG_DISCRIMINATOR) ? decodeFields<RegistryConfig>(data, 8, REGISTRY_CONFIG_FIELDS, true) : null;
}

/** PDA [b"agent_index", member_number u64 LE]: the agent mint registered as that member. 41 bytes. */
export interface AgentIndex {
  mint: PublicKey;
  bump: number;
}
export const AGENT_INDEX_DISCRIMINATOR = Uint8Array.from([0xf1, 0x9a, 0x23, 0x67, 0xb4, 0x8d, 0x31, 0xb3]);
export const AGENT_INDEX_FIELDS: readonly FieldSpec[] = [{ name: 'mint', type: 'pubkey' }, { name: 'bump', type: 'u8' }];
export const AGENT_INDEX_SIZE = 41;
export function encodeAgentIndex(v: AgentIndex): Uint8Array {
  return encodeFields(AGENT_INDEX_DISCRIMINATOR, AGENT_INDEX_FIELDS, v as unknown as Record<string, unknown>);
}
/** Decodes account data; null when the discriminator or size is wrong. */
export function decodeAgentIndex(data: Uint8Array): AgentIndex | null {
  return hasDiscriminator(data, AGENT_INDEX_DISCRIMINATOR) ? decodeFields<AgentIndex>(data, 8, AGENT_INDEX_FIELDS, true) : null;
}

export type Event = never;
/** Decodes one sol_log_data record of this program; null for anything else. Never throws. */
export function decodeEvent(data: Uint8Array): Event | null {
  return null;
}

export const ERRORS = {
  InvalidInstruction: 24576,
  NotEnoughAccounts: 24577,
  MissingSignature: 24578,
  WrongPda: 24579,
  AlreadyInitialized: 24580,
  NotInitialized: 24581,
  WrongProgram: 24582,
  WrongGroupMint: 24583,
  NameTooLong: 24584,
  SymbolTooLong: 24585,
  UriTooLong: 24586,
  TooManyFields: 24587,
  FieldTooLong: 24588,
  MintNotFresh: 24589,
  MintAuthorityNotRemoved: 24590,
  NotWritable: 24591,
  Overflow: 24592,
} as const;
export const ERROR_MESSAGES: Readonly<Record<number, string>> = {
  24576: "InvalidInstruction: unknown discriminator or malformed Borsh arguments",
  24577: "NotEnoughAccounts: fewer accounts than the instruction needs",
  24578: "MissingSignature: a required signer did not sign",
  24579: "WrongPda: registry_config or agent_index is not the expected PDA",
  24580: "AlreadyInitialized: the registry already exists",
  24581: "NotInitialized: registry_config is missing or not this program's",
  24582: "WrongProgram: a program account is not the expected program",
  24583: "WrongGroupMint: group_mint is not the registry's TokenGroup mint (update authority = registry PDA)",
  24584: "NameTooLong: name is longer than 32 bytes",
  24585: "SymbolTooLong: symbol is longer than 10 bytes",
  24586: "UriTooLong: uri is longer than 200 bytes",
  24587: "TooManyFields: more than 10 additional metadata entries",
  24588: "FieldTooLong: an additional metadata key is longer than 32 or value longer than 200 bytes",
  24589: "MintNotFresh: agent_mint must be a new, empty account",
  24590: "MintAuthorityNotRemoved: the mint authority is still set after registration",
  24591: "NotWritable: an account that must be writable is not",
  24592: "Overflow: total_agents would overflow",
};
