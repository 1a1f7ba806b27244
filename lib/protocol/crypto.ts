/**
 * Hashes and Ed25519 for lib/protocol (docs/protocol.md §2 signature, §3 payload_hash, §8 NEGC).
 *
 * keccak256: the WASM module of keccak-wasm.ts (one call per hash, lanes in locals), then
 * hash-wasm, then @noble/hashes when WebAssembly is unavailable; both WASM instances are
 * created once at module load with top-level await (bench:protocol and README for figures).
 * Ed25519 verification: the fastest backend that loads, in the order measured by
 * `npm run bench:protocol` (sodium-native, node:crypto with a cached KeyObject per key,
 * @noble/curves with zip215 = false). All three are RFC 8032 strict and cofactorless on the
 * vectors (S >= L and non-canonical points rejected); the tests check they agree.
 * Server-only backends are loaded by dynamic import guarded by a Node check, so the module
 * stays importable in a browser (where @noble/curves is used).
 */

import { ed25519 as nobleEd } from '@noble/curves/ed25519.js';
import { sha256 as nobleSha256 } from '@noble/hashes/sha2.js';
import { keccak_256 as nobleKeccak } from '@noble/hashes/sha3.js';
import { createKeccak } from 'hash-wasm';
import { assertBytes } from './errors';
import { createWasmKeccak, type WasmKeccak } from './keccak-wasm';

type WasmHasher = Awaited<ReturnType<typeof createKeccak>>;
let wasmKeccak: WasmHasher | undefined;
try {
  wasmKeccak = await createKeccak(256);
} catch {
  wasmKeccak = undefined;
}
let ownKeccak: WasmKeccak | undefined;
try {
  ownKeccak = await createWasmKeccak();
} catch {
  ownKeccak = undefined;
}

/** The keccak implementations that loaded here, fastest first as bench:protocol measured them. */
export type KeccakBackendName = 'keccak-wasm' | 'hash-wasm';
let keccakBackendName: KeccakBackendName = ownKeccak ? 'keccak-wasm' : 'hash-wasm';
export const keccakBackends = (): KeccakBackendName[] => (ownKeccak ? ['keccak-wasm', 'hash-wasm'] : ['hash-wasm']);
export const keccakBackend = (): KeccakBackendName => keccakBackendName;
/** Selects the keccak implementation (the bench compares them inside full validation). */
export function setKeccakBackend(name: KeccakBackendName): void {
  if (!keccakBackends().includes(name)) throw new Error(`keccak backend ${name} is not available`);
  keccakBackendName = name;
}

/** Keccak-256 (the original Keccak padding, not SHA3-256), docs/protocol.md §2–3, §5–6. */
export function keccak256(bytes: Uint8Array): Uint8Array {
  if (ownKeccak && keccakBackendName === 'keccak-wasm') return ownKeccak.hash(bytes);
  return keccak256HashWasm(bytes);
}

/**
 * keccak256(bytes) == expected (32 bytes), docs/protocol.md §3 payload_hash: the digest is compared
 * where the hasher leaves it, without returning a copy.
 */
export function keccak256Equals(bytes: Uint8Array, expected: Uint8Array): boolean {
  if (ownKeccak && keccakBackendName === 'keccak-wasm') return ownKeccak.equals(bytes, expected);
  if (expected.length !== 32) return false;
  const d = keccak256HashWasm(bytes);
  for (let i = 0; i < 32; i++) if (d[i] !== expected[i]) return false;
  return true;
}

/** keccak256 through hash-wasm (falling back to @noble/hashes): for cross-checks and the bench. */
export function keccak256HashWasm(bytes: Uint8Array): Uint8Array {
  if (wasmKeccak) {
    wasmKeccak.init();
    wasmKeccak.update(bytes);
    return wasmKeccak.digest('binary');
  }
  return nobleKeccak(bytes);
}

/** keccak256 through @noble/hashes only: for cross-checking the fast path. */
export const keccak256Noble = (bytes: Uint8Array): Uint8Array => nobleKeccak(bytes);

/** SHA-256 (docs/protocol.md §8 NEGC commitments). */
export function sha256(bytes: Uint8Array): Uint8Array {
  return nobleSha256(bytes);
}

/** One Ed25519 implementation: strict RFC 8032 verify, deterministic sign from a 32-byte seed. */
export interface Ed25519Backend {
  readonly name: 'sodium-native' | 'node:crypto' | '@noble/curves';
  verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean;
  sign(message: Uint8Array, seed: Uint8Array): Uint8Array;
  publicKey(seed: Uint8Array): Uint8Array;
}

const nobleBackend: Ed25519Backend = {
  name: '@noble/curves',
  verify(sig, msg, pk) {
    try {
      return nobleEd.verify(sig, msg, pk, { zip215: false });
    } catch {
      return false;
    }
  },
  sign: (msg, seed) => nobleEd.sign(msg, seed),
  publicKey: (seed) => nobleEd.getPublicKey(seed),
};

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

