/**
 * Defaults of the embedded chain (docs/chain.md "litesvm facts the code relies on").
 * One place for every tunable so `startEmbeddedChain` can validate overrides against them.
 */

/** Default JSON-RPC port: what Phantom and the Solana CLI call "localnet". */
export const DEFAULT_RPC_PORT = 8899;
/** Loopback only: the embedded chain is a developer tool, never a public endpoint. */
export const BIND_HOST = '127.0.0.1';
/** Slot length of a cluster; slots advance with wall time at this pace. */
export const DEFAULT_SLOT_MS = 400;
/**
 * Transactions (with logs and meta) kept for history queries; the demo lands ~20 a second, so the ring holds ~80
 * minutes. In memory ~0.2 KB each with a data directory (the rest read from its log), ~1.5 KB without (history.ts).
 */
export const DEFAULT_HISTORY_LIMIT = 100_000;
/** A blockhash stays valid for this many slots, as on a cluster (MAX_PROCESSING_AGE). */
export const BLOCKHASH_VALID_SLOTS = 150;
/** Fee per signature, lamports (the cluster default). */
export const LAMPORTS_PER_SIGNATURE = 5000;
/** Interval between state snapshots when a dataDir is given. */
export const DEFAULT_SNAPSHOT_MS = 5_000;
/** Largest HTTP body accepted (the cluster accepts 50 MiB; our transactions are ≤ 1232 bytes). */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** Largest JSON-RPC batch accepted in one request. */
export const MAX_BATCH = 1000;
/** getSignaturesForAddress / getMultipleAccounts limits of the cluster. */
export const MAX_SIGNATURES_LIMIT = 1000;
export const MAX_MULTIPLE_ACCOUNTS = 100;
export const MAX_SIGNATURE_STATUSES = 256;
/** Version strings reported by getVersion and in every context. */
export const SOLANA_CORE_VERSION = '2.2.0';
export const FEATURE_SET = 3294202862;
/** Lamports given to the faucet that serves requestAirdrop (500 M SOL). */
export const FAUCET_LAMPORTS = 500_000_000n * 1_000_000_000n;
/** Largest single airdrop (a test validator allows any; keep it sane). */
export const MAX_AIRDROP_LAMPORTS = 1_000_000n * 1_000_000_000n;
/** rentEpoch every account reports since rent collection ended (u64::MAX as a JSON number). */
// u64::MAX as the RPC's JSON number; JavaScript clients read it as 2^64 too.
// biome-ignore lint/correctness/noPrecisionLoss: see above
export const RENT_EPOCH_EXEMPT = 18446744073709551615;

export const SYSTEM_PROGRAM_ID = '11111111111111111111111111111111';
export const TOKEN_PROGRAM_ID = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM_ID = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const MEMO_PROGRAM_IDS = new Set([
  'MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr',
  'Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo',
]);
