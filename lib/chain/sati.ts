/**
 * SATI, the 0x01 identity registry, as deployed (docs/chain.md "SATI"). Browser-safe: the same
 * code decides "is this a registered SATI agent" and "may this key sign for it" in the observer,
 * in the viewer's browser and in tests against the embedded chain's stand-in registry.
 *
 * - addresses: {@link SatiAddresses}, mainnet defaults in {@link SATI_MAINNET} (devnet shares the
 *   program id; the embedded chain uses its own group mint);
 * - PDAs: {@link registryConfigAddress}, {@link agentIndexAddress}, {@link delegateAttestationAddress};
 * - account decoders (and encoders, for fixtures and byte comparisons): RegistryConfig, AgentIndex,
 *   the SAS attestation holding a DelegateV1 delegation;
 * - the `AgentRegistered` event (Anchor `emit!`: one sol_log_data record, discriminator + Borsh);
 * - instruction builders for `initialize` and `register_agent` (Borsh written by hand);
 * - the two rules: {@link satiRegistration} (mint account → registered or the reason not) and
 *   {@link delegationValid} (attestation account → valid delegation or the reason not).
 *
 * Nothing here performs I/O: callers read accounts (getAccountInfo / getMultipleAccountsInfo)
 * and hand the bytes in, so a browser, the observer's cache and a litesvm test share the rules.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  ExtensionType,
  getAssociatedTokenAddressSync,
  getExtensionData,
  getExtensionTypes,
  getTokenGroupMemberState,
  TOKEN_2022_PROGRAM_ID,
  unpackMint,
} from '@solana/spl-token';
import { unpack as unpackTokenMetadata } from '@solana/spl-token-metadata';
import { PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { Buffer } from 'buffer';

// ---------------------------------------------------------------------------------------------
// Addresses

/** Every address SATI's rule depends on. One value per cluster; nothing else hard-codes them. */
export interface SatiAddresses {
  /** The SATI registry program. */
  program: PublicKey;
  /** SATI's TokenGroup mint. The rule reads the group from RegistryConfig; this is the expected value. */
  groupMint: PublicKey;
  /** Solana Attestation Service program. */
  sas: PublicKey;
  /** SATI's SAS credential. */
  credential: PublicKey;
  /** SAS schema DelegateV1. */
  delegateSchema: PublicKey;
  /** SAS schema FeedbackV1 (compressed; Photon only). */
  feedbackSchema: PublicKey;
  /** SAS schema FeedbackPublicV1 (compressed; Photon only). */
  feedbackPublicSchema: PublicKey;
  /** SATI's address lookup table. */
  lookupTable: PublicKey;
}

/** SATI's mainnet deployment (v1.0, 2026-01-04); devnet uses the same program id. */
export const SATI_MAINNET: Readonly<SatiAddresses> = Object.freeze({
  program: new PublicKey('satiRkxEiwZ51cv8PRu8UMzuaqeaNU9jABo6oAFMsLe'),
  groupMint: new PublicKey('satiG7i9iyFxjq23sdyeLB4ibAHf6GXCARuosGeqane'),
  sas: new PublicKey('22zoJMtdu4tQc2PzL74ZUT7FrwgB1Udec8DdW4yw4BdG'),
  credential: new PublicKey('DQHW6fAhPfGAENuwJVYfzEvUN12DakZgaaGtPPRfGei1'),
  delegateSchema: new PublicKey('93wrAiBtCWgfVzToT6kU4zkPSvZpWbKDG3XUQEEHXBrk'),
  feedbackSchema: new PublicKey('CPSr2kXADrhfAykcLwr7mxaLtuG4EBkzei9xQCaEmRJS'),
  feedbackPublicSchema: new PublicKey('7SvB6udRrxTsKLYyoMwCvrm2jiNLUCcWBnhzwDVCebss'),
  lookupTable: new PublicKey('3ZwvNnz6mdyLyLyPaSZVpfthWcsDV3x3r6QSufjcRcoi'),
});

/** Anchor discriminators of SATI (8 bytes each). */
export const SATI_DISCRIMINATORS = Object.freeze({
  registryConfig: Uint8Array.of(23, 118, 10, 246, 173, 231, 243, 156),
  agentIndex: Uint8Array.of(241, 154, 35, 103, 180, 141, 49, 179),
  initialize: Uint8Array.of(175, 175, 109, 31, 13, 152, 155, 237),
  registerAgent: Uint8Array.of(135, 157, 66, 195, 2, 113, 175, 30),
  agentRegistered: Uint8Array.of(191, 78, 217, 54, 232, 100, 189, 85),
});