async function loadNodeBackend(): Promise<Ed25519Backend | undefined> {
  if (!isNode) return undefined;
  try {
    const nc: typeof import('node:crypto') = await import(/* webpackIgnore: true */ 'node:crypto');
    const SPKI = Buffer.from('302a300506032b6570032100', 'hex');
    const PKCS8 = Buffer.from('302e020100300506032b657004220420', 'hex');
    const cache = new Map<string, import('node:crypto').KeyObject | null>();
    const keyFor = (pk: Uint8Array) => {
      const k = Buffer.from(pk.buffer, pk.byteOffset, pk.length).toString('latin1');
      let ko = cache.get(k);
      if (ko === undefined) {
        try {
          ko = nc.createPublicKey({ key: Buffer.concat([SPKI, pk]), format: 'der', type: 'spki' });
        } catch {
          ko = null;
        }
        if (cache.size >= 10_000) cache.clear();
        cache.set(k, ko);
      }
      return ko;
    };
    const priv = (seed: Uint8Array) =>
      nc.createPrivateKey({ key: Buffer.concat([PKCS8, seed]), format: 'der', type: 'pkcs8' });
    return {
      name: 'node:crypto',
      verify(sig, msg, pk) {
        if (sig.length !== 64 || pk.length !== 32) return false;
        const ko = keyFor(pk);
        if (!ko) return false;
        try {
          return nc.verify(null, msg, ko, sig);
        } catch {
          return false;
        }
      },
      sign: (msg, seed) => new Uint8Array(nc.sign(null, msg, priv(seed))),
      publicKey: (seed) =>
        new Uint8Array(nc.createPublicKey(priv(seed)).export({ format: 'der', type: 'spki' }).subarray(12)),
    };
  } catch {
    return undefined;
  }
}

async function loadSodiumBackend(): Promise<Ed25519Backend | undefined> {
  if (!isNode) return undefined;
  try {
    const name = 'sodium-native'; // a variable: no bundler resolves it, no types needed
    const mod = await import(/* webpackIgnore: true */ name);
    const s = (mod.default ?? mod) as {
      crypto_sign_verify_detached(sig: Uint8Array, m: Uint8Array, pk: Uint8Array): boolean;
      crypto_sign_seed_keypair(pk: Uint8Array, sk: Uint8Array, seed: Uint8Array): void;
      crypto_sign_detached(sig: Uint8Array, m: Uint8Array, sk: Uint8Array): void;
    };
    // Deriving the key pair costs a scalar multiplication, as much as the signature itself; a
    // signer signs with the same seed again and again, so the last few pairs are kept.
    const pairs = new Map<string, { pk: Uint8Array; sk: Uint8Array }>();
    const keypair = (seed: Uint8Array) => {
      const k = Buffer.from(seed.buffer, seed.byteOffset, seed.byteLength).toString('hex');
      let kp = pairs.get(k);
      if (kp === undefined) {
        kp = { pk: new Uint8Array(32), sk: new Uint8Array(64) };
        s.crypto_sign_seed_keypair(kp.pk, kp.sk, seed);
        if (pairs.size >= 64) pairs.delete(pairs.keys().next().value!);
        pairs.set(k, kp);
      }
      return kp;
    };
    return {
      name: 'sodium-native',
      verify(sig, msg, pk) {
        if (sig.length !== 64 || pk.length !== 32) return false;
        try {
          return s.crypto_sign_verify_detached(sig, msg, pk);
        } catch {
          return false;
        }
      },
      sign(msg, seed) {
        const out = new Uint8Array(64);
        s.crypto_sign_detached(out, msg, keypair(seed).sk);
        return out;
      },
      publicKey: (seed) => keypair(seed).pk.slice(),
    };
  } catch {
    return undefined;
  }
}

/** Every backend that loaded here, fastest first (order measured by bench:protocol). */
export const ed25519Backends: readonly Ed25519Backend[] = [
  await loadSodiumBackend(),
  await loadNodeBackend(),
  nobleBackend,
].filter((b): b is Ed25519Backend => b !== undefined);

let active: Ed25519Backend = ed25519Backends[0];

/** The Ed25519 backend in use. */
export function ed25519Backend(): Ed25519Backend {
  return active;
}

/** Selects an Ed25519 backend by name (bench and cross-check tests). Throws RangeError if absent. */
export function setEd25519Backend(name: Ed25519Backend['name']): void {
  const b = ed25519Backends.find((x) => x.name === name);
  if (!b) throw new RangeError(`name: Ed25519 backend ${name} is not available`);
  active = b;
}

/** RFC 8032 strict, cofactorless Ed25519 verification (docs/protocol.md §2). Never throws. */
export function ed25519Verify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  return active.verify(signature, message, publicKey);
}

/** Ed25519 signature of `message` by the 32-byte seed `seed` (RFC 8032, deterministic). */
export function ed25519Sign(message: Uint8Array, seed: Uint8Array): Uint8Array {
  assertBytes('secretKey', seed, 32);
  return active.sign(message, seed);
}

/** The Ed25519 public key of a 32-byte seed. */
export function publicKeyFromSeed(seed: Uint8Array): Uint8Array {
  assertBytes('seed', seed, 32);
  return active.publicKey(seed);
}
