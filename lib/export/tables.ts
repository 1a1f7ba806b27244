/**
 * The eight dataset tables, one versioned column list each (docs/datasets.md is generated from
 * these by `npm run export -- --docs`). Field meanings follow docs/protocol.md §2 (envelope
 * header), §4 (FEEDBACK, NOTARIZE_BID), §5 (logs, batches) and §8 (NEG1, NEGC, NEGR).
 */
import type { Column, ColumnType, Field, ScalarType, TableName, TableSchema } from './schema';

const c = (name: string, type: ColumnType, doc: string, nullable = true): Column => ({ name, type, doc, nullable });
const req = (name: string, type: ColumnType, doc: string): Column => c(name, type, doc, false);
const list = (name: string, item: ScalarType | Field[], doc: string, nullable = true): Column => ({
  name,
  type: 'list',
  doc,
  nullable,
  ...(Array.isArray(item) ? { fields: item } : { item }),
});

const envelopes: TableSchema = {
  name: 'envelopes',
  version: 4,
  doc:
    'Every stored envelope: the 12 header items, how the observer first saw ' +
    'it, and the decoded protocol payload fields. One row per envelope id.',
  columns: [
    req('id', 'hex', 'Envelope id: keccak256 of the encoded envelope (docs/protocol.md §3).'),
    req('seq', 'int64', 'Observer insertion order (stable across exports).'),
    req('version', 'int32', 'Protocol version (item 0).'),
    req('msg_type', 'int32', 'Message type code (item 1).'),
    req('msg_type_name', 'string', 'Message type name (PROPOSE, COUNTER, …).'),
    req('sender', 'hex', 'Sender agent id, 32 bytes (item 2).'),
    req('recipient', 'hex', 'Recipient agent id, 32 bytes; all zero = broadcast (item 3).'),
    req(
      'timestamp',
      'u64_timestamp',
      'Sender timestamp (item 4): unix microseconds as the sender ' +
        'wrote them (any u64), the same integer in every format.',
    ),
    req('block_ref', 'u64', 'Solana slot the sender referenced (item 5).'),
    req('nonce', 'u64', 'Per-sender nonce (item 6).'),
    req('conversation_id', 'hex', 'Conversation id, 16 bytes (item 7).'),
    req('payload_hash', 'hex', 'keccak256 of the payload (item 8).'),
    req('payload_len', 'int32', 'Payload length in bytes (item 9).'),
    req('payload', 'bytes', 'The payload bytes (item 10).'),
    req('signature', 'bytes', 'Ed25519 signature over the 10-item preimage (item 11).'),
    req('raw', 'bytes', 'The whole encoded envelope; keccak256(raw) = id. Lets anyone re-verify offline.'),
    req('epoch', 'int64', "floor(timestamp / epoch length) with the observer's EPOCH_SECONDS."),
    req('seen_via', 'string', 'How the observer first received it: gossip, stream or upload.'),
    c('gossip_topic', 'string', 'GossipSub topic when seen via gossip.'),
    req(
      'first_seen',
      'timestamp',
      'When the observer first stored it: a microsecond timestamp like every observer ' +
        'time, whose clock reads whole milliseconds (the last three digits of the µs are 0).',
    ),
    req(
      'payload_kind',
      'string',
      'neg1, negc, negr, feedback, notarize_bid, or opaque (anything else, or a hinted payload that does not parse).',
    ),
    c('neg1_bid_value', 'i128', "NEG1 price in the token's smallest unit."),
    c('neg1_round', 'int32', 'NEG1 0-based round.'),
    c('neg1_token_mint', 'hex', 'NEG1 token mint (zeros = unspecified).'),
    c('neg1_service_hash', 'hex', 'NEG1 SHA-256 of the service description.'),
    c('neg1_deadline', 'u64', 'NEG1 deadline, unix seconds (0 = none).'),
    c('neg1_decay_bps', 'int32', 'NEG1 escrow decay per round, basis points of 10,000.'),
    c('neg1_max_rounds', 'int32', 'NEG1 maximum rounds.'),
    c('neg1_tier', 'int32', 'NEG1 verification tier 0..2.'),
    c('neg1_reason', 'int32', 'NEG1 refusal reason 0..6.'),
    c('negc_commitment', 'hex', 'NEGC sealed reservation commitment.'),
    c('negr_price', 'i128', 'NEGR revealed reservation price.'),
    c('negr_salt', 'hex', 'NEGR salt (32 bytes).'),
    c('feedback_target', 'hex', 'FEEDBACK target agent.'),
    c('feedback_score', 'int32', 'FEEDBACK score -100..100.'),
    c('feedback_outcome', 'int32', 'FEEDBACK outcome: 0 negative, 1 neutral, 2 positive.'),
    c('feedback_is_dispute', 'bool', 'FEEDBACK dispute flag.'),
    c('feedback_role', 'int32', 'FEEDBACK role: 0 participant, 1 notary.'),
    c('notarize_bid_type', 'int32', 'NOTARIZE_BID type: 0 participant request, 1 notary offer.'),
    c('notarize_terms', 'bytes', 'NOTARIZE_BID terms (agent-defined).'),
  ],
};

