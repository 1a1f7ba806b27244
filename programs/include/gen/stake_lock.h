/* Generated from programs/stake_lock/program.json by programs/tools/gen.ts. Do not edit. */
#ifndef ZX_GEN_STAKE_LOCK_H
#define ZX_GEN_STAKE_LOCK_H
#include "zerox1.h"
#include "ids.h"
#include "constants.h"

/* ---- PDA seeds ---- */
#define STAKE_LOCK_SEED_CONFIG "config"
#define STAKE_LOCK_SEED_STAKE "stake"
#define STAKE_LOCK_SEED_VAULT_AUTHORITY "vault_authority"

/* ---- Accounts ---- */
/* Config PDA [b"config"]. vault: SPL Token account of usdc_mint owned by PDA [b"vault_authority"]. sati_program: the SATI registry whose members may lock stake (a deployment parameter). */
#define STAKE_LOCK_STAKE_CONFIG_DISC 0xb03f970b032b97eeULL
typedef struct {
  uint64_t discriminator;
  SolPubkey admin;
  SolPubkey usdc_mint;
  SolPubkey treasury;
  SolPubkey vault;
  uint64_t epoch_seconds;
  uint8_t bump;
  uint8_t vault_authority_bump;
  uint8_t _pad[6];
  SolPubkey sati_program;
} stake_lock_StakeConfig;
_Static_assert(sizeof(stake_lock_StakeConfig) == 184, "stake_lock_StakeConfig size");
_Static_assert(__builtin_offsetof(stake_lock_StakeConfig, discriminator) == 0, "stake_lock_StakeConfig.discriminator");
_Static_assert(__builtin_offsetof(stake_lock_StakeConfig, admin) == 8, "stake_lock_StakeConfig.admin");
_Static_assert(__builtin_offsetof(stake_lock_StakeConfig, usdc_mint) == 40, "stake_lock_StakeConfig.usdc_mint");
_Static_assert(__builtin_offsetof(stake_lock_StakeConfig, treasury) == 72, "stake_lock_StakeConfig.treasury");
_Static_assert(__builtin_offsetof(stake_lock_StakeConfig, vault) == 104, "stake_lock_StakeConfig.vault");
_Static_assert(__builtin_offsetof(stake_lock_StakeConfig, epoch_seconds) == 136, "stake_lock_StakeConfig.epoch_seconds");
_Static_assert(__builtin_offsetof(stake_lock_StakeConfig, bump) == 144, "stake_lock_StakeConfig.bump");
_Static_assert(__builtin_offsetof(stake_lock_StakeConfig, vault_authority_bump) == 145, "stake_lock_StakeConfig.vault_authority_bump");
_Static_assert(__builtin_offsetof(stake_lock_StakeConfig, _pad) == 146, "stake_lock_StakeConfig._pad");
_Static_assert(__builtin_offsetof(stake_lock_StakeConfig, sati_program) == 152, "stake_lock_StakeConfig.sati_program");

/* Stake PDA [b"stake", agent]. status: 1 locked, 2 unlocking, 3 claimed, 4 slashed. */
#define STAKE_LOCK_STAKE_DISC 0x957084371db0c596ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey agent;
  SolPubkey owner;
  uint64_t amount;
  uint64_t locked_slot;
  uint64_t unlock_requested_slot;
  uint8_t status;
  uint8_t bump;
  uint8_t _pad[6];
} stake_lock_Stake;
_Static_assert(sizeof(stake_lock_Stake) == 104, "stake_lock_Stake size");
_Static_assert(__builtin_offsetof(stake_lock_Stake, discriminator) == 0, "stake_lock_Stake.discriminator");
_Static_assert(__builtin_offsetof(stake_lock_Stake, agent) == 8, "stake_lock_Stake.agent");
_Static_assert(__builtin_offsetof(stake_lock_Stake, owner) == 40, "stake_lock_Stake.owner");
_Static_assert(__builtin_offsetof(stake_lock_Stake, amount) == 72, "stake_lock_Stake.amount");
_Static_assert(__builtin_offsetof(stake_lock_Stake, locked_slot) == 80, "stake_lock_Stake.locked_slot");
_Static_assert(__builtin_offsetof(stake_lock_Stake, unlock_requested_slot) == 88, "stake_lock_Stake.unlock_requested_slot");
_Static_assert(__builtin_offsetof(stake_lock_Stake, status) == 96, "stake_lock_Stake.status");
_Static_assert(__builtin_offsetof(stake_lock_Stake, bump) == 97, "stake_lock_Stake.bump");
_Static_assert(__builtin_offsetof(stake_lock_Stake, _pad) == 98, "stake_lock_Stake._pad");

