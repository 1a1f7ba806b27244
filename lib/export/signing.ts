/**
 * Signed releases (docs/datasets.md "Signed manifests"): the observer signs each release's id —
 * the sha256 of its manifest file's bytes — with an Ed25519 key of its own, published in
 * /api/health and on the datasets page, and writes the signature beside the manifest as
 * `<manifest>.sig.json`. A detached signature over the file's bytes needs no canonical JSON: the
 * verifier hashes the file it downloaded.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ed25519Sign, ed25519Verify, publicKeyFromSeed } from '../protocol/crypto';

export interface SigningKey {
  seed: Uint8Array;
  /** Ed25519 public key, hex. */
  publicKey: string;
  /** Who signs, as the signature file states it (the observer's name). */
  signer: string;
}

/** `<manifest>.sig.json` content. */
export interface ManifestSignature {
  alg: 'ed25519';
  /** The release id: sha256 of the manifest file, hex. */
  releaseId: string;
  publicKey: string;
  signer: string;
  /** Ed25519 signature of the 32 bytes of `releaseId`, hex. */
  signature: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * The observer's release-signing key at `path` (a 32-byte seed in hex), created on first use with
 * owner-only permissions. Kept outside the release folder, so nothing ever serves it.
 */
export function loadOrCreateSigningKey(path: string, signer: string): SigningKey {
  if (!existsSync(path)) {
    // With a Postgres server nothing else creates the data folder before the first release.
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(`${path}.tmp`, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600 });
    renameSync(`${path}.tmp`, path);
  }
  const text = readFileSync(path, 'utf8').trim();
  if (!HEX64.test(text)) throw new Error(`${path} is not a release-signing key (64 hex digits expected)`);
  const seed = Uint8Array.from(Buffer.from(text, 'hex'));
  return { seed, publicKey: Buffer.from(publicKeyFromSeed(seed)).toString('hex'), signer };
}

/** The signature file's name for a manifest file name. */
export const signatureName = (manifestFile: string) => manifestFile.replace(/\.json$/, '.sig.json');

/** sha256 of a file, hex: a release's id when the file is its manifest. */
export function fileSha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Signs the manifest `manifestFile` in `dir` and writes its signature file. */
export function signManifest(dir: string, manifestFile: string, key: SigningKey): ManifestSignature {
  const releaseId = fileSha256(join(dir, manifestFile));
  const sig: ManifestSignature = {
    alg: 'ed25519',
    releaseId,
    publicKey: key.publicKey,
    signer: key.signer,
    signature: Buffer.from(ed25519Sign(Buffer.from(releaseId, 'hex'), key.seed)).toString('hex'),
  };
  const path = join(dir, signatureName(manifestFile));
  writeFileSync(`${path}.tmp`, JSON.stringify(sig, null, 2));
  renameSync(`${path}.tmp`, path);
  return sig;
}

export interface SignatureCheck {
  ok: boolean;
  detail: string;
  signer?: string;
  publicKey?: string;
  trusted: boolean;
}

/**
 * Checks the signature of `manifestFile` in `dir`: over the file's own sha256, under the key it
 * names, and (with `trustedKey`) that this key is the one the verifier was given.
 */
export function checkManifestSignature(dir: string, manifestFile: string, trustedKey?: string): SignatureCheck {
  const path = join(dir, signatureName(manifestFile));
  // Unsigned is a failure, with or without a trusted key: anyone can delete a signature file.
  if (!existsSync(path))
    return {
      ok: false,
      trusted: false,
      detail: `no signature file ${signatureName(manifestFile)}: a release must be signed`,
    };
  let s: ManifestSignature;
  try {
    s = JSON.parse(readFileSync(path, 'utf8')) as ManifestSignature;
  } catch (e) {
    return {
      ok: false,
      trusted: false,
      detail: `signature file unreadable: ${e instanceof Error ? e.message : String(e)}`,
    };
  }
  if (s.alg !== 'ed25519' || !HEX64.test(String(s.publicKey)) || !/^[0-9a-f]{128}$/.test(String(s.signature)))
    return { ok: false, trusted: false, detail: 'signature file is not an ed25519 signature with a 32-byte key' };
  const id = fileSha256(join(dir, manifestFile));
  const who = `${JSON.stringify(String(s.signer))} key ${s.publicKey}`;
  if (s.releaseId !== id)
    return {
      ok: false,
      trusted: false,
      detail: `signed release id ${s.releaseId}, the manifest's sha256 is ${id}`,
      signer: s.signer,
      publicKey: s.publicKey,
    };
  if (!ed25519Verify(Buffer.from(s.signature, 'hex'), Buffer.from(id, 'hex'), Buffer.from(s.publicKey, 'hex'))) {
    return {
      ok: false,
      trusted: false,
      detail: `the signature does not verify under the key it names (${who})`,
      signer: s.signer,
      publicKey: s.publicKey,
    };
  }
  if (trustedKey && trustedKey.toLowerCase() !== s.publicKey) {
    return {
      ok: false,
      trusted: false,
      detail: `signed by ${who}, not by the key given with --key ${trustedKey.toLowerCase()}`,
      signer: s.signer,
      publicKey: s.publicKey,
    };
  }
  return {
    ok: true,
    trusted: !!trustedKey,
    signer: s.signer,
    publicKey: s.publicKey,
    detail:
      `release ${id} signed by ${who}` +
      (trustedKey ? ', the key given with --key' : ' (not checked against a key you trust: pass --key)'),
  };
}