const offers: TableSchema = {
  name: 'offers',
  version: 4,
  doc:
    "The protocol's negotiation trace: one row per NEG1 offer (PROPOSE or COUNTER with a NEG1 payload) " +
    'in round order, then one row for the final action (ACCEPT, else REJECT) when there is one. For ' +
    "NegMAS's own trace shape (outcome tuples, its state names, the round as step), export the negmas table.",
  columns: [
    req('time', 'double', "Seconds from the negotiation's first message (PROPOSE, or the sealed opening) to this one."),
    c(
      'relative_time',
      'double',
      'Relative time 0..1: max((time of this message − start) / (deadline − start), (round ' +
        "+ 1) / (max_rounds + 1)) with the opening NEG1's deadline and max_rounds; the part " +
        'a missing term (0) would give is left out; null when the opening states neither.',
    ),
    req(
      'step',
      'int32',
      'Index of the row in the negotiation, 0-based, both sides counted: offers in NEG1 ' +
        'round order (then timestamp, then envelope id), the final action last; rows follow it.',
    ),
    req('negotiator', 'hex', 'The agent that sent this offer or action (envelope sender).'),
    c(
      'offer',
      'i128',
      'NEG1 bid_value: the offered price; on the final action the ' +
        'price it accepts or rejects (null when its payload is not NEG1).',
    ),
    c(
      'response',
      'string',
      "What the other party (recipient) did next after this offer, in NegMAS's " +
        'ResponseType names: REJECT_OFFER (it countered), ACCEPT_OFFER or END_NEGOTIATION ' +
        '(REJECT); null when nothing answered it, and on the final action.',
    ),
    req('state', 'string', 'continuing on offers; agreement (ACCEPT) or ended (REJECT) on the final action.'),
    req('timestamp', 'u64_timestamp', 'The envelope timestamp (item 4), absolute, unix µs as the sender wrote it.'),
    req('conversation_id', 'hex', 'The negotiation.'),
    c('round', 'int32', "NEG1 round as the sender wrote it (null when the final action's payload is not NEG1)."),
    req('side', 'string', 'proposer (sent the PROPOSE) or responder.'),
    req('recipient', 'hex', 'The other agent.'),
    req('msg_type_name', 'string', 'PROPOSE, COUNTER, or the final ACCEPT / REJECT.'),
    req('envelope_id', 'hex', 'Envelope id of the offer or action.'),
  ],
};

/**
 * NegMAS's negotiation trace (negmas `TraceElement`: time, relative_time, step, negotiator,
 * offer, responses, state), one row per NEG1 offer, for loading without glue (docs/datasets.md
 * "NegMAS"). An export-only view of the offers: releases carry the offers table it is made from.
 */
