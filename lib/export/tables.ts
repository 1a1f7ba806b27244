/**
 * The six dataset tables, one versioned column list each (docs/datasets.md is generated from
 * these by `npm run export -- --docs`). Field meanings follow docs/protocol.md §2 (envelope
 * header), §4 (FEEDBACK, NOTARIZE_BID), §5 (logs, batches) and §8 (NEG1, NEGC, NEGR).
 */
import type { Column, ColumnType, TableName, TableSchema } from './schema';

const c = (name: string, type: ColumnType, doc: string, nullable = true): Column => ({ name, type, doc, nullable });
const req = (name: string, type: ColumnType, doc: string): Column => c(name, type, doc, false);

const envelopes: TableSchema = {
  name: 'envelopes', version: 1,
  doc: 'Every stored envelope: the 12 header items, how the observer first saw it, and the decoded protocol payload fields. One row per envelope id.',
  columns: [
    req('id', 'bytes', 'Envelope id: keccak256 of the encoded envelope (docs/protocol.md §3).'),
    req('seq', 'int64', 'Observer insertion order (stable across exports).'),
    req('version', 'int32', 'Protocol version (item 0).'),
    req('msg_type', 'int32', 'Message type code (item 1).'),
    req('msg_type_name', 'string', 'Message type name (PROPOSE, COUNTER, …).'),
    req('sender', 'bytes', 'Sender agent id, 32 bytes (item 2).'),
    req('recipient', 'bytes', 'Recipient agent id, 32 bytes; all zero = broadcast (item 3).'),
    req('timestamp', 'timestamp', 'Sender timestamp (item 4), microsecond precision.'),
    req('block_ref', 'u64', 'Solana slot the sender referenced (item 5).'),
    req('nonce', 'u64', 'Per-sender nonce (item 6).'),
    req('conversation_id', 'bytes', 'Conversation id, 16 bytes (item 7).'),
    req('payload_hash', 'bytes', 'keccak256 of the payload (item 8).'),
    req('payload_len', 'int32', 'Payload length in bytes (item 9).'),
    req('payload', 'bytes', 'The payload bytes (item 10).'),
    req('signature', 'bytes', 'Ed25519 signature over the 10-item preimage (item 11).'),
    req('raw', 'bytes', 'The whole encoded envelope; keccak256(raw) = id. Lets anyone re-verify offline.'),
    req('epoch', 'int64', 'floor(timestamp / epoch length) with the observer\'s EPOCH_SECONDS.'),
    req('seen_via', 'string', 'How the observer first received it: gossip, stream or upload.'),
    c('gossip_topic', 'string', 'GossipSub topic when seen via gossip.'),
    req('first_seen', 'timestamp', 'When the observer first stored it (millisecond precision).'),
    req('payload_kind', 'string', 'neg1, negc, negr, feedback, notarize_bid, or opaque (anything else, or a hinted payload that does not parse).'),
    c('neg1_bid_value', 'i128', 'NEG1 price in the token\'s smallest unit.'),
    c('neg1_round', 'int32', 'NEG1 0-based round.'),
    c('neg1_token_mint', 'bytes', 'NEG1 token mint (zeros = unspecified).'),
    c('neg1_service_hash', 'bytes', 'NEG1 SHA-256 of the service description.'),
    c('neg1_deadline', 'u64', 'NEG1 deadline, unix seconds (0 = none).'),
    c('neg1_decay_bps', 'int32', 'NEG1 escrow decay per round, basis points of 10,000.'),
    c('neg1_max_rounds', 'int32', 'NEG1 maximum rounds.'),
    c('neg1_tier', 'int32', 'NEG1 verification tier 0..2.'),
    c('neg1_reason', 'int32', 'NEG1 refusal reason 0..6.'),
    c('negc_commitment', 'bytes', 'NEGC sealed reservation commitment.'),
    c('negr_price', 'i128', 'NEGR revealed reservation price.'),
    c('negr_salt', 'bytes', 'NEGR salt (32 bytes).'),
    c('feedback_target', 'bytes', 'FEEDBACK target agent.'),
    c('feedback_score', 'int32', 'FEEDBACK score -100..100.'),
    c('feedback_outcome', 'int32', 'FEEDBACK outcome: 0 negative, 1 neutral, 2 positive.'),
    c('feedback_is_dispute', 'bool', 'FEEDBACK dispute flag.'),
    c('feedback_role', 'int32', 'FEEDBACK role: 0 participant, 1 notary.'),
    c('notarize_bid_type', 'int32', 'NOTARIZE_BID type: 0 participant request, 1 notary offer.'),
    c('notarize_terms', 'bytes', 'NOTARIZE_BID terms (agent-defined).'),
  ],
};