/* ---- Events (emitted whole with sol_log_data) ---- */
#define STAKE_LOCK_EV_STAKE_INITIALIZED_DISC 0xa375210ae16dc994ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey admin;
  SolPubkey usdc_mint;
  SolPubkey treasury;
  SolPubkey vault;
  uint64_t epoch_seconds;
  SolPubkey sati_program;
} stake_lock_ev_StakeInitialized;
_Static_assert(sizeof(stake_lock_ev_StakeInitialized) == 176, "stake_lock_ev_StakeInitialized size");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeInitialized, discriminator) == 0, "stake_lock_ev_StakeInitialized.discriminator");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeInitialized, admin) == 8, "stake_lock_ev_StakeInitialized.admin");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeInitialized, usdc_mint) == 40, "stake_lock_ev_StakeInitialized.usdc_mint");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeInitialized, treasury) == 72, "stake_lock_ev_StakeInitialized.treasury");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeInitialized, vault) == 104, "stake_lock_ev_StakeInitialized.vault");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeInitialized, epoch_seconds) == 136, "stake_lock_ev_StakeInitialized.epoch_seconds");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeInitialized, sati_program) == 144, "stake_lock_ev_StakeInitialized.sati_program");

#define STAKE_LOCK_EV_STAKE_LOCKED_DISC 0x2c6dc1dd6ed7fdbcULL
typedef struct {
  uint64_t discriminator;
  SolPubkey agent;
  SolPubkey owner;
  uint64_t amount;
  uint64_t slot;
} stake_lock_ev_StakeLocked;
_Static_assert(sizeof(stake_lock_ev_StakeLocked) == 88, "stake_lock_ev_StakeLocked size");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeLocked, discriminator) == 0, "stake_lock_ev_StakeLocked.discriminator");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeLocked, agent) == 8, "stake_lock_ev_StakeLocked.agent");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeLocked, owner) == 40, "stake_lock_ev_StakeLocked.owner");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeLocked, amount) == 72, "stake_lock_ev_StakeLocked.amount");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeLocked, slot) == 80, "stake_lock_ev_StakeLocked.slot");

#define STAKE_LOCK_EV_UNLOCK_QUEUED_DISC 0x015f0e6ef4c225c0ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey agent;
  SolPubkey owner;
  uint64_t amount;
  uint64_t slot;
  uint64_t claimable_slot;
} stake_lock_ev_UnlockQueued;
_Static_assert(sizeof(stake_lock_ev_UnlockQueued) == 96, "stake_lock_ev_UnlockQueued size");
_Static_assert(__builtin_offsetof(stake_lock_ev_UnlockQueued, discriminator) == 0, "stake_lock_ev_UnlockQueued.discriminator");
_Static_assert(__builtin_offsetof(stake_lock_ev_UnlockQueued, agent) == 8, "stake_lock_ev_UnlockQueued.agent");
_Static_assert(__builtin_offsetof(stake_lock_ev_UnlockQueued, owner) == 40, "stake_lock_ev_UnlockQueued.owner");
_Static_assert(__builtin_offsetof(stake_lock_ev_UnlockQueued, amount) == 72, "stake_lock_ev_UnlockQueued.amount");
_Static_assert(__builtin_offsetof(stake_lock_ev_UnlockQueued, slot) == 80, "stake_lock_ev_UnlockQueued.slot");
_Static_assert(__builtin_offsetof(stake_lock_ev_UnlockQueued, claimable_slot) == 88, "stake_lock_ev_UnlockQueued.claimable_slot");