const negmas: TableSchema = {
  name: 'negmas',
  version: 1,
  doc:
    "NegMAS's negotiation trace (negmas.common.TraceElement, as SAOMechanism.full_trace gives " +
    "it): one row per NEG1 offer in round order, the first seven columns in TraceElement's " +
    "order. The ACCEPT or REJECT is not a row of its own: it is the last offer's response " +
    'and state, as in NegMAS. Export only (not in releases): it is a view of the offers table.',
  columns: [
    req('time', 'double', "Seconds from the negotiation's first message to this offer."),
    c(
      'relative_time',
      'double',
      "Relative time 0..1 against the opening NEG1's deadline and " +
        'max_rounds, as the offers table; null when the opening states neither.',
    ),
    req('step', 'int32', "The mechanism's step: the offer's NEG1 round (0-based)."),
    req('negotiator', 'hex', "The agent that made the offer (envelope sender), as NegMAS's negotiator id."),
    list(
      'offer',
      'i128',
      "The outcome: a one-issue tuple (price,), the NEG1 bid_value in the token's smallest unit.",
      false,
    ),
    list(
      'responses',
      'string',
      "NegMAS ResponseType names of the answer to this offer (one item, as SAOMechanism's trace): " +
        'REJECT_OFFER (the other party countered), ACCEPT_OFFER (it accepted), END_NEGOTIATION (it sent REJECT, ' +
        'or the negotiation ended without a deal), NO_RESPONSE (unanswered: still open, or timed out).',
      false,
    ),
    req(
      'state',
      'string',
      "NegMAS's state after this step: continuing, then on the last offer agreement (an " +
        'ACCEPT, or the chain settled it), ended (a REJECT, or deal steps without an ACCEPT), ' +
        'timedout (its deadline passed or its rounds were used) or continuing (still open).',
    ),
    req('conversation_id', 'hex', 'The negotiation (group rows by it for one trace each).'),
    req('envelope_id', 'hex', 'Envelope id of the offer.'),
  ],
};

/**
 * The negotiations table's on-chain Haggle columns (programs/README.md "Haggle (decisions)"), as
 * the chain indexer stored them (lib/store/chain/haggle.ts) with its status and refund-reason names.
 * Null when the conversation has no Haggle negotiation, except the two counts.
 */
const onChainColumns: Column[] = [
  req(
    'onchain',
    'bool',
    'A Haggle negotiation account was created on chain for this conversation (seen by the chain indexer).',
  ),
  req(
    'onchain_negotiations',
    'int32',
    'Haggle negotiations of this conversation (a closed account frees its address, so there can be ' +
      'more than one); the other on-chain columns describe the latest, and are null when there is none.',
  ),
  c('onchain_address', 'string', 'Negotiation account, the PDA of buyer, seller and conversation id (base58).'),
  c('onchain_create_signature', 'string', 'Signature of the transaction that created it (base58).'),
  c('onchain_buyer', 'string', 'Buyer wallet that deposited the escrow (base58).'),
  c('onchain_seller', 'string', 'Seller wallet (base58).'),
  c(
    'onchain_status',
    'string',
    'Status after the latest transition: created, proposed, countered, accepted, settled, rejected or expired.',
  ),
  c(
    'onchain_refund_reason',
    'string',
    'Why the escrow went back to the buyer: rejected, deadline, response window or no ZOPA ' +
      '(a rejected status with reason no ZOPA is the no-ZOPA outcome); null unless refunded.',
  ),
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
  c(
    'refund_to_buyer',
    'u64',
    'USDC returned to the buyer: the escrow left over at settlement, or all of it at a reject, expiry or no ZOPA.',
  ),
  c('onchain_buyer_reservation', 'i128', "Buyer's reservation price revealed on chain (ZOPA detection)."),
  c('onchain_seller_reservation', 'i128', "Seller's reservation price revealed on chain."),
  c('onchain_zopa', 'bool', 'The reservations revealed on chain overlap.'),
  c('onchain_created_slot', 'int64', 'Slot of the creating transaction.'),
  c('onchain_created_at', 'timestamp', 'Block time of the creating transaction (millisecond precision).'),
  c('onchain_last_slot', 'int64', 'Slot of the latest transition (the settlement or refund once closed).'),
  c('onchain_last_at', 'timestamp', 'Block time of the latest transition (millisecond precision).'),
  c('onchain_closed_at', 'timestamp', 'Block time of the settlement or refund; null while open.'),
  c(
    'onchain_offer_differences',
    'int32',
    'Gossip against chain, as the conversation page counts them: offer positions whose NEG1 ' +
      'offer and on-chain offer differ or exist on one side only (gossip not yet on chain ' +
      "does not count while open), plus one when the settled amount is not the ACCEPT's price.",
  ),
  c(
    'onchain_matches_gossip',
    'bool',
    'onchain_offer_differences is 0: the parties signed on chain what they gossiped.',
  ),
];

