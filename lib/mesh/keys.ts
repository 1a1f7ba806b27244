/**
 * libp2p node identity keys (Ed25519). These are transport identities, distinct from the
 * agent signing keys of docs/protocol.md §2: a peer id says which socket, the envelope signature
 * says which agent.
 */

import {
  generateKeyPair,
  generateKeyPairFromSeed,
  privateKeyFromProtobuf,
  privateKeyToProtobuf,
} from '@libp2p/crypto/keys';
import type { PrivateKey } from '@libp2p/interface';
import { peerIdFromPrivateKey } from '@libp2p/peer-id';

/** A fresh Ed25519 libp2p key as protobuf bytes, for storing and passing to createMeshNode. */
export async function generateMeshKey(): Promise<Uint8Array> {
  return privateKeyToProtobuf(await generateKeyPair('Ed25519'));
}

/** The peer id (base58 string) a key from {@link generateMeshKey} (or a 32-byte seed) gives. */
export async function meshPeerIdOf(key: Uint8Array): Promise<string> {
  return peerIdFromPrivateKey(await toPrivateKey(key)).toString();
}

function isPrivateKey(k: unknown): k is PrivateKey {
  return (
    typeof k === 'object' &&
    k !== null &&
    'type' in k &&
    'publicKey' in k &&
    typeof (k as PrivateKey).sign === 'function'
  );
}

/**
 * Accepts a PrivateKey, its protobuf bytes, or a 32-byte Ed25519 seed; undefined → generated.
 * Throws TypeError naming `privateKey` for anything else.
 */
export async function toPrivateKey(key: unknown): Promise<PrivateKey> {
  if (key === undefined) return generateKeyPair('Ed25519');
  if (isPrivateKey(key)) {
    if (key.type !== 'Ed25519') throw new TypeError(`privateKey must be Ed25519, got ${key.type}`);
    return key;
  }
  if (!(key instanceof Uint8Array)) throw new TypeError('privateKey must be a PrivateKey or Uint8Array');
  if (key.length === 32) return generateKeyPairFromSeed('Ed25519', key);
  let k: PrivateKey;
  try {
    k = privateKeyFromProtobuf(key);
  } catch (cause) {
    throw new TypeError('privateKey bytes are neither a 32-byte seed nor a protobuf private key', { cause });
  }
  if (k.type !== 'Ed25519') throw new TypeError(`privateKey must be Ed25519, got ${k.type}`);
  return k;
}