/** Sizes of SATI's accounts. */
export const REGISTRY_CONFIG_SIZE = 81;
export const AGENT_INDEX_SIZE = 41;

/** register_agent's argument limits (bytes of UTF-8, entries). */
export const SATI_LIMITS = Object.freeze({ name: 32, symbol: 10, uri: 200, key: 32, value: 200, fields: 10 });

/** SAS tags the kind of each account in its first byte: credential 0, schema 1, attestation 2. */
export const SAS_ATTESTATION_TAG = 2;
/** SAS attestation header: tag 1, nonce 32, credential 32, schema 32, data_len u32. */
export const SAS_ATTESTATION_HEADER = 101;
/** After the data: signer 32, expiry i64, token_account 32. */
export const SAS_ATTESTATION_TRAILER = 72;
/** SATI's universal data layout up to content (content_type at 130, content from 131). */
export const SATI_DATA_MIN = 131;

const enc = new TextEncoder();
const isKey = (k: unknown): k is PublicKey => k instanceof PublicKey;
const startsWith = (d: Uint8Array, p: Uint8Array) => d.length >= p.length && p.every((x, i) => d[i] === x);
const u64le = (n: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, n, true);
  return b;
};

// ---------------------------------------------------------------------------------------------
// PDAs

/** RegistryConfig: PDA ["registry"] of the SATI program. */
export function registryConfigAddress(program: PublicKey = SATI_MAINNET.program): PublicKey {
  if (!isKey(program)) throw new TypeError('program must be a PublicKey');
  return PublicKey.findProgramAddressSync([enc.encode('registry')], program)[0];
}

/** AgentIndex of member `memberNumber` (1 … total_agents): PDA ["agent_index", u64 LE]. */
export function agentIndexAddress(memberNumber: bigint, program: PublicKey = SATI_MAINNET.program): PublicKey {
  if (typeof memberNumber !== 'bigint' || memberNumber < 1n || memberNumber >= 1n << 64n)
    throw new RangeError('memberNumber must be a u64 ≥ 1');
  if (!isKey(program)) throw new TypeError('program must be a PublicKey');
  return PublicKey.findProgramAddressSync([enc.encode('agent_index'), u64le(memberNumber)], program)[0];
}

/** The SAS attestation nonce of a delegation: keccak256(schema ‖ delegate ‖ agent mint). */
export function delegationNonce(
  delegate: PublicKey,
  mint: PublicKey,
  addresses: Pick<SatiAddresses, 'delegateSchema'> = SATI_MAINNET,
): Uint8Array {
  if (!isKey(delegate) || !isKey(mint)) throw new TypeError('delegate and mint must be PublicKeys');
  const buf = new Uint8Array(96);
  buf.set(addresses.delegateSchema.toBytes(), 0);
  buf.set(delegate.toBytes(), 32);
  buf.set(mint.toBytes(), 64);
  return keccak_256(buf);
}

/**
 * Where a DelegateV1 attestation for (delegate, agent mint) lives: SAS PDA ["attestation", credential, schema, nonce].
 */
export function delegateAttestationAddress(
  delegate: PublicKey,
  mint: PublicKey,
  addresses: Pick<SatiAddresses, 'sas' | 'credential' | 'delegateSchema'> = SATI_MAINNET,
): PublicKey {
  const nonce = delegationNonce(delegate, mint, addresses);
  return PublicKey.findProgramAddressSync(
    [enc.encode('attestation'), addresses.credential.toBytes(), addresses.delegateSchema.toBytes(), nonce],
    addresses.sas,
  )[0];
}

// ---------------------------------------------------------------------------------------------
// Accounts

/** SATI's RegistryConfig. */
export interface RegistryConfig {
  groupMint: PublicKey;
  /** All zeros: the registry is immutable. */
  authority: PublicKey;
  totalAgents: bigint;
  bump: number;
}

/** Decodes RegistryConfig (81 bytes, discriminator first); null on any mismatch. Never throws. */
export function decodeRegistryConfig(data: Uint8Array): RegistryConfig | null {
  if (
    !(data instanceof Uint8Array) ||
    data.length < REGISTRY_CONFIG_SIZE ||
    !startsWith(data, SATI_DISCRIMINATORS.registryConfig)
  )
    return null;
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  return {
    groupMint: new PublicKey(data.subarray(8, 40)),
    authority: new PublicKey(data.subarray(40, 72)),
    totalAgents: dv.getBigUint64(72, true),
    bump: data[80],
  };
}

