/**
 * A whole batch checked in the browser (docs/protocol.md §5, §6): the agent's uploaded epoch log
 * from our API, each envelope's signature against its sender's identity holder (resolved over
 * the RPC, ./rpc.ts), the merkle root recomputed over the log entries and compared with the
 * BatchAccount's log_merkle_root read from the chain. This is what the authoritative reputation
 * on the agent page is folded from.
 */

import { ed25519 } from '@noble/curves/ed25519.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { decodeEnvelope, signingPreimage } from '../protocol/envelope';
import { bytesEqual, concatBytes, toHex } from '../protocol/hex';
import { logEntryOf } from '../protocol/merkle';
import type { Envelope } from '../protocol/types';
import type { SignerResolution } from './envelope';
import type { OnChainBatch } from './inclusion';
import { fail, pass, skip, type VerifyStep } from './steps';

const T = {
  entries: 'Every envelope of the uploaded log decodes',
  signatures: "Every envelope is signed by its sender's identity holder",
  batch_account: 'BatchAccount read from the chain RPC',
  onchain_root: 'Merkle root over the log = log_merkle_root on chain',
} as const;

/** Root over leaves in log order, right-padded with zero hashes to a power of two (§5). */
export function rootOf(leaves: Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return new Uint8Array(32);
  let row = leaves.slice();
  let size = 1;
  while (size < row.length) size *= 2;
  while (row.length < size) row.push(new Uint8Array(32));
  while (row.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < row.length; i += 2) next.push(keccak_256(concatBytes(row[i], row[i + 1])));
    row = next;
  }
  return row[0];
}

/** Decodes the log; the senders whose keys the caller must resolve. */
export function decodeLog(raws: Uint8Array[]): { envelopes: Envelope[]; errors: string[]; senders: Uint8Array[] } {
  const envelopes: Envelope[] = [];
  const errors: string[] = [];
  const senders = new Map<string, Uint8Array>();
  raws.forEach((r, i) => {
    const d = decodeEnvelope(r);
    if (!d.ok) errors.push(`entry ${i}: ${d.detail}`);
    else {
      envelopes.push(d.envelope);
      senders.set(toHex(d.envelope.sender), d.envelope.sender);
    }
  });
  return { envelopes, errors, senders: [...senders.values()] };
}

export function checkBatchLog(
  raws: Uint8Array[],
  signers: ReadonlyMap<string, SignerResolution>,
  batch: OnChainBatch | null,
  agent: Uint8Array,
  epoch: bigint,
): { ok: boolean; steps: VerifyStep[] } {
  const steps: VerifyStep[] = [];
  const { envelopes, errors } = decodeLog(raws);
  if (errors.length) {
    steps.push(fail('entries', T.entries, errors.slice(0, 3).join('; ')));
    for (const n of ['signatures', 'batch_account', 'onchain_root'] as const)
      steps.push(skip(n, T[n], 'the log does not decode'));
    return { ok: false, steps };
  }
  steps.push(pass('entries', T.entries, `${envelopes.length} envelopes`));
  const bad: string[] = [];
  envelopes.forEach((e, i) => {
    const s = signers.get(toHex(e.sender));
    const keys = s && 'keys' in s ? s.keys : [];
    const pre = signingPreimage(e);
    const ok = keys.some((k) => {
      try {
        return ed25519.verify(e.signature, pre, k, { zip215: false });
      } catch {
        return false;
      }
    });
    if (!ok) bad.push(`entry ${i} (${toHex(e.sender).slice(0, 8)}…${s && 'error' in s ? `: ${s.error}` : ''})`);
  });
  steps.push(
    bad.length
      ? fail('signatures', T.signatures, `${bad.length} do not verify: ${bad.slice(0, 3).join('; ')}`)
      : pass('signatures', T.signatures, `${envelopes.length} signatures, ${signers.size} signers`),
  );
  const root = rootOf(envelopes.map((e) => keccak_256(logEntryOf(e))));
  if (batch === null || 'error' in batch) {
    steps.push(
      fail('batch_account', T.batch_account, batch ? batch.error : 'not read'),
      skip('onchain_root', T.onchain_root, 'no on-chain batch'),
    );
  } else if (!bytesEqual(batch.agent, agent) || batch.epoch !== epoch) {
    steps.push(
      fail(
        'batch_account',
        T.batch_account,
        `account ${batch.address} is agent ${toHex(batch.agent)} epoch ${batch.epoch}`,
      ),
      skip('onchain_root', T.onchain_root, 'wrong batch'),
    );
  } else {
    steps.push(pass('batch_account', T.batch_account, batch.address));
    steps.push(
      bytesEqual(root, batch.logMerkleRoot)
        ? pass('onchain_root', T.onchain_root, toHex(root))
        : fail('onchain_root', T.onchain_root, `computed ${toHex(root)}, chain has ${toHex(batch.logMerkleRoot)}`),
    );
  }
  return { ok: steps.every((s) => s.ok), steps };
}
