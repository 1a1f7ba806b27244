/**
 * lib/protocol: the pure 0x01 / NEG1 / receipt core (docs/protocol.md). See README.md for the API map.
 */

export { type AdvertiseResult, type AdvertValue, decodeAdvertise, encodeAdvertiseJson } from './advertise';
export {
  type AnalyzeOptions,
  advertisedRole,
  analyzeNegotiation,
  assignRoles,
  type CurveClass,
  type CurveFit,
  curveClass,
  type EscrowOnChain,
  fitFaratin,
  type HaggleAccount,
  haggleRoleClaims,
  type Movement,
  type NegotiationAnalysis,
  type NegotiationMessage,
  nashBargainingPoint,
  type Ratio,
  type ReservationCheck,
  type Role,
  type RoleAssignment,
  type RoleClaim,
  ratioToDecimal,
  ratioToNumber,
  rubinsteinShare,
  rubinsteinShareBps,
  type SideAnalysis,
} from './analytics';
export {
  analyticsMarkdown,
  FIGURE_KEYS,
  FIGURES,
  FIT,
  type FigureDefinition,
  type FigureKey,
  ROLE_SOURCE_TEXT,
  ROLE_SOURCES,
  type RoleSource,
} from './analytics-defs';
export {
  type BatchResult,
  type BehaviorBatch,
  batchHash,
  decodeBatch,
  decodeSignedBatch,
  encodeBatch,
  encodeSignedBatch,
  type FeedbackEvent,
  MAX_BATCH_BYTES,
  overflowDataHash,
  overflowDataHashOf,
  type SignedBatch,
  signBatch,
  type TaskSelection,
  type TypedBid,
  type VerifierAssignment,
  verifySignedBatch,
} from './batch';
export { type BuildBatchParams, buildBatchFromLog } from './batch-build';
export { type CborValue, decodeCanonical, encodeCanonical } from './cbor';
export * from './constants';
export {
  CONVERSATION_OUTCOMES,
  CONVERSATION_RULES,
  CONVERSATION_STAGES,
  type ConversationOutcome,
  type ConversationStage,
  type ConversationState,
  conversationState,
  conversationStateOfMask,
  conversationStateSql,
  conversationTypeBit,
  isDeal,
  OUTCOME_LABELS,
  STAGE_LABELS,
  stateLabel,
  typesSeenMask,
} from './conversation-state';
export {
  type Ed25519Backend,
  ed25519Backend,
  ed25519Backends,
  ed25519Sign,
  ed25519Verify,
  keccak256,
  publicKeyFromSeed,
  setEd25519Backend,
  sha256,
} from './crypto';
export {
  type BuildEnvelopeParams,
  type BuildEnvelopeResult,
  buildEnvelope,
  type DecodeEnvelopeResult,
  decodeEnvelope,
  encodeEnvelope,
  envelopeId,
  signEnvelope,
  signingPreimage,
  verifyEnvelopeSignature,
} from './envelope';
export { EPOCH_LOG_DOMAIN, encodeSignedLogUpload, epochLogStatement, logRootOfBytes } from './epoch-log';
export { DecodeError, EncodeError, ProtocolError } from './errors';
export { bytesEqual, concatBytes, fromHex, toHex } from './hex';
export { leafHash, logEntryOf, type MerkleProof, merkleProof, merkleRoot, verifyMerkleProof } from './merkle';
export {
  checkZopaCommitment,
  decodeNeg1,
  decodeNegCommit,
  decodeNegReveal,
  encodeNeg1,
  encodeNegCommit,
  encodeNegReveal,
  int128ToBytes,
  makeReservationCommitment,
  NEG1_PREFIX,
  NEGC_PREFIX,
  NEGR_PREFIX,
  type Neg1Payload,
  Neg1Reason,
  type NegotiationPayload,
  type NegResult,
  type NegReveal,
  parseNegotiationPayload,
} from './neg1';
export {
  compareOffers,
  OFFER_MATCHES,
  type OfferComparison,
  type OfferComparisonInput,
  type OfferMatch,
  type OfferPosition,
} from './offer-match';
export {
  decodeFeedback,
  decodeNotarizeBid,
  encodeFeedback,
  encodeNotarizeBid,
  FEEDBACK_OUTCOMES,
  type FeedbackPayload,
  type NotarizeBidPayload,
  type PayloadResult,
} from './payloads';
export {
  type BuildReceiptParams,
  buildReceipt,
  decodeReceipt,
  encodeReceipt,
  type Receipt,
  type ReceiptFailure,
  type ReceiptParty,
  type ReceiptVerification,
  verifyReceipt,
} from './receipt';
export {
  applyEpochDecay,
  applyFeedback,
  compareFeedbackEvents,
  emptyReputation,
  type FeedbackInput,
  type FoldBatchesParams,
  foldBatches,
  type ReputationState,
} from './reputation';
export { decodeSignatureText, SIGNATURE_TEXT_FORMS } from './signature-text';
export * from './types';
export { type SyncSignerRegistry, type ValidateSyncParams, validateEnvelope, validateEnvelopeSync } from './validate';
export { batchFromVectorFields, runVectorFile, type VectorCase, type VectorFileResult } from './vectors';