/** RegistryConfig bytes (fixtures and layout tests). */
export function encodeRegistryConfig(v: RegistryConfig): Uint8Array {
  const out = new Uint8Array(REGISTRY_CONFIG_SIZE);
  out.set(SATI_DISCRIMINATORS.registryConfig, 0);
  out.set(v.groupMint.toBytes(), 8);
  out.set(v.authority.toBytes(), 40);
  out.set(u64le(v.totalAgents), 72);
  out[80] = v.bump;
  return out;
}

/** SATI's AgentIndex: member number → agent mint. */
export interface AgentIndex {
  mint: PublicKey;
  bump: number;
}

/** Decodes AgentIndex (41 bytes); null on any mismatch. Never throws. */
export function decodeAgentIndex(data: Uint8Array): AgentIndex | null {
  if (
    !(data instanceof Uint8Array) ||
    data.length < AGENT_INDEX_SIZE ||
    !startsWith(data, SATI_DISCRIMINATORS.agentIndex)
  )
    return null;
  return { mint: new PublicKey(data.subarray(8, 40)), bump: data[40] };
}

/** AgentIndex bytes (fixtures and layout tests). */
export function encodeAgentIndex(v: AgentIndex): Uint8Array {
  const out = new Uint8Array(AGENT_INDEX_SIZE);
  out.set(SATI_DISCRIMINATORS.agentIndex, 0);
  out.set(v.mint.toBytes(), 8);
  out[40] = v.bump;
  return out;
}

/** A SAS attestation read in SATI's universal data layout (DelegateV1 names a delegate in it). */
export interface DelegateAttestation {
  nonce: Uint8Array;
  credential: PublicKey;
  schema: PublicKey;
  layoutVersion: number;
  taskRef: Uint8Array;
  /** The agent mint. */
  agent: PublicKey;
  /** The counterparty: the delegate (hot wallet). */
  delegate: PublicKey;
  outcome: number;
  /** data_hash: the owner who delegated. */
  delegator: PublicKey;
  contentType: number;
  content: Uint8Array;
  /** The SAS authorized signer that issued it. */
  signer: PublicKey;
  /** Unix seconds; 0 = never expires. */
  expiry: bigint;
  tokenAccount: PublicKey;
}

/** Decodes a SAS attestation account in SATI's layout; null when it is not one. Never throws. */
export function decodeDelegateAttestation(data: Uint8Array): DelegateAttestation | null {
  if (!(data instanceof Uint8Array) || data.length < SAS_ATTESTATION_HEADER + SATI_DATA_MIN + SAS_ATTESTATION_TRAILER)
    return null;
  if (data[0] !== SAS_ATTESTATION_TAG) return null;
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const len = dv.getUint32(97, true);
  if (len < SATI_DATA_MIN || data.length < SAS_ATTESTATION_HEADER + len + SAS_ATTESTATION_TRAILER) return null;
  const d = data.subarray(SAS_ATTESTATION_HEADER, SAS_ATTESTATION_HEADER + len);
  const t = SAS_ATTESTATION_HEADER + len;
  return {
    nonce: data.slice(1, 33),
    credential: new PublicKey(data.subarray(33, 65)),
    schema: new PublicKey(data.subarray(65, 97)),
    layoutVersion: d[0],
    taskRef: d.slice(1, 33),
    agent: new PublicKey(d.subarray(33, 65)),
    delegate: new PublicKey(d.subarray(65, 97)),
    outcome: d[97],
    delegator: new PublicKey(d.subarray(98, 130)),
    contentType: d[130],
    content: d.slice(131),
    signer: new PublicKey(data.subarray(t, t + 32)),
    expiry: dv.getBigInt64(t + 32, true),
    tokenAccount: new PublicKey(data.subarray(t + 40, t + 72)),
  };
}

/** Fields of {@link encodeDelegateAttestation}; defaults: nonce = the PDA nonce, zeros elsewhere. */
export interface DelegateAttestationInput {
  agent: PublicKey;
  delegate: PublicKey;
  delegator: PublicKey;
  /** Unix seconds, 0 = never. */
  expiry: bigint;
  signer: PublicKey;
  addresses?: Pick<SatiAddresses, 'credential' | 'delegateSchema'>;
  layoutVersion?: number;
  taskRef?: Uint8Array;
  outcome?: number;
  contentType?: number;
  content?: Uint8Array;
  tokenAccount?: PublicKey;
}