const negotiations: TableSchema = {
  name: 'negotiations',
  version: 6,
  doc:
    'One row per negotiation (conversation with a PROPOSE): parties, offers, outcome, the ' +
    'analytics of lib/protocol/analytics.ts (docs/analytics.md defines each figure; null ' +
    'where it is unknown), and its on-chain Haggle settlement (escrow, decay burned, payout, ' +
    'refund) when the parties mirrored it on chain. On-chain amounts are USDC base units.',
  columns: [
    req('conversation_id', 'hex', 'Conversation id.'),
    req('proposer', 'hex', 'Agent that sent the PROPOSE.'),
    c('responder', 'hex', 'The other party.'),
    c(
      'buyer',
      'hex',
      'The buying party, from evidence (docs/analytics.md "roles": Haggle account, ' +
        'DELIVER, ADVERTISE, DISCOVER); null when nothing says, never guessed from prices.',
    ),
    c('seller', 'hex', 'The selling party, from the same evidence.'),
    c(
      'roles_source',
      'string',
      'Where buyer and seller come from: haggle, deliver, advertise or ' +
        'discover (comma-separated when two sources combined); null when unknown.',
    ),
    c('opening_offer', 'i128', "Proposer's first price (by round)."),
    c('opening_counter', 'i128', "Responder's first price (by round)."),
    c(
      'final_offer',
      'i128',
      'Last NEG1 price offered (PROPOSE or COUNTER) by round, then ' +
        'time, then envelope id: the last offer of the offers table.',
    ),
    req('rounds', 'int32', 'NEG1 offers (PROPOSE + COUNTER) exchanged.'),
    req(
      'outcome',
      'string',
      'The conversation state machine\'s outcome (docs/protocol.md "Conversation state"), as the list and ' +
        'the API give it: agreed (an ACCEPT), rejected (a REJECT), disputed (an ACCEPT, then a DISPUTE), ' +
        "no_deal (FEEDBACK or other deal steps without an ACCEPT); where that is open or no_deal, the chain's " +
        'terminal state of its Haggle account (settled → agreed, rejected, expired); else, while open, ' +
        "expired when the last offer's deadline has passed or its round used the last of max_rounds; else open.",
    ),
    c('agreed_price', 'i128', 'Price of the ACCEPT.'),
    req('started_at', 'timestamp', 'First negotiation message.'),
    req('ended_at', 'timestamp', 'ACCEPT/REJECT (or last offer when none).'),
    req('duration_ms', 'double', 'ended_at - started_at in milliseconds.'),
    c('decay_bps', 'int32', 'Escrow decay per round of the first NEG1.'),
    c('max_rounds', 'int32', 'Maximum rounds the opening NEG1 states (0 = none).'),
    c('deadline', 'u64', 'Deadline the opening NEG1 states, unix seconds (0 = none).'),
    c('service_hash', 'hex', 'SHA-256 of the service description, from the opening NEG1.'),
    c('token_mint', 'hex', 'Token the prices are in, from the opening NEG1 (zeros = unspecified).'),
    c(
      'escrow_decay_cost',
      'u64',
      "Escrow the chain burned by decay for this negotiation's Haggle account (the " +
        'same figure as escrow_decayed_total); null off chain, where nothing is escrowed.',
    ),
    c(
      'zopa_exists',
      'bool',
      'Both roles known and both reservations verified (NEGR opening an earlier NEGC): ' +
        'true when they overlap (buyer ≥ seller), false when they do not; null when unknown.',
    ),
    c('buyer_reservation', 'i128', "Buyer's verified reservation price; null when not revealed or not verified."),
    c('seller_reservation', 'i128', "Seller's verified reservation price."),
    c(
      'buyer_reservation_status',
      'string',
      'verified, no commitment (NEGR without an earlier NEGC), mismatch (NEGR does not ' +
        'open its NEGC) or not revealed; null when the buyer sealed nothing or is unknown.',
    ),
    c('seller_reservation_status', 'string', 'The same for the seller.'),
    c(
      'commitments_valid',
      'bool',
      'Every reveal opens an earlier commitment of its sender; false ' +
        'when one has no commitment or does not match; null with no reveal.',
    ),
    c(
      'buyer_concession_exponent',
      'double',
      "Faratin β of the buyer's offers on the shared clock (< 1 Boulware, > 1 " +
        'conceder); null with fewer than 4 offers, no movement, roles unknown, ' +
        'or β at the search bound (e^±5, where the offers do not determine it).',
    ),
    c(
      'buyer_concession_class',
      'string',
      'boulware, linear (|ln β| ≤ 0.05) or conceder; null when withheld ' +
        '(zig-zag, moving away, β at the search bound, fit error above 5%).',
    ),
    c('buyer_fit_error', 'double', "RMSE of the buyer's fit over its price range."),
    c('buyer_movement', 'string', 'single offer, no movement, conceding, moving away or zig-zag.'),
    c('seller_concession_exponent', 'double', "Faratin β of the seller's offers."),
    c('seller_concession_class', 'string', 'boulware, linear or conceder; null when withheld.'),
    c('seller_fit_error', 'double', "RMSE of the seller's fit over its price range."),
    c('seller_movement', 'string', 'single offer, no movement, conceding, moving away or zig-zag.'),
    c(
      'nash_price',
      'decimal1',
      'Nash bargaining price (r_buyer + r_seller)/2 from the verified reservations, exact (may end in .5).',
    ),
    c('nash_distance', 'decimal1', '|agreed price - Nash price|, exact.'),
    c('nash_relative_distance', 'double', 'nash_distance / ZOPA width; null when the width is 0.'),
    c('buyer_surplus', 'i128', 'r_buyer - agreed price (negative when the deal is outside the ZOPA).'),
    c('seller_surplus', 'i128', 'agreed price - r_seller.'),
    c(
      'outside_zopa_by',
      'i128',
      'How far the agreed price lies outside the ZOPA: max(agreed price - r_buyer, ' +
        'r_seller - agreed price, 0), the most either side passed its own verified ' +
        'reservation by; 0 inside the ZOPA; null without a deal or with the ZOPA unknown.',
    ),
    c(
      'rubinstein_share',
      'double',
      "First mover's Rubinstein share (1 - δB)/(1 - δA·δB), δ = 1 - decay_bps/10,000 of each side's own " +
        "NEG1 messages; 0.5 with no decay on either side; null when the ZOPA or a side's decay is unknown.",
    ),
    c('rubinstein_price', 'decimal6', 'The Rubinstein price in the ZOPA, rounded to 6 places of a unit.'),
    c('notary', 'hex', 'Agent assigned by NOTARIZE_ASSIGN (not a party).'),
    list(
      'notary_bidders',
      'hex',
      'The agents (hex ids) that bid to notarise (NOTARIZE_BID) and ' +
        'are neither a party nor the assigned notary; null when none.',
    ),
    c('verdict_passed', 'bool', 'Notary verdict (demo VERDICT payload).'),
    c('buyer_feedback_score', 'int32', 'Score the buyer received in FEEDBACK (mean when several).'),
    c('seller_feedback_score', 'int32', 'Score the seller received in FEEDBACK.'),
    c('notary_feedback_score', 'int32', 'Score the notary received in FEEDBACK.'),
    ...onChainColumns,
  ],
};

