/**
 * Release anchors (docs/datasets.md "Anchored releases"): the observer posts each release's id
 * (its manifest's sha256) on chain in an SPL Memo signed by its release-signing key, used as a
 * Solana keypair (an Ed25519 seed is one). The chain orders the anchors and keeps them: anyone
 * holding the observer's public key lists them (getSignaturesForAddress) and learns, without
 * trusting the observer's server, the latest revision of each epoch it anchored, when it was
 * anchored, and the `asOf` each revision stated. Browser-safe: reads and instruction building only.
 */

import { type Connection, PublicKey, TransactionInstruction } from '@solana/web3.js';
import bs58 from 'bs58';
import { signaturesOldestFirst } from './address-history';

/** SPL Memo v2 (on every cluster; the embedded chain loads it): it fails unless every listed signer signed. */
export const MEMO_PROGRAM_ID = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

/** What one anchor states. */
export interface ReleaseAnchorStatement {
  epoch: number;
  revision: number;
  id: string;
  asOfUs: string;
}

/** One anchor read from the chain: its statement and the transaction that made it. */
export interface ReleaseAnchor extends ReleaseAnchorStatement {
  signature: string;
  slot: string;
  blockTime: number | null;
}

const PREFIX = 'zerox1-release:v1';
const MEMO_RE =
  /^zerox1-release:v1 epoch=(0|[1-9]\d{0,9}) revision=(0|[1-9]\d{0,3}) id=([0-9a-f]{64}) asOfUs=(0|[1-9]\d{0,19})$/;

/** The memo text of an anchor. */
export function anchorMemo(a: ReleaseAnchorStatement): string {
  return `${PREFIX} epoch=${a.epoch} revision=${a.revision} id=${a.id} asOfUs=${a.asOfUs}`;
}

/** The statement a memo text makes, or null when it is not an anchor. */
export function parseAnchorMemo(text: string): ReleaseAnchorStatement | null {
  const m = MEMO_RE.exec(text);
  return m ? { epoch: Number(m[1]), revision: Number(m[2]), id: m[3], asOfUs: m[4] } : null;
}

/** The memo instruction anchoring `a`, signed by `key` (the release-signing key's address). */
export function anchorInstruction(key: PublicKey, a: ReleaseAnchorStatement): TransactionInstruction {
  return new TransactionInstruction({
    programId: MEMO_PROGRAM_ID,
    keys: [{ pubkey: key, isSigner: true, isWritable: false }],
    data: Buffer.from(anchorMemo(a), 'utf8'),
  });
}

/**
 * Every anchor signed by the key `publicKeyHex` (the observer's release-signing key, hex), oldest
 * first. A memo counts only when that key signed its transaction and the transaction succeeded.
 */
export async function readReleaseAnchors(
  connection: Connection,
  publicKeyHex: string,
): Promise<ReleaseAnchor[] | { error: string }> {
  if (!/^[0-9a-f]{64}$/.test(publicKeyHex)) return { error: 'the release-signing key must be 64 hex digits' };
  const key = new PublicKey(Uint8Array.from(Buffer.from(publicKeyHex, 'hex')));
  try {
    const signatures = await signaturesOldestFirst(connection, key);
    const out: ReleaseAnchor[] = [];
    for (const signature of signatures) {
      const t = await connection.getTransaction(signature, {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      });
      if (!t || t.meta?.err) continue;
      const msg = t.transaction.message;
      const keys = msg.staticAccountKeys;
      const signerAt = keys.findIndex((k) => k.equals(key));
      if (signerAt < 0 || !msg.isAccountSigner(signerAt)) continue;
      for (const ix of msg.compiledInstructions) {
        if (!keys[ix.programIdIndex]?.equals(MEMO_PROGRAM_ID)) continue;
        const s = parseAnchorMemo(Buffer.from(ix.data).toString('utf8'));
        if (s) out.push({ ...s, signature: signature, slot: String(t.slot), blockTime: t.blockTime ?? null });
      }
    }
    return out;
  } catch (e) {
    return { error: `RPC: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** The Solana address of a release-signing key (hex): where its anchors are found. */
export const anchorAddress = (publicKeyHex: string) => bs58.encode(Buffer.from(publicKeyHex, 'hex'));
