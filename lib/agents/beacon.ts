/**
 * The demo agents' BEACON payload (canonical CBOR `[peer id, [multiaddr, ...]]`, UTF-8 byte
 * strings), their ADVERTISE capabilities (the `JSON` format hint, docs/protocol.md §8) and the
 * small byte helpers the agent derives conversation ids and salts with.
 */
import { encodeAdvertiseJson } from '../protocol/advertise';
import { decodeCanonical, encodeCanonical } from '../protocol/cbor';
import { sha256 } from '../protocol/crypto';
import { toHex } from '../protocol/hex';
import { MsgType } from '../protocol/types';
import type { Outgoing } from './scenario';

/** The service every demo seller offers (its SHA-256 is the NEG1 service_hash). */
export const SERVICE_TEXT = 'demo: summarise a document';
export const SERVICE = sha256(new TextEncoder().encode(SERVICE_TEXT));

/** A broadcast-topic message with no conversation. */
export function broadcast(msgType: number, payload: Uint8Array): Outgoing {
  return { msgType, to: { kind: 'topic', topic: 'broadcast' }, conversationId: new Uint8Array(16), payload };
}

/** A BEACON, and with a strategy also an ADVERTISE of this seller's capabilities. */
export function beaconMessages(peerId: string, addrs: readonly string[], advertiseAs?: string): Outgoing[] {
  const out = [broadcast(MsgType.BEACON, encodeBeacon(peerId, addrs))];
  if (advertiseAs !== undefined)
    out.push(
      broadcast(
        MsgType.ADVERTISE,
        encodeCapabilities({ service: SERVICE_TEXT, serviceHash: SERVICE, strategy: advertiseAs, sealedBids: true }),
      ),
    );
  return out;
}

/**
 * ADVERTISE payload: what this agent sells and on what terms, readable by any observer. The
 * price range is the span the seller stance draws from (scenario: initial 950..1200, reservation
 * 450..750); verification tiers are the Handshake tiers of NEG1 item 7 it accepts.
 */
export function encodeCapabilities(p: {
  service: string;
  serviceHash: Uint8Array;
  strategy: string;
  sealedBids: boolean;
}): Uint8Array {
  return encodeAdvertiseJson({
    service: p.service,
    serviceHash: toHex(p.serviceHash),
    role: 'seller',
    price: { min: 450, max: 1200, token: 'demo USDC (smallest unit)' },
    strategy: p.strategy,
    negotiation: { format: 'NEG1', sealedBids: p.sealedBids, maxRounds: 20 },
    verification: { tiers: [0, 1, 2], notary: true },
  });
}

/** BEACON payload announcing this agent's peer id and dialable addresses. */
export function encodeBeacon(peerId: string, addrs: readonly string[]): Uint8Array {
  const enc = new TextEncoder();
  return encodeCanonical([enc.encode(peerId), addrs.map((a) => enc.encode(a))]);
}

/** The multiaddrs of a BEACON payload, or undefined when it is not one of ours. */
export function parseBeacon(payload: Uint8Array): string[] | undefined {
  try {
    const v = decodeCanonical(payload);
    if (!Array.isArray(v) || v.length !== 2 || !Array.isArray(v[1])) return undefined;
    const dec = new TextDecoder();
    return (v[1] as unknown[])
      .filter((x): x is Uint8Array => x instanceof Uint8Array)
      .map((x) => dec.decode(x))
      .filter((s) => s.startsWith('/'));
  } catch {
    return undefined;
  }
}

export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

export function u64(n: bigint): Uint8Array {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt.asUintN(64, n));
  return out;
}
