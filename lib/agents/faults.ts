/**
 * Invalid envelopes for the misbehaving demo agent and for tests: one maker per docs/protocol.md §3
 * reason code, each failing exactly that check (and passing every earlier one) when the
 * observer validates it in live mode at `nowUs` with the agent registered.
 * Pure: keys, ids, nonces and clocks come in as arguments.
 */

import { encodeCanonical } from '../protocol/cbor';
import { keccak256 } from '../protocol/crypto';
import { buildEnvelope, encodeEnvelope, signEnvelope } from '../protocol/envelope';
import type { Envelope, ReasonCode } from '../protocol/types';
import { MsgType } from '../protocol/types';

export interface FaultContext {
  /** Signing seed of a registered agent, and its id. */
  seed: Uint8Array;
  agentId: Uint8Array;
  /** A nonce above the sender's last accepted one (the faults except `replay` use it). */
  nonce: bigint;
  /** A nonce at or below the last accepted one (for `replay`). */
  staleNonce: bigint;
  nowUs: bigint;
  /** 32 fresh random bytes: the unregistered agent's id and key seed, salt for garbage. */
  random: Uint8Array;
  conversationId?: Uint8Array;
}

function base(ctx: FaultContext, over: Partial<Envelope> = {}): Envelope {
  const payload = over.payload ?? new TextEncoder().encode('beacon');
  const e: Envelope = {
    version: 1,
    msgType: MsgType.BEACON,
    sender: ctx.agentId,
    recipient: new Uint8Array(32),
    timestamp: ctx.nowUs,
    blockRef: 0n,
    nonce: ctx.nonce,
    conversationId: ctx.conversationId ?? new Uint8Array(16),
    payloadHash: keccak256(payload),
    payloadLen: payload.length,
    payload,
    signature: new Uint8Array(64),
    ...over,
  };
  return e;
}

const signed = (e: Envelope, seed: Uint8Array) => encodeEnvelope(signEnvelope(e, seed));

/** The reason codes {@link makeFault} can produce (all of docs/protocol.md §3). */
export const FAULT_REASONS: readonly ReasonCode[] = [
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
];

/** Encoded bytes that fail validation with `reason`. Throws RangeError for an unknown reason. */
export function makeFault(reason: ReasonCode, ctx: FaultContext): Uint8Array {
  if (!(ctx.random instanceof Uint8Array) || ctx.random.length !== 32)
    throw new RangeError('ctx.random must be 32 bytes');
  switch (reason) {
    case 'decode': {
      // A valid envelope with one trailing byte: canonical CBOR forbids it.
      const ok = signed(base(ctx), ctx.seed);
      const out = new Uint8Array(ok.length + 1);
      out.set(ok);
      out[ok.length] = ctx.random[0];
      return out;
    }
    case 'version':
      return signed(base(ctx, { version: 2 }), ctx.seed);
    case 'msg_type':
      return signed(base(ctx, { msgType: 0x0e }), ctx.seed);
    case 'unregistered': {
      const seed = ctx.random;
      return buildEnvelope(
        {
          msgType: MsgType.BEACON,
          sender: keccak256(seed),
          timestamp: ctx.nowUs,
          nonce: ctx.nonce,
          conversationId: new Uint8Array(16),
          payload: new Uint8Array([1]),
        },
        seed,
      ).bytes;
    }
    case 'signature': {
      const e = signEnvelope(base(ctx), ctx.seed);
      const sig = e.signature.slice();
      sig[0] ^= 0x01;
      return encodeEnvelope({ ...e, signature: sig });
    }
    case 'replay':
      return signed(base(ctx, { nonce: ctx.staleNonce }), ctx.seed);
    case 'timestamp':
      return signed(base(ctx, { timestamp: ctx.nowUs - 120_000_000n }), ctx.seed);
    case 'payload_hash':
      return signed(base(ctx, { payloadHash: keccak256(ctx.random) }), ctx.seed);
    case 'payload_len': {
      const e = base(ctx);
      return signed({ ...e, payloadLen: e.payloadLen + 1 }, ctx.seed);
    }
    case 'payload_schema': {
      const payload = encodeCanonical([1n]); // not a 52-byte FEEDBACK
      return signed(
        base(ctx, { msgType: MsgType.FEEDBACK, payload, payloadHash: keccak256(payload), payloadLen: payload.length }),
        ctx.seed,
      );
    }
    default:
      throw new RangeError(`reason: unknown ${String(reason)}`);
  }
}