const offers: TableSchema = {
  name: 'offers', version: 1,
  doc: 'One row per NEG1 offer (PROPOSE or COUNTER with a NEG1 payload), columns first in NegMAS negotiation-trace order (time, relative_time, step, negotiator, offer).',
  columns: [
    req('time', 'timestamp', 'Offer timestamp (envelope item 4).'),
    req('relative_time', 'double', '0..1: (time - first message) / (last message - first message) of the negotiation (PROPOSE … ACCEPT/REJECT); 0 when it has one message.'),
    req('step', 'int32', 'Index of the offer in the negotiation, 0-based, both sides counted.'),
    req('negotiator', 'bytes', 'The offering agent (envelope sender).'),
    req('offer', 'i128', 'NEG1 bid_value, the offered price.'),
    req('conversation_id', 'bytes', 'The negotiation.'),
    req('round', 'int32', 'NEG1 round as the sender wrote it.'),
    req('side', 'string', 'proposer (sent the PROPOSE) or responder.'),
    req('recipient', 'bytes', 'The other agent.'),
    req('msg_type_name', 'string', 'PROPOSE or COUNTER.'),
    req('envelope_id', 'bytes', 'Envelope id of the offer.'),
  ],
};

/**
 * The negotiations table's on-chain Haggle columns (programs/README.md "Haggle (decisions)"), as
 * the chain indexer stored them (lib/store/haggle.ts) with its status and refund-reason names.
 * Null when the conversation has no Haggle negotiation, except the two counts.
 */
