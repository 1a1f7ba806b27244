/**
 * Bounded decoder of Solana wire transactions (legacy and v0), for the embedded chain's
 * JSON-RPC front. Size first, then structure; hostile bytes return
 * `null`, never throw.
 */
import bs58 from 'bs58';

// Every RPC call converts addresses and signatures both ways: bs58 (base-x, byte arithmetic)
// does it 3-4.5x faster than @solana/kit's codec (BigInt arithmetic) and allocates far less
// (32-byte keys, 100,000 each way on this machine: 219/200 ms against 709/912 ms).

/**
 * Base58 text of bytes (addresses, signatures, blockhashes, instruction data), as one flat string.
 * bs58 builds its answer a character at a time with `+=`, which V8 keeps as a rope of one node per
 * character until something flattens it: a kept 88-character signature then holds ~2.4 KB instead
 * of ~110 bytes, and the chain keeps one per transaction in its history (100,000 by default). A
 * string decoded from bytes is always flat.
 */
export function toBase58(bytes: Uint8Array): string {
  const rope = bs58.encode(bytes);
  return Buffer.from(rope, 'latin1').toString('latin1');
}

/** Bytes of base58 text, or null when the text is not base58. */
export function fromBase58(text: string): Uint8Array | null {
  if (text.length > 2048 || !/^[1-9A-HJ-NP-Za-km-z]*$/.test(text)) return null;
  try {
    return bs58.decode(text);
  } catch {
    return null;
  }
}

/** True when `text` is a base58 32-byte address. */
export function isAddress(text: unknown): text is string {
  if (typeof text !== 'string' || text.length < 32 || text.length > 44) return false;
  const b = fromBase58(text);
  return b !== null && b.length === 32;
}

export interface WireInstruction {
  programIdIndex: number;
  accounts: number[];
  data: Uint8Array;
}

export interface WireLookup {
  accountKey: string;
  writableIndexes: number[];
  readonlyIndexes: number[];
}

/** A decoded wire transaction. */
export interface WireTransaction {
  bytes: Uint8Array;
  signatures: string[];
  version: 'legacy' | 0;
  header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
  staticKeys: string[];
  /** The same keys as bytes (avoids re-decoding base58 on every account read). */
  staticKeyBytes: Uint8Array[];
  recentBlockhash: string;
  /** Offset of the 32 blockhash bytes inside `bytes` (for replaceRecentBlockhash). */
  blockhashOffset: number;
  instructions: WireInstruction[];
  lookups: WireLookup[];
}