const feedback: TableSchema = {
  name: 'feedback',
  version: 4,
  doc: 'One row per FEEDBACK envelope (docs/protocol.md §4).',
  columns: [
    req('envelope_id', 'hex', 'FEEDBACK envelope id.'),
    req('conversation_id', 'hex', 'Conversation the feedback is about.'),
    req('from_agent', 'hex', 'Sender.'),
    req('target_agent', 'hex', 'Rated agent.'),
    req('score', 'int32', '-100..100.'),
    req('outcome', 'string', 'negative, neutral or positive.'),
    req('is_dispute', 'bool', 'Dispute flag.'),
    req('role', 'string', 'participant or notary.'),
    req('timestamp', 'u64_timestamp', 'Envelope timestamp (item 4), unix µs as the sender wrote it.'),
    req('epoch', 'int64', 'Epoch of the timestamp.'),
  ],
};

const batches: TableSchema = {
  name: 'batches',
  version: 2,
  doc:
    'BehaviorBatches as the chain indexer stored them ' +
    '(docs/protocol.md §5–6), with their check against the uploaded log.',
  columns: [
    req('agent_id', 'hex', 'Agent that submitted the batch.'),
    req('epoch', 'int64', 'Epoch the batch covers.'),
    req('batch_hash', 'hex', 'Hash of the batch.'),
    req('log_merkle_root', 'hex', "Merkle root of the agent's epoch log committed on chain."),
    req('slot', 'int64', 'Slot of the submitting transaction.'),
    c('signature', 'string', 'Transaction signature (base58).'),
    req('status', 'string', 'verified (uploaded log has the root), mismatch, or unverified (no log yet).'),
    c('uploaded_log_root', 'hex', 'Root recomputed from the uploaded log, when checked.'),
    req('updated_at', 'timestamp', 'Last change of the row.'),
  ],
};