const onChainColumns: Column[] = [
  req('onchain', 'bool', 'A Haggle negotiation account was created on chain for this conversation (seen by the chain indexer).'),
  req('onchain_negotiations', 'int32', 'Haggle negotiations of this conversation (a closed account frees its address, so there can be more than one); the other on-chain columns describe the latest, and are null when there is none.'),
  c('onchain_address', 'string', 'Negotiation account, the PDA of buyer, seller and conversation id (base58).'),
  c('onchain_create_signature', 'string', 'Signature of the transaction that created it (base58).'),
  c('onchain_buyer', 'string', 'Buyer wallet that deposited the escrow (base58).'),
  c('onchain_seller', 'string', 'Seller wallet (base58).'),
  c('onchain_status', 'string', 'Status after the latest transition: created, proposed, countered, accepted, settled, rejected or expired.'),
  c('onchain_refund_reason', 'string', 'Why the escrow went back to the buyer: rejected, deadline, response window or no ZOPA (a rejected status with reason no ZOPA is the no-ZOPA outcome); null unless refunded.'),
  c('onchain_decay_bps', 'int32', 'Escrow burned to the treasury per on-chain offer, basis points of 10,000.'),
  c('onchain_protocol_fee_bps', 'int32', 'Protocol fee on the settled amount, basis points.'),
  c('onchain_max_rounds', 'int32', 'Maximum on-chain offers.'),
  c('escrow_deposited', 'u64', 'USDC the buyer deposited into the vault at creation.'),
  c('escrow_decayed_total', 'u64', 'USDC burned from the escrow to the treasury by decay over the on-chain rounds.'),
  c('escrow_held', 'u64', 'USDC still in the vault (0 once settled or refunded).'),
  c('rounds_onchain', 'int32', 'Offers submitted on chain.'),
  c('onchain_last_offer', 'u64', 'The latest on-chain offer.'),
  c('settled_amount', 'u64', 'Agreed amount paid out by accept_offer; null unless settled.'),
  c('settled_amount_to_seller', 'u64', 'settled_amount minus the protocol fee, paid to the seller.'),
  c('protocol_fee', 'u64', 'Protocol fee paid to the treasury at settlement.'),
  c('refund_to_buyer', 'u64', 'USDC returned to the buyer: the escrow left over at settlement, or all of it at a reject, expiry or no ZOPA.'),
  c('onchain_buyer_reservation', 'i128', 'Buyer\'s reservation price revealed on chain (ZOPA detection).'),
  c('onchain_seller_reservation', 'i128', 'Seller\'s reservation price revealed on chain.'),
  c('onchain_zopa', 'bool', 'The reservations revealed on chain overlap.'),
  c('onchain_created_slot', 'int64', 'Slot of the creating transaction.'),
  c('onchain_created_at', 'timestamp', 'Block time of the creating transaction (millisecond precision).'),
  c('onchain_last_slot', 'int64', 'Slot of the latest transition (the settlement or refund once closed).'),
  c('onchain_last_at', 'timestamp', 'Block time of the latest transition (millisecond precision).'),
  c('onchain_closed_at', 'timestamp', 'Block time of the settlement or refund; null while open.'),
  c('onchain_offer_differences', 'int32', 'Gossip against chain, as the conversation page counts them: offer positions whose NEG1 offer and on-chain offer differ or exist on one side only (gossip not yet on chain does not count while open), plus one when the settled amount is not the ACCEPT\'s price.'),
  c('onchain_matches_gossip', 'bool', 'onchain_offer_differences is 0: the parties signed on chain what they gossiped.'),
];

const negotiations: TableSchema = {
  name: 'negotiations', version: 2,
  doc: 'One row per negotiation (conversation with a PROPOSE): parties, offers, outcome, the analytics of lib/protocol/analytics.ts, and its on-chain Haggle settlement (escrow, decay burned, payout, refund) when the parties mirrored it on chain. On-chain amounts are USDC base units.',
  columns: [
    req('conversation_id', 'bytes', 'Conversation id.'),
    req('proposer', 'bytes', 'Agent that sent the PROPOSE.'),
    c('responder', 'bytes', 'The other party.'),
    c('buyer', 'bytes', 'The side whose first offer is lower (analytics.ts convention).'),
    c('seller', 'bytes', 'The other side.'),
    c('opening_offer', 'i128', 'Proposer\'s first price.'),
    c('opening_counter', 'i128', 'Responder\'s first price.'),
    c('final_offer', 'i128', 'Last NEG1 price offered before the end.'),
    req('rounds', 'int32', 'NEG1 offers (PROPOSE + COUNTER) exchanged.'),
    req('outcome', 'string', 'agreed, rejected, disputed (a DISPUTE followed), expired (no ACCEPT/REJECT, past deadline or max rounds), or open.'),
    c('agreed_price', 'i128', 'Price of the ACCEPT.'),
    req('started_at', 'timestamp', 'First negotiation message.'),
    req('ended_at', 'timestamp', 'ACCEPT/REJECT (or last offer when none).'),
    req('duration_ms', 'double', 'ended_at - started_at in milliseconds.'),
    c('decay_bps', 'int32', 'Escrow decay per round of the first NEG1.'),
    c('escrow_decay_cost', 'double', 'Escrow lost to decay over the rounds at the agreed price.'),
    c('zopa_exists', 'bool', 'Revealed reservations overlap (both sides revealed, NEGR).'),
    c('buyer_reservation', 'i128', 'Buyer\'s revealed reservation price.'),
    c('seller_reservation', 'i128', 'Seller\'s revealed reservation price.'),
    c('commitments_valid', 'bool', 'Every reveal opens its NEGC commitment.'),
    c('buyer_concession_exponent', 'double', 'Faratin β of the buyer\'s offers (< 1 Boulware, > 1 conceder).'),
    c('buyer_concession_class', 'string', 'boulware, linear or conceder.'),
    c('seller_concession_exponent', 'double', 'Faratin β of the seller\'s offers.'),
    c('seller_concession_class', 'string', 'boulware, linear or conceder.'),
    c('nash_price', 'double', 'Nash bargaining price from the revealed reservations.'),
    c('nash_distance', 'double', '|agreed price - Nash price|.'),
    c('nash_relative_distance', 'double', 'nash_distance / ZOPA width.'),
    c('rubinstein_share', 'double', 'Proposer\'s Rubinstein share with δ = 1 - decay_bps/10,000 for both sides.'),
    c('notary', 'bytes', 'Agent assigned by NOTARIZE_ASSIGN.'),
    c('verdict_passed', 'bool', 'Notary verdict (demo VERDICT payload).'),
    c('buyer_feedback_score', 'int32', 'Score the buyer received in FEEDBACK (mean when several).'),
    c('seller_feedback_score', 'int32', 'Score the seller received in FEEDBACK.'),
    c('notary_feedback_score', 'int32', 'Score the notary received in FEEDBACK.'),
    ...onChainColumns,
  ],
};