#define STAKE_LOCK_EV_STAKE_CLAIMED_DISC 0x83603964a9537ce7ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey agent;
  SolPubkey owner;
  uint64_t amount;
  uint64_t slot;
} stake_lock_ev_StakeClaimed;
_Static_assert(sizeof(stake_lock_ev_StakeClaimed) == 88, "stake_lock_ev_StakeClaimed size");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeClaimed, discriminator) == 0, "stake_lock_ev_StakeClaimed.discriminator");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeClaimed, agent) == 8, "stake_lock_ev_StakeClaimed.agent");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeClaimed, owner) == 40, "stake_lock_ev_StakeClaimed.owner");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeClaimed, amount) == 72, "stake_lock_ev_StakeClaimed.amount");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeClaimed, slot) == 80, "stake_lock_ev_StakeClaimed.slot");

#define STAKE_LOCK_EV_STAKE_SLASHED_DISC 0x23f4ebda19c4292bULL
typedef struct {
  uint64_t discriminator;
  SolPubkey agent;
  SolPubkey challenger_usdc;
  uint64_t amount;
  uint64_t reward;
  uint64_t to_treasury;
  uint64_t slot;
} stake_lock_ev_StakeSlashed;
_Static_assert(sizeof(stake_lock_ev_StakeSlashed) == 104, "stake_lock_ev_StakeSlashed size");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeSlashed, discriminator) == 0, "stake_lock_ev_StakeSlashed.discriminator");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeSlashed, agent) == 8, "stake_lock_ev_StakeSlashed.agent");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeSlashed, challenger_usdc) == 40, "stake_lock_ev_StakeSlashed.challenger_usdc");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeSlashed, amount) == 72, "stake_lock_ev_StakeSlashed.amount");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeSlashed, reward) == 80, "stake_lock_ev_StakeSlashed.reward");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeSlashed, to_treasury) == 88, "stake_lock_ev_StakeSlashed.to_treasury");
_Static_assert(__builtin_offsetof(stake_lock_ev_StakeSlashed, slot) == 96, "stake_lock_ev_StakeSlashed.slot");

/* ---- Instructions ---- */
/* Creates the Config PDA once: admin, USDC mint, treasury, vault (owned by the vault_authority PDA), epoch length, and the SATI program whose registered agents may stake. */
#define STAKE_LOCK_IX_INITIALIZE 0
#define STAKE_LOCK_INITIALIZE_NACCOUNTS 6
#define STAKE_LOCK_INITIALIZE_ACC_ADMIN 0
#define STAKE_LOCK_INITIALIZE_ACC_CONFIG 1
#define STAKE_LOCK_INITIALIZE_ACC_USDC_MINT 2
#define STAKE_LOCK_INITIALIZE_ACC_TREASURY 3
#define STAKE_LOCK_INITIALIZE_ACC_VAULT 4
#define STAKE_LOCK_INITIALIZE_ACC_SYSTEM_PROGRAM 5
typedef struct __attribute__((packed)) {
  uint8_t tag;
  uint64_t epoch_seconds;
  SolPubkey sati_program;
} stake_lock_initialize_ix;
_Static_assert(sizeof(stake_lock_initialize_ix) == 41, "stake_lock_initialize_ix size");
_Static_assert(__builtin_offsetof(stake_lock_initialize_ix, tag) == 0, "stake_lock_initialize_ix.tag");
_Static_assert(__builtin_offsetof(stake_lock_initialize_ix, epoch_seconds) == 1, "stake_lock_initialize_ix.epoch_seconds");
_Static_assert(__builtin_offsetof(stake_lock_initialize_ix, sati_program) == 9, "stake_lock_initialize_ix.sati_program");

/* Locks `amount` (>= MIN_STAKE) USDC for a registered SATI agent: the agent mint must be a TokenGroupMember of the group named by SATI's RegistryConfig and held by SATI's AgentIndex PDA for its member number; the signer must own the agent NFT. */
#define STAKE_LOCK_IX_LOCK_STAKE 1
#define STAKE_LOCK_LOCK_STAKE_NACCOUNTS 11
#define STAKE_LOCK_LOCK_STAKE_ACC_OWNER 0
#define STAKE_LOCK_LOCK_STAKE_ACC_CONFIG 1
#define STAKE_LOCK_LOCK_STAKE_ACC_STAKE 2
#define STAKE_LOCK_LOCK_STAKE_ACC_AGENT 3
#define STAKE_LOCK_LOCK_STAKE_ACC_IDENTITY 4
#define STAKE_LOCK_LOCK_STAKE_ACC_OWNER_USDC 5
#define STAKE_LOCK_LOCK_STAKE_ACC_VAULT 6
#define STAKE_LOCK_LOCK_STAKE_ACC_TOKEN_PROGRAM 7
#define STAKE_LOCK_LOCK_STAKE_ACC_SYSTEM_PROGRAM 8
#define STAKE_LOCK_LOCK_STAKE_ACC_SATI_REGISTRY 9
#define STAKE_LOCK_LOCK_STAKE_ACC_AGENT_INDEX 10
typedef struct __attribute__((packed)) {
  uint8_t tag;
  uint64_t amount;
} stake_lock_lock_stake_ix;
_Static_assert(sizeof(stake_lock_lock_stake_ix) == 9, "stake_lock_lock_stake_ix size");
_Static_assert(__builtin_offsetof(stake_lock_lock_stake_ix, tag) == 0, "stake_lock_lock_stake_ix.tag");
_Static_assert(__builtin_offsetof(stake_lock_lock_stake_ix, amount) == 1, "stake_lock_lock_stake_ix.amount");

