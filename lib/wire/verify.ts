/**
 * What the browser-side verifier (lib/verify) fetches from our API: an envelope's raw bytes and,
 * for each uploaded epoch log it sits in, its log entry and merkle proof (docs/protocol.md §5).
 * The browser trusts none of it: it recomputes ids, hashes and roots and reads the chain itself.
 */
import { z } from 'zod';
import { hex32, hexBytes, nonNegInt, u64String } from './codec';

/** `GET /api/envelopes/{id}/raw`. */
export const EnvelopeRawViewSchema = z.object({ id: hex32, raw: hexBytes });
export type EnvelopeRawView = z.infer<typeof EnvelopeRawViewSchema>;

/** One epoch log (agent, epoch) holding the envelope, with the proof of its position. */
export const InclusionProofViewSchema = z.object({
  agent: hex32,
  epoch: u64String,
  index: nonNegInt,
  leafCount: nonNegInt,
  /** The log entry bytes (docs/protocol.md §5). */
  entry: hexBytes,
  siblings: z.array(hex32),
  /** The root our server computes over the uploaded log. */
  logRoot: hex32,
  /** The indexer's status of that epoch's batch (verified, mismatch, …), null when none. */
  batchStatus: z.string().nullable(),
});
export type InclusionProofView = z.infer<typeof InclusionProofViewSchema>;

/** `GET /api/envelopes/{id}/inclusion`: every uploaded log that holds the envelope. */
export const InclusionViewSchema = z.object({ envelopeId: hex32, proofs: z.array(InclusionProofViewSchema) });
export type InclusionView = z.infer<typeof InclusionViewSchema>;

/**
 * `GET /api/batches/{agent}/{epoch}/log`: the agent's uploaded epoch log, envelope bytes in log order (null: not
 * stored).
 */
export const BatchLogViewSchema = z.object({ agent: hex32, epoch: u64String, envelopes: z.array(hexBytes.nullable()) });
export type BatchLogView = z.infer<typeof BatchLogViewSchema>;