const feedback: TableSchema = {
  name: 'feedback', version: 1,
  doc: 'One row per FEEDBACK envelope (docs/protocol.md §4).',
  columns: [
    req('envelope_id', 'bytes', 'FEEDBACK envelope id.'),
    req('conversation_id', 'bytes', 'Conversation the feedback is about.'),
    req('from_agent', 'bytes', 'Sender.'),
    req('target_agent', 'bytes', 'Rated agent.'),
    req('score', 'int32', '-100..100.'),
    req('outcome', 'string', 'negative, neutral or positive.'),
    req('is_dispute', 'bool', 'Dispute flag.'),
    req('role', 'string', 'participant or notary.'),
    req('timestamp', 'timestamp', 'Envelope timestamp.'),
    req('epoch', 'int64', 'Epoch of the timestamp.'),
  ],
};

const batches: TableSchema = {
  name: 'batches', version: 1,
  doc: 'BehaviorBatches as the chain indexer stored them (docs/protocol.md §5–6), with their check against the uploaded log.',
  columns: [
    req('agent_id', 'bytes', 'Agent that submitted the batch.'),
    req('epoch', 'int64', 'Epoch the batch covers.'),
    req('batch_hash', 'bytes', 'Hash of the batch.'),
    req('log_merkle_root', 'bytes', 'Merkle root of the agent\'s epoch log committed on chain.'),
    req('slot', 'int64', 'Slot of the submitting transaction.'),
    c('signature', 'string', 'Transaction signature (base58).'),
    req('status', 'string', 'verified (uploaded log has the root), mismatch, or unverified (no log yet).'),
    c('uploaded_log_root', 'bytes', 'Root recomputed from the uploaded log, when checked.'),
    req('updated_at', 'timestamp', 'Last change of the row.'),
  ],
};

const challenges: TableSchema = {
  name: 'challenges', version: 1,
  doc: 'Challenges against batches (on-chain challenge program) with their status transitions.',
  columns: [
    req('address', 'string', 'Challenge account (base58).'),
    req('agent_id', 'bytes', 'Challenged agent.'),
    req('epoch', 'int64', 'Epoch of the challenged batch.'),
    req('challenger', 'bytes', 'Challenger.'),
    req('status', 'string', 'pending, upheld, rejected, void or expired.'),
    req('slot', 'int64', 'Slot of the latest transition.'),
    req('opened_slot', 'int64', 'Slot the challenge was opened.'),
    req('transitions', 'string', 'JSON array of {status, slot, signature} in slot order.'),
    req('updated_at', 'timestamp', 'Last change of the row.'),
  ],
};

export const TABLES: Record<TableName, TableSchema> = { envelopes, offers, negotiations, feedback, batches, challenges };