const challenges: TableSchema = {
  name: 'challenges',
  version: 3,
  doc: 'Challenges against batches (on-chain challenge program) with their status transitions.',
  columns: [
    req('address', 'string', 'Challenge account (base58).'),
    req('agent_id', 'hex', 'Challenged agent.'),
    req('epoch', 'int64', 'Epoch of the challenged batch.'),
    req('challenger', 'hex', 'Challenger.'),
    req('status', 'string', 'pending, upheld, rejected, void or expired.'),
    req('slot', 'int64', 'Slot of the latest transition.'),
    req('opened_slot', 'int64', 'Slot the challenge was opened.'),
    list(
      'transitions',
      [
        { name: 'status', type: 'string' },
        { name: 'slot', type: 'int64' },
        { name: 'signature', type: 'string' },
      ],
      'Its status transitions in slot order: {status, slot, signature (base58)}.',
      false,
    ),
    req('updated_at', 'timestamp', 'Last change of the row.'),
  ],
};

const topicColumns = (['broadcast', 'notary', 'reputation', 'stream'] as const).flatMap((t) => {
  const where = t === 'stream' ? 'on a direct stream (/0x01/v1/envelope)' : `on gossip topic /0x01/v1/${t}`;
  return [
    c(
      `seen_${t}`,
      'int32',
      `Envelopes this agent sent in the epoch that the observer saw ${where}; null unless verified.`,
    ),
    c(
      `committed_${t}`,
      'int32',
      `Of seen_${t}, those in some committed log of the epoch (the sender's, a ` +
        `recipient's or a FEEDBACK target's verified log); null unless verified.`,
    ),
  ];
});

