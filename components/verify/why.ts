/**
 * What a failed verification step means for the viewer, in words: every red step of the envelope,
 * inclusion, batch and receipt verifiers gets one of these sentences under its technical detail.
 */
const WHY: Record<string, string> = {
  decode: 'The bytes are not a well-formed 0x01 envelope, so nothing else about them can be checked.',
  envelope_id:
    'The bytes hash to a different id than the one asked for: these are not the bytes ' +
    'of that envelope (changed in transit, by the server, or by the tamper switch).',
  payload_hash:
    'The payload was changed after it was hashed: the header (and so the signature) vouches for another payload.',
  payload_len: "The payload's length differs from the one the signed header declares: the payload was cut or extended.",
  signer:
    'The chain does not name a key allowed to sign for this sender (no identity, ' +
    'no holder, or the RPC could not be read), so the signature cannot be checked.',
  signature:
    "The signature does not verify under the sender's key: someone other than the sender made or changed these bytes.",
  log_entry: 'The log entry the proof starts from is not this envelope: the batch does not vouch for these bytes.',
  proof_shape: "The proof's index or sibling count does not fit the log size: it cannot be a proof for this log.",
  proof: "Folding the proof does not give the root the server reports: the server's log and proof disagree.",
  batch_account:
    "The agent's BatchAccount for this epoch could not be read " +
    'from the chain: there is no on-chain root to compare with.',
  onchain_root:
    'The root the agent committed on chain differs: the log this ' +
    'observatory holds is not the one the agent committed to.',
  entries: 'An envelope of the uploaded log does not decode: the log is damaged.',
  signatures:
    "At least one envelope of the log is not signed by its sender's " +
    'identity holder: the log holds forged or foreign entries.',
  receipt: 'The file is not a receipt (canonical CBOR of the receipt format).',
  parties: 'A receipt is between exactly two parties.',
  conversation: "An envelope belongs to another conversation than the receipt's.",
  unknown_signer: 'An envelope was sent by someone who is not one of the two parties.',
  party_signed: 'One party signed nothing in the receipt, so it does not show that party agreed.',
  tier: 'The ACCEPT changed the verification tier that was offered.',
  outcome: 'No VERDICT or FEEDBACK says how the deal ended.',
  review_text:
    'The text the reviewer signed is not the review shown here (another dispute, opinion ' +
    'or note, or not the canonical form): the signature would vouch for something else.',
  review_signature:
    "The signature does not verify under the reviewer's key: this opinion " +
    'was not signed by that wallet, or was changed after it was signed.',
};

export function whyFailed(step: string): string {
  return WHY[step] ?? 'This check failed; its detail above says what was compared.';
}