class Reader {
  pos = 0;
  constructor(readonly b: Uint8Array) {}
  u8(): number {
    if (this.pos >= this.b.length) throw new RangeError('eof');
    return this.b[this.pos++];
  }
  shortVec(): number {
    let v = 0;
    for (let i = 0; i < 3; i++) {
      const x = this.u8();
      v |= (x & 0x7f) << (7 * i);
      if ((x & 0x80) === 0) return v;
    }
    throw new RangeError('compact-u16 too long');
  }
  take(n: number): Uint8Array {
    if (n < 0 || this.pos + n > this.b.length) throw new RangeError('eof');
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  indexes(): number[] {
    const n = this.shortVec();
    return Array.from(this.take(n));
  }
}

/** Largest serialized transaction a cluster accepts (PACKET_DATA_SIZE). */
export const MAX_WIRE_BYTES = 1232;

/** Decodes a serialized transaction; null when the bytes are not one (no trailing bytes). */
export function decodeWireTransaction(bytes: Uint8Array): WireTransaction | null {
  if (bytes.length < 1 + 64 + 3 + 1 + 32 + 32 + 1 || bytes.length > MAX_WIRE_BYTES) return null;
  try {
    const r = new Reader(bytes);
    const nsig = r.shortVec();
    if (nsig === 0) return null;
    const signatures: string[] = [];
    for (let i = 0; i < nsig; i++) signatures.push(toBase58(r.take(64)));
    let version: 'legacy' | 0 = 'legacy';
    const first = bytes[r.pos];
    if (first & 0x80) {
      if ((first & 0x7f) !== 0) return null;
      version = 0;
      r.pos++;
    }
    const header = {
      numRequiredSignatures: r.u8(),
      numReadonlySignedAccounts: r.u8(),
      numReadonlyUnsignedAccounts: r.u8(),
    };
    if (header.numRequiredSignatures !== nsig) return null;
    const nkeys = r.shortVec();
    if (nkeys < nsig || header.numReadonlySignedAccounts >= nsig) return null;
    if (header.numReadonlyUnsignedAccounts > nkeys - nsig) return null;
    const staticKeys: string[] = [];
    const staticKeyBytes: Uint8Array[] = [];
    for (let i = 0; i < nkeys; i++) {
      const k = r.take(32);
      staticKeyBytes.push(k);
      staticKeys.push(toBase58(k));
    }
    const blockhashOffset = r.pos;
    const recentBlockhash = toBase58(r.take(32));
    const nix = r.shortVec();
    const instructions: WireInstruction[] = [];
    for (let i = 0; i < nix; i++) {
      const programIdIndex = r.u8();
      const accounts = r.indexes();
      const data = r.take(r.shortVec());
      instructions.push({ programIdIndex, accounts, data });
    }
    const lookups: WireLookup[] = [];
    if (version === 0) {
      const nl = r.shortVec();
      for (let i = 0; i < nl; i++) {
        lookups.push({ accountKey: toBase58(r.take(32)), writableIndexes: r.indexes(), readonlyIndexes: r.indexes() });
      }
    }
    if (r.pos !== bytes.length) return null;
    const nLoaded = lookups.reduce((n, l) => n + l.writableIndexes.length + l.readonlyIndexes.length, 0);
    for (const ix of instructions) {
      if (ix.programIdIndex >= nkeys) return null;
      if (ix.accounts.some((a) => a >= nkeys + nLoaded)) return null;
    }
    return {
      bytes,
      signatures,
      version,
      header,
      staticKeys,
      staticKeyBytes,
      recentBlockhash,
      blockhashOffset,
      instructions,
      lookups,
    };
  } catch {
    return null;
  }
}

/**
 * Precompiles whose instruction data starts with the number of signatures they verify. The
 * runtime charges each of those signatures like a transaction signature (5,000 lamports), so a
 * resolve_challenge transaction with its Ed25519 check pays for two.
 */
const SIGNATURE_PRECOMPILES = new Set([
  'Ed25519SigVerify111111111111111111111111111',
  'KeccakSecp256k11111111111111111111111111111',
]);

/** Signatures a transaction's fee counts: its own, plus those its precompile instructions verify. */
export function feeSignatures(tx: Pick<WireTransaction, 'header' | 'staticKeys' | 'instructions'>): number {
  let n = tx.header.numRequiredSignatures;
  for (const ix of tx.instructions) {
    if (SIGNATURE_PRECOMPILES.has(tx.staticKeys[ix.programIdIndex]) && ix.data.length > 0) n += ix.data[0];
  }
  return n;
}

/**
 * Decodes a serialized message (what getFeeForMessage receives) as an unsigned transaction; null when it is not one.
 */
export function decodeWireMessage(message: Uint8Array): WireTransaction | null {
  const off = message.length > 0 && message[0] & 0x80 ? 1 : 0;
  if (message.length < off + 1) return null;
  const nsig = message[off];
  if (nsig === 0 || nsig > 0x7f) return null;
  const bytes = new Uint8Array(1 + 64 * nsig + message.length);
  bytes[0] = nsig;
  bytes.set(message, 1 + 64 * nsig);
  return decodeWireTransaction(bytes);
}

/** Whether static key `i` is writable under the message header rules. */
export function isStaticWritable(tx: WireTransaction, i: number): boolean {
  const h = tx.header;
  if (i < h.numRequiredSignatures) return i < h.numRequiredSignatures - h.numReadonlySignedAccounts;
  return i < tx.staticKeys.length - h.numReadonlyUnsignedAccounts;
}
