/**
 * Shared protocol types (docs/protocol.md §2–3). Every part of the observatory speaks these.
 */

/** Message types, spec §5.3 (docs/protocol.md §2: 0x01..0x0D). */
export const MsgType = {
  ADVERTISE: 0x01,
  DISCOVER: 0x02,
  PROPOSE: 0x03,
  COUNTER: 0x04,
  ACCEPT: 0x05,
  REJECT: 0x06,
  DELIVER: 0x07,
  NOTARIZE_BID: 0x08,
  NOTARIZE_ASSIGN: 0x09,
  VERDICT: 0x0a,
  FEEDBACK: 0x0b,
  DISPUTE: 0x0c,
  BEACON: 0x0d,
} as const;
export type MsgTypeName = keyof typeof MsgType;
export type MsgTypeCode = (typeof MsgType)[MsgTypeName];

/** A decoded envelope (docs/protocol.md §2). Integers that may exceed 2^53 are bigint. */
export interface Envelope {
  version: number;
  msgType: number;
  /** Agent id, 32 bytes (SATI mint address). */
  sender: Uint8Array;
  /** 32 bytes; all zero = broadcast. */
  recipient: Uint8Array;
  /** Unix microseconds. */
  timestamp: bigint;
  /** Solana slot. */
  blockRef: bigint;
  nonce: bigint;
  /** 16 bytes. */
  conversationId: Uint8Array;
  /** keccak256(payload), 32 bytes. */
  payloadHash: Uint8Array;
  payloadLen: number;
  payload: Uint8Array;
  /** Ed25519, 64 bytes. */
  signature: Uint8Array;
}

/** Validation reason codes, in check order (docs/protocol.md §3). */
export const REASON_CODES = [
  'decode',
  'version',
  'msg_type',
  'unregistered',
  'signature',
  'replay',
  'timestamp',
  'payload_hash',
  'payload_len',
  'payload_schema',
] as const;
export type ReasonCode = (typeof REASON_CODES)[number];

export type ValidationResult =
  | { ok: true; envelope: Envelope /** keccak256 of the encoded envelope */; id: Uint8Array }
  | { ok: false; reason: ReasonCode; detail?: string };

/**
 * Signer registry (docs/protocol.md §2 "Signer"): agent id → Ed25519 public keys allowed to sign
 * for it (identity owner and delegates). Implementations live outside lib/protocol
 * (local table, chain-backed). Returns an empty list for an unknown agent.
 */
export interface SignerRegistry {
  keysFor(agentId: Uint8Array): readonly Uint8Array[] | Promise<readonly Uint8Array[]>;
}

/** Per-sender last accepted nonce, keyed by lowercase hex agent id. A Map satisfies it. */
export interface NonceState {
  get(agentHex: string): bigint | undefined;
  set(agentHex: string, nonce: bigint): unknown;
}

export type ValidationMode = 'live' | 'archive';

export interface ValidateParams {
  mode: ValidationMode;
  registry: SignerRegistry;
  /** Required in live mode; updated only when an envelope is accepted. */
  nonces?: NonceState;
  /** Required in live mode: the caller's clock, unix microseconds. */
  nowUs?: bigint;
}
