/**
 * The wallet side of the server <-> browser contract: the chain the browser's wallet talks to
 * (from the server's configuration only, never from the page's URL), the embedded chain's
 * faucet, and the pre-filled evidence of a one-click challenge. Browser-safe (zod only).
 */
import { z } from 'zod';
import { base58Address, hex32, hexBytes, hexOf, u64String } from './codec';

/** Which chain the browser acts on: the embedded chain, or a cluster named by SOLANA_RPC_URL. */
export const ClusterSchema = z.enum(['embedded', 'devnet', 'testnet', 'mainnet-beta', 'localnet', 'custom']);
export type Cluster = z.infer<typeof ClusterSchema>;

/** What the wallet island reads (rendered into the page by the root layout). */
export const WalletConfigViewSchema = z.object({
  cluster: ClusterSchema,
  /**
   * JSON-RPC endpoint for the browser: a same-origin path (`/api/chain/rpc`) for the embedded
   * chain, which listens on 127.0.0.1 only; the cluster's URL otherwise.
   */
  rpc: z.string().min(1),
  /** The faucet (`POST /api/chain/faucet`) exists: embedded chain only. */
  faucet: z.boolean(),
  /** Where a real cluster registers agent identities (SATI); null on the embedded chain. */
  registerUrl: z.string().nullable(),
});
export type WalletConfigView = z.infer<typeof WalletConfigViewSchema>;

/** POST /api/chain/faucet body. */
export const FaucetRequestSchema = z.object({ address: base58Address }).strict();
export type FaucetRequest = z.infer<typeof FaucetRequestSchema>;

/** What the faucet sent: SOL (lamports) and demo USDC (base units), with the signatures. */
export const FaucetResultSchema = z.object({
  address: base58Address,
  lamports: u64String,
  usdc: u64String,
  signatures: z.array(z.string()),
});
export type FaucetResult = z.infer<typeof FaucetResultSchema>;

/**
 * One entry of an agent's uploaded epoch log that puts an item in its batch (a bid, a task
 * selection, a verifier assignment), whether the batch contradicts it (leaves it out), and everything submit_challenge,
 * the evidence buffer and resolve_challenge need (lib/chain/evidence.ts; docs/protocol.md §5 for the proof).
 */
export const ChallengeCandidateSchema = z.object({
  agent: hex32,
  agentAddress: base58Address,
  epoch: u64String,
  /** Position of the entry in the uploaded log. */
  index: z.number().int().nonnegative(),
  /** True when the batch leaves the entry out (or reports it wrong): a challenge should win. */
  contradicted: z.boolean(),
  /** The entry and what the batch says about it, in words. */
  reason: z.string(),
  /** The signer of the batch (the identity owner), base58: the resolve step verifies the entry against it. */
  signer: base58Address,
  leaf: hex32,
  /** Evidence buffer bytes: entry, payload, merkle proof, batch CBOR. */
  bytes: hexBytes,
  preimage: hexBytes,
  signature: hexOf(64),
});
export type ChallengeCandidate = z.infer<typeof ChallengeCandidateSchema>;

/** GET /api/batches/challengeable?agent=&epoch= */
export const ChallengeCandidateListSchema = z.object({
  candidates: z.array(ChallengeCandidateSchema),
  /**
   * Entries of the agent that yield batch items but are signed by another key than the batch's signer (a delegate hot
   * wallet): resolve_challenge cannot verify them, so they are not offered.
   */
  unprovable: z.number().int().nonnegative().default(0),
});
export type ChallengeCandidateList = z.infer<typeof ChallengeCandidateListSchema>;
