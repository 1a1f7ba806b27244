/**
 * A receipt verification (lib/protocol/receipt.ts verifyReceipt, docs/protocol.md §2, §8) as the
 * full list of its named checks: verifyReceipt reports failures only, and a viewer should also
 * see what held.
 */
import type { ReceiptVerification } from '../protocol/receipt';
import { fail, pass, skip, type VerifyStep } from './steps';

/** Every check verifyReceipt makes, in its order, with a title. */
export const RECEIPT_CHECKS: readonly [string, string][] = [
  ['decode', 'Every envelope decodes (canonical CBOR)'],
  ['parties', 'Exactly two parties'],
  ['conversation', 'Every envelope is in the receipt\'s conversation'],
  ['unknown_signer', 'Every sender is a party'],
  ['signature', 'Every signature verifies under its party\'s keys (Ed25519)'],
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
