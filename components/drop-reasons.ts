/**
 * Drop reasons by a short name for legends and lists (what each means in full is
 * components/glossary.ts DROP_REASONS, shown as the tooltip with the code).
 */

/** A drop reason's short name for legends and lists; the code stays in the tooltip and the raw data. */
const DROP_LABELS: Record<string, string> = {
  decode: 'malformed bytes',
  version: 'unknown version',
  msg_type: 'unknown message type',
  signature: 'bad signature',
  replay: 'replayed nonce',
  timestamp: 'clock skew',
  timestamp_out_of_window: 'outside the archive window',
  payload_hash: 'payload hash mismatch',
  payload_len: 'payload length mismatch',
  payload_schema: 'unparseable payload',
  unregistered: 'not a registered agent',
  not_nft: 'identity mint not an NFT',
  not_sati_member: 'not a SATI identity',
  delegation_expired: 'expired delegation',
  delegation_revoked: 'revoked delegation',
  not_owner_or_delegate: 'former owner or its delegate',
  rate_limit: 'over its fair share',
  oversize: 'frame too large',
  rejected: 'rejected by gossip',
  ignored: 'ignored by gossip',
  validator_error: 'validator failure',
  stream_error: 'broken stream',
  store_error: 'database refusal',
  store_unavailable: 'database unreachable',
  store_backlog: 'ingest buffer full',
};

/** The short name of a drop reason, or the code itself when this page does not know it. */
export function dropReasonLabel(reason: string): string {
  return DROP_LABELS[reason] ?? reason;
}