/* Starts the unlock delay; only when the agent's Lease account says deactivated (status 2). */
#define STAKE_LOCK_IX_QUEUE_UNLOCK 2
#define STAKE_LOCK_QUEUE_UNLOCK_NACCOUNTS 5
#define STAKE_LOCK_QUEUE_UNLOCK_ACC_OWNER 0
#define STAKE_LOCK_QUEUE_UNLOCK_ACC_CONFIG 1
#define STAKE_LOCK_QUEUE_UNLOCK_ACC_STAKE 2
#define STAKE_LOCK_QUEUE_UNLOCK_ACC_IDENTITY 3
#define STAKE_LOCK_QUEUE_UNLOCK_ACC_LEASE 4
typedef struct {
  uint8_t tag;
} stake_lock_queue_unlock_ix;
_Static_assert(sizeof(stake_lock_queue_unlock_ix) == 1, "stake_lock_queue_unlock_ix size");
_Static_assert(__builtin_offsetof(stake_lock_queue_unlock_ix, tag) == 0, "stake_lock_queue_unlock_ix.tag");

/* Returns the stake to the identity owner after UNLOCK_DELAY_SLOTS, when no challenge against the agent is pending. */
#define STAKE_LOCK_IX_CLAIM_STAKE 3
#define STAKE_LOCK_CLAIM_STAKE_NACCOUNTS 9
#define STAKE_LOCK_CLAIM_STAKE_ACC_OWNER 0
#define STAKE_LOCK_CLAIM_STAKE_ACC_CONFIG 1
#define STAKE_LOCK_CLAIM_STAKE_ACC_STAKE 2
#define STAKE_LOCK_CLAIM_STAKE_ACC_IDENTITY 3
#define STAKE_LOCK_CLAIM_STAKE_ACC_AGENT_CHALLENGES 4
#define STAKE_LOCK_CLAIM_STAKE_ACC_VAULT 5
#define STAKE_LOCK_CLAIM_STAKE_ACC_OWNER_USDC 6
#define STAKE_LOCK_CLAIM_STAKE_ACC_VAULT_AUTHORITY 7
#define STAKE_LOCK_CLAIM_STAKE_ACC_TOKEN_PROGRAM 8
typedef struct {
  uint8_t tag;
} stake_lock_claim_stake_ix;
_Static_assert(sizeof(stake_lock_claim_stake_ix) == 1, "stake_lock_claim_stake_ix size");
_Static_assert(__builtin_offsetof(stake_lock_claim_stake_ix, tag) == 0, "stake_lock_claim_stake_ix.tag");

/* Only the challenge program's PDA [b"slasher"] (signing through CPI): slashes the whole stake, CHALLENGE_REWARD_BPS to the challenger, the rest to the treasury. */
#define STAKE_LOCK_IX_SLASH 4
#define STAKE_LOCK_SLASH_NACCOUNTS 8
#define STAKE_LOCK_SLASH_ACC_SLASHER 0
#define STAKE_LOCK_SLASH_ACC_CONFIG 1
#define STAKE_LOCK_SLASH_ACC_STAKE 2
#define STAKE_LOCK_SLASH_ACC_VAULT 3
#define STAKE_LOCK_SLASH_ACC_CHALLENGER_USDC 4
#define STAKE_LOCK_SLASH_ACC_TREASURY 5
#define STAKE_LOCK_SLASH_ACC_VAULT_AUTHORITY 6
#define STAKE_LOCK_SLASH_ACC_TOKEN_PROGRAM 7
typedef struct {
  uint8_t tag;
} stake_lock_slash_ix;
_Static_assert(sizeof(stake_lock_slash_ix) == 1, "stake_lock_slash_ix size");
_Static_assert(__builtin_offsetof(stake_lock_slash_ix, tag) == 0, "stake_lock_slash_ix.tag");