/**
 * The bytes SAS stores for a DelegateV1 attestation. The embedded chain has no SAS program, so
 * its delegations are these bytes written directly at {@link delegateAttestationAddress} (a
 * fixture, documented in docs/chain.md); tests use it to build hostile variants.
 */
export function encodeDelegateAttestation(v: DelegateAttestationInput): Uint8Array {
  if (!isKey(v?.agent) || !isKey(v.delegate) || !isKey(v.delegator) || !isKey(v.signer))
    throw new TypeError('agent, delegate, delegator and signer must be PublicKeys');
  if (typeof v.expiry !== 'bigint') throw new TypeError('expiry must be a bigint');
  const a = v.addresses ?? SATI_MAINNET;
  const content = v.content ?? new Uint8Array(0);
  const len = SATI_DATA_MIN + content.length;
  const out = new Uint8Array(SAS_ATTESTATION_HEADER + len + SAS_ATTESTATION_TRAILER);
  const dv = new DataView(out.buffer);
  out[0] = SAS_ATTESTATION_TAG;
  out.set(delegationNonce(v.delegate, v.agent, a), 1);
  out.set(a.credential.toBytes(), 33);
  out.set(a.delegateSchema.toBytes(), 65);
  dv.setUint32(97, len, true);
  const d = SAS_ATTESTATION_HEADER;
  out[d] = v.layoutVersion ?? 1;
  if (v.taskRef) out.set(v.taskRef.subarray(0, 32), d + 1);
  out.set(v.agent.toBytes(), d + 33);
  out.set(v.delegate.toBytes(), d + 65);
  out[d + 97] = v.outcome ?? 0;
  out.set(v.delegator.toBytes(), d + 98);
  out[d + 130] = v.contentType ?? 0;
  out.set(content, d + 131);
  const t = d + len;
  out.set(v.signer.toBytes(), t);
  dv.setBigInt64(t + 32, v.expiry, true);
  if (v.tokenAccount) out.set(v.tokenAccount.toBytes(), t + 40);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Borsh (the handful of types SATI's instructions and event use)

class BorshWriter {
  private parts: Uint8Array[] = [];
  bytes(b: Uint8Array) {
    this.parts.push(b);
    return this;
  }
  u8(n: number) {
    return this.bytes(Uint8Array.of(n));
  }
  u32(n: number) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, n, true);
    return this.bytes(b);
  }
  u64(n: bigint) {
    return this.bytes(u64le(n));
  }
  string(s: string) {
    const b = enc.encode(s);
    return this.u32(b.length).bytes(b);
  }
  done(): Uint8Array {
    const out = new Uint8Array(this.parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of this.parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }
}

class BorshReader {
  o = 0;
  private readonly dv: DataView;
  constructor(private readonly d: Uint8Array) {
    this.dv = new DataView(d.buffer, d.byteOffset, d.byteLength);
  }
  private need(n: number) {
    if (this.o + n > this.d.length) throw new RangeError('short');
  }
  bytes(n: number) {
    this.need(n);
    const b = this.d.subarray(this.o, this.o + n);
    this.o += n;
    return b;
  }
  u8() {
    return this.bytes(1)[0];
  }
  u32() {
    this.need(4);
    const v = this.dv.getUint32(this.o, true);
    this.o += 4;
    return v;
  }
  u64() {
    this.need(8);
    const v = this.dv.getBigUint64(this.o, true);
    this.o += 8;
    return v;
  }
  bool() {
    const v = this.u8();
    if (v > 1) throw new RangeError('bool');
    return v === 1;
  }
  key() {
    return new PublicKey(this.bytes(32));
  }
  string(max: number) {
    const n = this.u32();
    if (n > max) throw new RangeError('string too long');
    return new TextDecoder('utf-8', { fatal: true }).decode(this.bytes(n));
  }
}

// ---------------------------------------------------------------------------------------------
// Instructions

/** register_agent's arguments. */
export interface RegisterAgentArgs {
  name: string;
  symbol: string;
  uri: string;
  /** Extra TokenMetadata fields, in order (≤ 10). */
  additionalMetadata?: readonly (readonly [string, string])[] | null;
  nonTransferable: boolean;
}

const utf8Len = (s: string) => enc.encode(s).length;

function checkArgs(a: RegisterAgentArgs): void {
  if (!a || typeof a.name !== 'string' || typeof a.symbol !== 'string' || typeof a.uri !== 'string')
    throw new TypeError('name, symbol and uri must be strings');
  if (typeof a.nonTransferable !== 'boolean') throw new TypeError('nonTransferable must be a boolean');
  if (utf8Len(a.name) > SATI_LIMITS.name) throw new RangeError(`name is longer than ${SATI_LIMITS.name} bytes`);
  if (utf8Len(a.symbol) > SATI_LIMITS.symbol) throw new RangeError(`symbol is longer than ${SATI_LIMITS.symbol} bytes`);
  if (utf8Len(a.uri) > SATI_LIMITS.uri) throw new RangeError(`uri is longer than ${SATI_LIMITS.uri} bytes`);
  const f = a.additionalMetadata;
  if (f == null) return;
  if (!Array.isArray(f) || f.length > SATI_LIMITS.fields)
    throw new RangeError(`additionalMetadata must hold at most ${SATI_LIMITS.fields} entries`);
  for (const e of f) {
    if (!Array.isArray(e) || typeof e[0] !== 'string' || typeof e[1] !== 'string')
      throw new TypeError('additionalMetadata entries must be [key, value] strings');
    if (utf8Len(e[0]) > SATI_LIMITS.key || utf8Len(e[1]) > SATI_LIMITS.value)
      throw new RangeError(`additionalMetadata key ≤ ${SATI_LIMITS.key} and value ≤ ${SATI_LIMITS.value} bytes`);
  }
}

/** register_agent instruction data: discriminator ‖ Borsh(args). Throws on arguments SATI refuses. */
export function encodeRegisterAgentArgs(a: RegisterAgentArgs): Uint8Array {
  checkArgs(a);
  const w = new BorshWriter().bytes(SATI_DISCRIMINATORS.registerAgent).string(a.name).string(a.symbol).string(a.uri);
  if (a.additionalMetadata == null) w.u8(0);
  else {
    w.u8(1).u32(a.additionalMetadata.length);
    for (const [k, v] of a.additionalMetadata) w.string(k).string(v);
  }
  return w.u8(a.nonTransferable ? 1 : 0).done();
}

/** Inverse of {@link encodeRegisterAgentArgs}; null when the bytes are not a valid register_agent. */
export function decodeRegisterAgentArgs(data: Uint8Array): RegisterAgentArgs | null {
  if (!(data instanceof Uint8Array) || !startsWith(data, SATI_DISCRIMINATORS.registerAgent)) return null;
  try {
    const r = new BorshReader(data);
    r.bytes(8);
    const name = r.string(SATI_LIMITS.name),
      symbol = r.string(SATI_LIMITS.symbol),
      uri = r.string(SATI_LIMITS.uri);
    let additionalMetadata: [string, string][] | null = null;
    const opt = r.u8();
    if (opt > 1) return null;
    if (opt === 1) {
      const n = r.u32();
      if (n > SATI_LIMITS.fields) return null;
      additionalMetadata = [];
      for (let i = 0; i < n; i++) additionalMetadata.push([r.string(SATI_LIMITS.key), r.string(SATI_LIMITS.value)]);
    }
    const nonTransferable = r.bool();
    if (r.o !== data.length) return null;
    return { name, symbol, uri, additionalMetadata, nonTransferable };
  } catch {
    return null;
  }
}

/** Parameters of {@link satiInitializeInstruction}. */
export interface SatiInitializeParams {
  /** Pays and becomes the registry authority (signs). */
  authority: PublicKey;
  /** SATI's TokenGroup mint (its update authority must be the registry PDA). */
  groupMint: PublicKey;
  program?: PublicKey;
  /**
   * Our stand-in only (programs/sati_registry): `groupMint` is a fresh keypair (it signs) and
   * `initialize` creates the TokenGroup mint itself; Token-2022 is appended as a fifth account.
   * Without it the accounts are exactly SATI's four and the group mint must already exist.
   */
  createGroupMint?: boolean;
}

/** SATI `initialize`: accounts authority, registry_config, group_mint, System; no arguments. */
export function satiInitializeInstruction(p: SatiInitializeParams): TransactionInstruction {
  if (!isKey(p?.authority) || !isKey(p.groupMint)) throw new TypeError('authority and groupMint must be PublicKeys');
  const program = p.program ?? SATI_MAINNET.program;
  const keys = [
    { pubkey: p.authority, isSigner: true, isWritable: true },
    { pubkey: registryConfigAddress(program), isSigner: false, isWritable: true },
    { pubkey: p.groupMint, isSigner: p.createGroupMint === true, isWritable: true },
    { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
  ];
  if (p.createGroupMint) keys.push({ pubkey: TOKEN_2022_PROGRAM_ID, isSigner: false, isWritable: false });
  return new TransactionInstruction({ programId: program, keys, data: Buffer.from(SATI_DISCRIMINATORS.initialize) });
}

/** Parameters of {@link registerAgentInstruction}. */
export interface RegisterAgentParams extends RegisterAgentArgs {
  /** Pays rent and fees (signs). */
  payer: PublicKey;
  /** Owner of the agent NFT (default: payer); need not sign. */
  owner?: PublicKey;
  /** A fresh keypair's address: becomes the agent id. The caller adds it as a signer. */
  agentMint: PublicKey;
  /** The registry as read now: group mint and total_agents (the new member is total_agents + 1). */
  registry: Pick<RegistryConfig, 'groupMint' | 'totalAgents'>;
  program?: PublicKey;
}

/** SATI `register_agent`, accounts in SATI's order. Signers: payer and agentMint. */
export function registerAgentInstruction(p: RegisterAgentParams): TransactionInstruction {
  if (!isKey(p?.payer) || !isKey(p.agentMint)) throw new TypeError('payer and agentMint must be PublicKeys');
  const owner = p.owner ?? p.payer;
  if (!isKey(owner) || !isKey(p.registry?.groupMint))
    throw new TypeError('owner and registry.groupMint must be PublicKeys');
  if (typeof p.registry.totalAgents !== 'bigint') throw new TypeError('registry.totalAgents must be a bigint');
  const program = p.program ?? SATI_MAINNET.program;
  const data = encodeRegisterAgentArgs(p);
  return new TransactionInstruction({
    programId: program,
    keys: [
      { pubkey: p.payer, isSigner: true, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: false },
      { pubkey: registryConfigAddress(program), isSigner: false, isWritable: true },
      { pubkey: p.registry.groupMint, isSigner: false, isWritable: true },
      { pubkey: p.agentMint, isSigner: true, isWritable: true },
      {
        pubkey: getAssociatedTokenAddressSync(p.agentMint, owner, true, TOKEN_2022_PROGRAM_ID),
        isSigner: false,
        isWritable: true,
      },
      { pubkey: TOKEN_2022_PROGRAM_ID, isSigner: false, isWritable: false },
      { pubkey: agentIndexAddress(p.registry.totalAgents + 1n, program), isSigner: false, isWritable: true },
      { pubkey: ASSOCIATED_TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
    ],
    data: Buffer.from(data),
  });
}

// ---------------------------------------------------------------------------------------------
// Event

/** SATI's AgentRegistered event. */
export interface AgentRegistered {
  mint: PublicKey;
  owner: PublicKey;
  memberNumber: bigint;
  name: string;
  uri: string;
  nonTransferable: boolean;
}

/** Decodes one AgentRegistered record (discriminator ‖ Borsh); null otherwise. Never throws. */
export function decodeAgentRegistered(data: Uint8Array): AgentRegistered | null {
  if (!(data instanceof Uint8Array) || !startsWith(data, SATI_DISCRIMINATORS.agentRegistered)) return null;
  try {
    const r = new BorshReader(data);
    r.bytes(8);
    const ev = {
      mint: r.key(),
      owner: r.key(),
      memberNumber: r.u64(),
      name: r.string(SATI_LIMITS.name),
      uri: r.string(SATI_LIMITS.uri),
      nonTransferable: r.bool(),
    };
    return r.o === data.length ? ev : null;
  } catch {
    return null;
  }
}

/** AgentRegistered bytes (tests; the program writes the same). */
export function encodeAgentRegistered(e: AgentRegistered): Uint8Array {
  return new BorshWriter()
    .bytes(SATI_DISCRIMINATORS.agentRegistered)
    .bytes(e.mint.toBytes())
    .bytes(e.owner.toBytes())
    .u64(e.memberNumber)
    .string(e.name)
    .string(e.uri)
    .u8(e.nonTransferable ? 1 : 0)
    .done();
}

const INVOKE = /^Program (\w+) invoke \[\d+\]$/;
const EXIT = /^Program (\w+) (success|failed)/;
const DATA = 'Program data: ';

/** Every AgentRegistered emitted by `program` itself in a transaction's logs (CPI depth tracked). Never throws. */
export function parseAgentRegisteredLogs(
  logs: readonly string[],
  program: PublicKey = SATI_MAINNET.program,
): AgentRegistered[] {
  const id = program.toBase58();
  const stack: string[] = [];
  const out: AgentRegistered[] = [];
  for (const line of Array.isArray(logs) ? logs : []) {
    if (typeof line !== 'string') continue;
    const inv = INVOKE.exec(line);
    if (inv) {
      stack.push(inv[1]);
      continue;
    }
    if (EXIT.test(line)) {
      stack.pop();
      continue;
    }
    if (!line.startsWith(DATA) || stack[stack.length - 1] !== id) continue;
    const b64 = line.slice(DATA.length);
    if (b64.includes(' ') || b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) continue;
    let bin: string;
    try {
      bin = atob(b64);
    } catch {
      continue;
    }
    const ev = decodeAgentRegistered(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
    if (ev) out.push(ev);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The rules

/** An account as read over RPC (getAccountInfo): program owner and data. */
export interface RawAccount {
  owner: PublicKey;
  data: Uint8Array;
  /** 0 (or absent data) = closed. */
  lamports?: number;
}

/** Why an agent id is not a registered SATI agent. */
export type SatiRegistrationReason =
  /** No account at the id, or not a Token-2022 mint. */
  | 'unregistered'
  /** A Token-2022 mint but not an NFT: decimals ≠ 0, supply ≠ 1 or a mint authority left. */
  | 'not_nft'
  /** An NFT without a TokenGroupMember naming SATI's group (and itself). */
  | 'not_sati_member';

/** A registered agent: its member number and the metadata its mint carries. */
export interface SatiRegistered {
  ok: true;
  memberNumber: bigint;
  name?: string;
  symbol?: string;
  uri?: string;
  additionalMetadata?: (readonly [string, string])[];
  /** The TokenMetadata update authority (SATI sets it to the owner at registration). */
  metadataAuthority?: PublicKey;
  nonTransferable: boolean;
}

export type SatiRegistration = SatiRegistered | { ok: false; reason: SatiRegistrationReason };

/**
 * SATI rule 3: is the mint at `mintAccount.address` a registered SATI agent? It must be a
 * Token-2022 mint with 0 decimals, supply 1 and no mint authority, whose TokenGroupMember names
 * `registry.groupMint` (read from RegistryConfig, never assumed) and itself. Metadata that fails
 * to parse does not void a registration (it is the owner's to update); it is just absent.
 */
export function satiRegistration(
  mintAccount: (RawAccount & { address: PublicKey }) | null,
  registry: Pick<RegistryConfig, 'groupMint'>,
): SatiRegistration {
  if (!isKey(registry?.groupMint)) throw new TypeError('registry.groupMint must be a PublicKey');
  if (
    !mintAccount ||
    !isKey(mintAccount.address) ||
    !isKey(mintAccount.owner) ||
    !(mintAccount.data instanceof Uint8Array)
  )
    return { ok: false, reason: 'unregistered' };
  if (mintAccount.lamports === 0 || !mintAccount.owner.equals(TOKEN_2022_PROGRAM_ID))
    return { ok: false, reason: 'unregistered' };
  let mint: ReturnType<typeof unpackMint>;
  try {
    const data = Buffer.from(mintAccount.data.buffer, mintAccount.data.byteOffset, mintAccount.data.byteLength);
    mint = unpackMint(
      mintAccount.address,
      { data, owner: mintAccount.owner, lamports: mintAccount.lamports ?? 1, executable: false },
      TOKEN_2022_PROGRAM_ID,
    );
  } catch {
    return { ok: false, reason: 'unregistered' };
  }
  if (!mint.isInitialized) return { ok: false, reason: 'unregistered' };
  if (mint.decimals !== 0 || mint.supply !== 1n || mint.mintAuthority !== null) return { ok: false, reason: 'not_nft' };
  let member: ReturnType<typeof getTokenGroupMemberState>;
  try {
    member = getTokenGroupMemberState(mint);
  } catch {
    member = null;
  }
  if (!member?.group || !member.mint || member.memberNumber === undefined)
    return { ok: false, reason: 'not_sati_member' };
  if (!member.group.equals(registry.groupMint) || !member.mint.equals(mintAccount.address))
    return { ok: false, reason: 'not_sati_member' };
  const out: SatiRegistered = { ok: true, memberNumber: BigInt(member.memberNumber), nonTransferable: false };
  try {
    out.nonTransferable = getExtensionTypes(mint.tlvData).includes(ExtensionType.NonTransferable);
    const raw = getExtensionData(ExtensionType.TokenMetadata, mint.tlvData);
    if (raw) {
      const md = unpackTokenMetadata(raw);
      if (md.mint.equals(mintAccount.address)) {
        Object.assign(out, {
          name: md.name,
          symbol: md.symbol,
          uri: md.uri,
          additionalMetadata: md.additionalMetadata,
        });
        if (md.updateAuthority) out.metadataAuthority = md.updateAuthority;
      }
    }
  } catch {
    // unreadable metadata: registered, without a name
  }
  return out;
}

/**
 * Does the AgentIndex account at {@link agentIndexAddress}(memberNumber) hold `mint`? (The optional half of rule 3.)
 */
export function agentIndexHolds(
  indexAccount: RawAccount | null,
  mint: PublicKey,
  program: PublicKey = SATI_MAINNET.program,
): boolean {
  if (!indexAccount || indexAccount.lamports === 0 || !isKey(indexAccount.owner) || !indexAccount.owner.equals(program))
    return false;
  const ix = decodeAgentIndex(indexAccount.data);
  return !!ix && ix.mint.equals(mint);
}

/** Why a key may not sign for an agent as its delegate. */
export type DelegationReason =
  /** No account at the attestation PDA: never issued. */
  | 'no_delegation'
  /** The account was closed (SAS revokes by closing it): lamports 0 or no data. */
  | 'delegation_revoked'
  /** Not a SAS attestation of SATI's credential and DelegateV1 schema at the expected PDA. */
  | 'not_delegate_attestation'
  /** It names another agent or another delegate. */
  | 'delegation_mismatch'
  /** The owner who delegated no longer holds the NFT (a transfer voids old delegations). */
  | 'delegator_not_owner'
  /** Expiry passed. */
  | 'delegation_expired';

export type DelegationCheck =
  | { ok: true; expiry: bigint; delegator: PublicKey }
  | { ok: false; reason: DelegationReason };

/** Parameters of {@link delegationValid}. */
export interface DelegationQuery {
  agent: PublicKey;
  delegate: PublicKey;
  /** The owner of the token account holding the agent NFT now. */
  currentOwner: PublicKey;
  /** Unix seconds (chain clock or wall clock). */
  nowSec: bigint | number;
  addresses?: Pick<SatiAddresses, 'sas' | 'credential' | 'delegateSchema'>;
}

/**
 * May `delegate` sign for `agent` now? `attestation` is the account read at
 * {@link delegateAttestationAddress}(delegate, agent) (`address` is checked against it), or null
 * when there is none. Valid while: owned by SAS at that PDA, SATI's credential and the DelegateV1
 * schema, naming this agent and this delegate, delegated by the current owner, and
 * `expiry == 0 || expiry > now`.
 */
export function delegationValid(
  attestation: (RawAccount & { address: PublicKey }) | null,
  q: DelegationQuery,
): DelegationCheck {
  if (!isKey(q?.agent) || !isKey(q.delegate) || !isKey(q.currentOwner))
    throw new TypeError('agent, delegate and currentOwner must be PublicKeys');
  const now = typeof q.nowSec === 'bigint' ? q.nowSec : BigInt(Math.floor(q.nowSec));
  const a = q.addresses ?? SATI_MAINNET;
  if (!attestation) return { ok: false, reason: 'no_delegation' };
  if (attestation.lamports === 0 || !(attestation.data instanceof Uint8Array) || attestation.data.length === 0)
    return { ok: false, reason: 'delegation_revoked' };
  if (!isKey(attestation.owner) || !attestation.owner.equals(a.sas))
    return { ok: false, reason: 'not_delegate_attestation' };
  if (!isKey(attestation.address) || !attestation.address.equals(delegateAttestationAddress(q.delegate, q.agent, a)))
    return { ok: false, reason: 'not_delegate_attestation' };
  const d = decodeDelegateAttestation(attestation.data);
  if (!d?.credential.equals(a.credential) || !d.schema.equals(a.delegateSchema))
    return { ok: false, reason: 'not_delegate_attestation' };
  if (!d.agent.equals(q.agent) || !d.delegate.equals(q.delegate)) return { ok: false, reason: 'delegation_mismatch' };
  if (!d.delegator.equals(q.currentOwner)) return { ok: false, reason: 'delegator_not_owner' };
  if (d.expiry !== 0n && d.expiry <= now) return { ok: false, reason: 'delegation_expired' };
  return { ok: true, expiry: d.expiry, delegator: d.delegator };
}