const reconciliation: TableSchema = {
  name: 'reconciliation',
  version: 1,
  doc:
    'Gossip against the chain, one row per agent and epoch with a batch verdict, computed ' +
    'when the verdict was reached: envelopes the observer saw live (gossip or stream) that ' +
    "belong in the agent's epoch log (docs/protocol.md §5: sent by it, addressed to it, or " +
    'FEEDBACK about it, dated in the epoch) against the log the agent committed to. Only a ' +
    "verified batch's log is committed; for a mismatch the figures are null (not comparable).",
  columns: [
    req('agent_id', 'hex', 'The agent.'),
    req('epoch', 'int64', 'The epoch.'),
    req(
      'batch_status',
      'string',
      'The batch verdict the row was computed at: verified (the ' +
        'uploaded log has the on-chain root and counts) or mismatch.',
    ),
    req('log_entries', 'int32', 'Entries of the uploaded log.'),
    c('seen', 'int32', 'Envelopes the observer saw live that belong in the log; null unless verified.'),
    c('seen_logged', 'int32', 'Of seen, those in the committed log.'),
    c('seen_not_logged', 'int32', 'Of seen, those missing from the committed log (seen − seen_logged).'),
    c('logged_not_seen', 'int32', 'Log entries the observer never saw on the mesh (known only from uploads).'),
    ...topicColumns,
    req('computed_at', 'timestamp', 'When the row was computed (the verdict; envelopes stored later are not in it).'),
  ],
};

const disputes: TableSchema = {
  name: 'disputes',
  version: 3,
  doc:
    'One row per DISPUTE envelope, oldest first, with what its conversation says about it and ' +
    'the opinions recorded on the dispute desk (docs/app.md "Dispute desk") by the reviewers the ' +
    "deployment names (DISPUTE_REVIEWERS); anyone else's opinion is kept on the desk but not " +
    'counted here. The protocol leaves disputes to people: the opinions are signed statements of ' +
    'reviewers, not a resolution. A release holds the opinions as they were when it was written.',
  columns: [
    req('dispute_id', 'hex', 'The DISPUTE envelope id.'),
    req('conversation_id', 'hex', 'The conversation disputed.'),
    req('disputed_at', 'u64_timestamp', "The DISPUTE envelope's timestamp (item 4), unix µs as the sender wrote it."),
    req('epoch', 'int64', 'Epoch of that timestamp.'),
    req('received_at', 'timestamp', 'When the observer stored the DISPUTE.'),
    req('disputer', 'hex', 'Sender of the DISPUTE.'),
    req('dispute_recipient', 'hex', 'Its recipient (in the demo, the notary whose verdict is contested).'),
    c('proposer', 'hex', "Sender of the conversation's first PROPOSE; null when none is stored."),
    c('responder', 'hex', 'Recipient of that PROPOSE.'),
    c('notary', 'hex', "Recipient of the conversation's NOTARIZE_ASSIGN; null when none is stored."),
    c(
      'verdict_passed',
      'bool',
      'The first VERDICT of the conversation, decoded as the demo ' +
        'agents write it ([passed, score]); null when none or opaque.',
    ),
    c('verdict_score', 'int32', "That VERDICT's score, -100..100."),
    req(
      'opinions',
      'int32',
      'Named reviewers with a current opinion (one per reviewer; ' +
        "a newer signed opinion replaces the reviewer's older one).",
    ),
    req('upheld', 'int32', 'Of those, reviewers who hold the dispute upheld.'),
    req('rejected', 'int32', 'Reviewers who reject it.'),
    req('unclear', 'int32', 'Reviewers who find it unclear.'),
    c('last_opinion_at', 'timestamp', 'When the newest current opinion was signed; null without opinions.'),
  ],
};

export const TABLES: Record<TableName, TableSchema> = {
  envelopes,
  offers,
  negmas,
  negotiations,
  feedback,
  batches,
  challenges,
  reconciliation,
  disputes,
};

/**
 * A release's context file (release.ts): envelopes of the epoch's negotiations dated outside the
 * epoch. Only what cannot be re-derived from the bytes is kept beside them (their receipt
 * columns), so every value fits its column and no context envelope is ever set aside.
 */
export const CONTEXT_SCHEMA: TableSchema = {
  name: 'envelopes',
  version: envelopes.version,
  doc:
    "Envelopes of the epoch's negotiations dated outside the epoch: six of the envelopes " +
    "table's columns (id, seq, raw, seen_via, gossip_topic, first_seen), the raw signed " +
    'bytes and how the observer got them; decode raw for every other envelopes column.',
  columns: ['id', 'seq', 'raw', 'seen_via', 'gossip_topic', 'first_seen'].map(
    (n) => envelopes.columns.find((c) => c.name === n)!,
  ),
};