/* ---- Errors (custom program error codes) ---- */
#define STAKE_LOCK_ERR_INVALID_INSTRUCTION 8192ULL /* unknown tag or wrong instruction data length */
#define STAKE_LOCK_ERR_NOT_ENOUGH_ACCOUNTS 8193ULL /* fewer accounts than the instruction needs */
#define STAKE_LOCK_ERR_MISSING_SIGNATURE 8194ULL /* a required signer did not sign */
#define STAKE_LOCK_ERR_WRONG_PDA 8195ULL /* an account is not the expected PDA of this program */
#define STAKE_LOCK_ERR_ALREADY_INITIALIZED 8196ULL /* the config already exists */
#define STAKE_LOCK_ERR_NOT_INITIALIZED 8197ULL /* the config account is missing or not this program's */
#define STAKE_LOCK_ERR_WRONG_TREASURY 8198ULL /* treasury is not the configured treasury */
#define STAKE_LOCK_ERR_WRONG_MINT 8199ULL /* a token account is not of the configured USDC mint */
#define STAKE_LOCK_ERR_INSUFFICIENT_USDC 8200ULL /* the owner's USDC account holds less than the amount */
#define STAKE_LOCK_ERR_NOT_IDENTITY_OWNER 8201ULL /* the signer does not own the agent's identity NFT */
#define STAKE_LOCK_ERR_WRONG_PROGRAM 8202ULL /* a program account is not the expected program */
#define STAKE_LOCK_ERR_WRONG_VAULT 8203ULL /* vault or vault authority is not the configured one */
#define STAKE_LOCK_ERR_BELOW_MIN_STAKE 8204ULL /* amount is below MIN_STAKE */
#define STAKE_LOCK_ERR_ALREADY_LOCKED 8205ULL /* a stake is already locked for this agent */
#define STAKE_LOCK_ERR_NOT_LOCKED 8206ULL /* the stake is not locked */
#define STAKE_LOCK_ERR_STILL_LEASED 8207ULL /* the agent's lease is not deactivated */
#define STAKE_LOCK_ERR_WRONG_LEASE_ACCOUNT 8208ULL /* the lease account is not the lease program's PDA for this agent */
#define STAKE_LOCK_ERR_NOT_UNLOCKING 8209ULL /* no unlock was queued */
#define STAKE_LOCK_ERR_UNLOCK_DELAY_NOT_ELAPSED 8210ULL /* UNLOCK_DELAY_SLOTS have not passed since queue_unlock */
#define STAKE_LOCK_ERR_PENDING_CHALLENGE 8211ULL /* a challenge against the agent is pending */
#define STAKE_LOCK_ERR_WRONG_CHALLENGE_ACCOUNT 8212ULL /* agent_challenges is not the challenge program's PDA for this agent */
#define STAKE_LOCK_ERR_ALREADY_CLAIMED 8213ULL /* the stake was already claimed */
#define STAKE_LOCK_ERR_NOT_SLASHER 8214ULL /* the signer is not the challenge program's slasher PDA */
#define STAKE_LOCK_ERR_NO_STAKE 8215ULL /* no stake account, or nothing left to slash */
#define STAKE_LOCK_ERR_NOT_WRITABLE 8216ULL /* an account that must be writable is not */
#define STAKE_LOCK_ERR_NOT_AN_AGENT 8217ULL /* agent is not a Token-2022 mint with decimals 0 and supply 1 */
#define STAKE_LOCK_ERR_NOT_SATI_AGENT 8218ULL /* the agent is not a registered SATI agent (no TokenGroupMember of SATI's group, or its AgentIndex does not hold it) */
#define STAKE_LOCK_ERR_WRONG_SATI_ACCOUNT 8219ULL /* sati_registry or agent_index is not the configured SATI program's account */

#endif /* ZX_GEN_STAKE_LOCK_H */
