/**
 * lib/protocol: the pure 0x01 / NEG1 / receipt core (docs/protocol.md). See README.md for the API map.
 */
export * from './types';
export * from './constants';
export { ProtocolError, DecodeError, EncodeError } from './errors';
export { toHex, fromHex, bytesEqual, concatBytes } from './hex';
export {
  keccak256, sha256, publicKeyFromSeed, ed25519Verify, ed25519Sign, ed25519Backend, ed25519Backends, setEd25519Backend,
  type Ed25519Backend,
} from './crypto';
export { decodeSignatureText, SIGNATURE_TEXT_FORMS } from './signature-text';
export { encodeCanonical, decodeCanonical, type CborValue } from './cbor';
export { decodeAdvertise, encodeAdvertiseJson, type AdvertiseResult, type AdvertValue } from './advertise';
export {
  encodeEnvelope, decodeEnvelope, envelopeId, signingPreimage, signEnvelope, verifyEnvelopeSignature, buildEnvelope,
  type DecodeEnvelopeResult, type BuildEnvelopeParams, type BuildEnvelopeResult,
} from './envelope';
export { validateEnvelope, validateEnvelopeSync, type SyncSignerRegistry, type ValidateSyncParams } from './validate';
export {
  encodeFeedback, decodeFeedback, encodeNotarizeBid, decodeNotarizeBid, FEEDBACK_OUTCOMES,
  type FeedbackPayload, type NotarizeBidPayload, type PayloadResult,
} from './payloads';
export {
  encodeNeg1, decodeNeg1, encodeNegCommit, decodeNegCommit, encodeNegReveal, decodeNegReveal,
  makeReservationCommitment, checkZopaCommitment, parseNegotiationPayload, int128ToBytes, Neg1Reason,
  NEG1_PREFIX, NEGC_PREFIX, NEGR_PREFIX,
  type Neg1Payload, type NegReveal, type NegotiationPayload, type NegResult,
} from './neg1';
export { logEntryOf, leafHash, merkleRoot, merkleProof, verifyMerkleProof, type MerkleProof } from './merkle';
export {
  encodeBatch, decodeBatch, batchHash, signBatch, encodeSignedBatch, decodeSignedBatch, verifySignedBatch,
  overflowDataHash, overflowDataHashOf, MAX_BATCH_BYTES,
  type BehaviorBatch, type SignedBatch, type TypedBid, type TaskSelection, type VerifierAssignment,
  type FeedbackEvent, type BatchResult,
} from './batch';
export { buildBatchFromLog, type BuildBatchParams } from './batch-build';
export {
  emptyReputation, applyFeedback, applyEpochDecay, foldBatches, compareFeedbackEvents,
  type ReputationState, type FeedbackInput, type FoldBatchesParams,
} from './reputation';
export {
  analyzeNegotiation, assignRoles, haggleRoleClaims, advertisedRole, nashBargainingPoint, rubinsteinShare, rubinsteinShareBps, fitFaratin, curveClass,
  ratioToDecimal, ratioToNumber,
  type NegotiationMessage, type AnalyzeOptions, type NegotiationAnalysis, type SideAnalysis, type CurveFit, type CurveClass, type Movement,
  type Role, type RoleClaim, type RoleAssignment, type Ratio, type ReservationCheck, type HaggleAccount, type EscrowOnChain,
} from './analytics';
export { FIGURES, FIGURE_KEYS, FIT, ROLE_SOURCES, ROLE_SOURCE_TEXT, analyticsMarkdown, type FigureKey, type FigureDefinition, type RoleSource } from './analytics-defs';
export {
  buildReceipt, encodeReceipt, decodeReceipt, verifyReceipt,
  type Receipt, type ReceiptParty, type ReceiptFailure, type ReceiptVerification, type BuildReceiptParams,
} from './receipt';
export { runVectorFile, batchFromVectorFields, type VectorCase, type VectorFileResult } from './vectors';
export { compareOffers, OFFER_MATCHES, type OfferMatch, type OfferComparison, type OfferComparisonInput, type OfferPosition } from './offer-match';
export { EPOCH_LOG_DOMAIN, epochLogStatement, logRootOfBytes, encodeSignedLogUpload } from './epoch-log';
export {
  CONVERSATION_STAGES, CONVERSATION_OUTCOMES, CONVERSATION_RULES, STAGE_LABELS, OUTCOME_LABELS, conversationState, conversationStateOfMask,
  conversationStateSql, conversationTypeBit, typesSeenMask, isDeal, stateLabel, type ConversationStage, type ConversationOutcome, type ConversationState,
} from './conversation-state';
