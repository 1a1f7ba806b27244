/**
 * The demo agents' BEACON payload (canonical CBOR `[peer id, [multiaddr, ...]]`, UTF-8 byte
 * strings) and the small byte helpers the agent derives conversation ids and salts with.
 */
import { decodeCanonical, encodeCanonical } from '../protocol/cbor';

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
    return (v[1] as unknown[]).filter((x): x is Uint8Array => x instanceof Uint8Array).map((x) => dec.decode(x)).filter((s) => s.startsWith('/'));
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
