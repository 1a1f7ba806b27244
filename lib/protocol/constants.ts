/**
 * Protocol and economic constants (0x01 spec §11, docs/protocol.md). One place for every default.
 * USDC amounts are in the token's smallest unit (6 decimals).
 */
export const PROTOCOL_VERSION = 1;
/** Largest encoded envelope, bytes (docs/protocol.md §2). */
export const MAX_ENVELOPE_BYTES = 65_536;
/** Allowed clock skew for live envelopes, microseconds (docs/protocol.md §3). */
export const TIMESTAMP_TOLERANCE_US = 30_000_000n;
/** Per-array cap in a BehaviorBatch (spec §8.3). */
export const MAX_BATCH_ENTRIES = 1_000;
/** Mesh limits (spec §11). */
export const MAX_CONNECTIONS = 50;
export const MAX_MESSAGES_PER_SECOND_PER_PEER = 100;
/** Reputation fixed point (docs/protocol.md §7). */
export const REPUTATION_ONE = 1_000_000n;
/** Epochs without a batch after which authoritative scores decay (docs/protocol.md §7). */
export const DECAY_IDLE_EPOCHS = 6;
export const DECAY_NUMERATOR = 95n;
export const DECAY_DENOMINATOR = 100n;
/** Default epoch length, seconds (spec §8). */
export const DEFAULT_EPOCH_SECONDS = 86_400;

export const USDC_DECIMALS = 6;
export const USDC = 1_000_000n;
/** Minimum stake to lock, 10 USDC (spec §10.5). */
export const MIN_STAKE = 10n * USDC;
/** Lease cost per epoch, 1 USDC (spec §10.3). */
export const LEASE_COST_PER_EPOCH = 1n * USDC;
/** Epochs of grace after a missed lease before deactivation (spec §10.3). */
export const GRACE_PERIOD_EPOCHS = 3n;
/** Slots between queue_unlock and claim_stake (spec §10.5): two days of 400 ms slots. */
export const UNLOCK_DELAY_SLOTS = 432_000n;
/** Epochs after a batch during which it may be challenged (spec §10.4). */
export const CHALLENGE_WINDOW_EPOCHS = 2n;
/** Stake a challenger locks, 10 USDC (spec §10.4). */
export const CHALLENGE_STAKE = 10n * USDC;
/** Share of the slashed stake paid to a successful challenger, basis points (spec §10.4). */
export const CHALLENGE_REWARD_BPS = 5_000n;
