/**
 * A receipt verification (lib/protocol/receipt.ts verifyReceipt, docs/protocol.md §2, §8) as the
 * full list of its named checks: verifyReceipt reports failures only, and a viewer should also
 * see what held.
 *
 * A receipt carries each party's signer keys, written by whoever made the file: on their own they
 * prove only that the file is consistent. {@link checkReceiptChainSigners} adds what the chain
 * says: each party's keys resolved by SATI's rule over RPC (./rpc.ts resolveSigner), every key
 * written in the receipt must be among them (`chain_signers`), and every envelope must verify
 * under them (`chain_signature`).
 */

import { bytesEqual, toHex } from '../protocol/hex';
import { type Receipt, type ReceiptVerification, verifyReceipt } from '../protocol/receipt';
import type { SignerResolution } from './envelope';
import { fail, pass, skip, type VerifyStep } from './steps';

/** Every check verifyReceipt makes, in its order, with a title. */
export const RECEIPT_CHECKS: readonly [string, string][] = [
  ['decode', 'Every envelope decodes (canonical CBOR)'],
  ['parties', 'Exactly two parties'],
  ['conversation', "Every envelope is in the receipt's conversation"],
  ['unknown_signer', 'Every sender is a party'],
  ['signature', "Every signature verifies under its party's keys (Ed25519)"],
  ['payload_hash', 'Every payload present matches payload_hash'],
  ['payload_len', 'Every payload present matches payload_len'],
  ['party_signed', 'Both parties signed something'],
  ['tier', 'The ACCEPT keeps the offered verification tier'],
  ['outcome', 'A VERDICT or FEEDBACK gives the outcome'],
];

/** The named checks of a verification; `decodeError` when the file is not a receipt at all. */
export function checkReceiptSteps(v: ReceiptVerification | null, decodeError: string | null): VerifyStep[] {
  const steps: VerifyStep[] = [];
  if (decodeError !== null || v === null) {
    steps.push(fail('receipt', 'The file is a receipt (canonical CBOR)', decodeError ?? 'no verification'));
    for (const [name, title] of RECEIPT_CHECKS) steps.push(skip(name, title, 'the file does not decode'));
    return steps;
  }
  steps.push(pass('receipt', 'The file is a receipt (canonical CBOR)', 'decoded'));
  for (const [name, title] of RECEIPT_CHECKS) {
    const f = v.failures.filter((x) => x.check === name);
    steps.push(f.length ? fail(name, title, f.map((x) => x.detail).join('; ')) : pass(name, title, 'holds'));
  }
  return steps;
}

/** Titles of the chain checks of a receipt. */
export const RECEIPT_CHAIN_CHECKS = {
  chain_signers: "Each party's keys in the receipt are its SATI owner or a valid delegate on chain",
  chain_signature: 'Every signature verifies under keys the chain allows for its party',
} as const;

/**
 * The chain checks of a decoded receipt, given each party's resolution (hex agent id → keys from
 * the chain, or why not). A party the chain does not know, or a key written in the receipt that
 * the chain does not allow, fails `chain_signers`; an envelope that verifies only under such a
 * key fails `chain_signature`.
 */
export function checkReceiptChainSigners(
  receipt: Receipt | null,
  resolved: ReadonlyMap<string, SignerResolution> | null,
): VerifyStep[] {
  const T = RECEIPT_CHAIN_CHECKS;
  if (receipt === null)
    return [
      skip('chain_signers', T.chain_signers, 'the file does not decode'),
      skip('chain_signature', T.chain_signature, 'the file does not decode'),
    ];
  if (resolved === null)
    return [
      skip('chain_signers', T.chain_signers, 'no RPC to read the chain'),
      skip('chain_signature', T.chain_signature, 'no RPC to read the chain'),
    ];
  const problems: string[] = [];
  const chainParties = receipt.parties.map((p) => {
    const r = resolved.get(toHex(p.agentId));
    if (!r) {
      problems.push(`party ${toHex(p.agentId)}: not resolved`);
      return { agentId: p.agentId, keys: [] as Uint8Array[] };
    }
    if ('error' in r) {
      problems.push(`party ${toHex(p.agentId)}: ${r.error}`);
      return { agentId: p.agentId, keys: [] as Uint8Array[] };
    }
    for (const k of p.keys)
      if (!r.keys.some((c) => bytesEqual(c, k)))
        problems.push(
          `party ${toHex(p.agentId)}: key ${toHex(k)} in the receipt is neither its owner ` +
            `nor a valid delegate (the chain allows ${r.keys.map(toHex).join(', ') || 'none'})`,
        );
    return { agentId: p.agentId, keys: r.keys };
  });
  const steps: VerifyStep[] = [
    problems.length
      ? fail('chain_signers', T.chain_signers, problems.join('; '))
      : pass('chain_signers', T.chain_signers, 'every key in the receipt is allowed on chain'),
  ];
  const v = verifyReceipt({ ...receipt, parties: chainParties });
  const sig = v.failures.filter((f) => f.check === 'signature' || f.check === 'party_signed');
  steps.push(
    sig.length
      ? fail('chain_signature', T.chain_signature, sig.map((f) => f.detail).join('; '))
      : pass('chain_signature', T.chain_signature, 'holds'),
  );
  return steps;
}
