/* Generated from programs/behavior_log/program.json by programs/tools/gen.ts. Do not edit. */
#ifndef ZX_GEN_BEHAVIOR_LOG_H
#define ZX_GEN_BEHAVIOR_LOG_H
#include "zerox1.h"
#include "ids.h"
#include "constants.h"

/* ---- PDA seeds ---- */
#define BEHAVIOR_LOG_SEED_CONFIG "config"
#define BEHAVIOR_LOG_SEED_BATCH "batch"

/* ---- Accounts ---- */
/* Program configuration, PDA [b"config"] */
#define BEHAVIOR_LOG_CONFIG_DISC 0x82ccfa1ee0aa0c9bULL
typedef struct {
  uint64_t discriminator;
  SolPubkey admin;
  SolPubkey usdc_mint;
  SolPubkey treasury;
  uint64_t epoch_seconds;
  uint8_t bump;
  uint8_t pad[7];
} behavior_log_Config;
_Static_assert(sizeof(behavior_log_Config) == 120, "behavior_log_Config size");
_Static_assert(__builtin_offsetof(behavior_log_Config, discriminator) == 0, "behavior_log_Config.discriminator");
_Static_assert(__builtin_offsetof(behavior_log_Config, admin) == 8, "behavior_log_Config.admin");
_Static_assert(__builtin_offsetof(behavior_log_Config, usdc_mint) == 40, "behavior_log_Config.usdc_mint");
_Static_assert(__builtin_offsetof(behavior_log_Config, treasury) == 72, "behavior_log_Config.treasury");
_Static_assert(__builtin_offsetof(behavior_log_Config, epoch_seconds) == 104, "behavior_log_Config.epoch_seconds");
_Static_assert(__builtin_offsetof(behavior_log_Config, bump) == 112, "behavior_log_Config.bump");
_Static_assert(__builtin_offsetof(behavior_log_Config, pad) == 113, "behavior_log_Config.pad");

/* An agent's committed BehaviorBatch for one epoch, PDA [b"batch", agent, epoch u64 LE] */
#define BEHAVIOR_LOG_BATCH_ACCOUNT_DISC 0x4365edb463368381ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey agent;
  SolPubkey signer;
  uint64_t epoch;
  uint8_t batch_hash[32];
  uint8_t log_merkle_root[32];
  uint64_t submitted_slot;
  uint64_t message_count;
  uint32_t bid_count;
  uint32_t task_count;
  uint32_t verifier_count;
  uint32_t feedback_count;
  uint8_t overflow;
  uint8_t bump;
  uint8_t pad[6];
} behavior_log_BatchAccount;
_Static_assert(sizeof(behavior_log_BatchAccount) == 184, "behavior_log_BatchAccount size");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, discriminator) == 0, "behavior_log_BatchAccount.discriminator");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, agent) == 8, "behavior_log_BatchAccount.agent");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, signer) == 40, "behavior_log_BatchAccount.signer");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, epoch) == 72, "behavior_log_BatchAccount.epoch");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, batch_hash) == 80, "behavior_log_BatchAccount.batch_hash");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, log_merkle_root) == 112, "behavior_log_BatchAccount.log_merkle_root");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, submitted_slot) == 144, "behavior_log_BatchAccount.submitted_slot");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, message_count) == 152, "behavior_log_BatchAccount.message_count");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, bid_count) == 160, "behavior_log_BatchAccount.bid_count");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, task_count) == 164, "behavior_log_BatchAccount.task_count");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, verifier_count) == 168, "behavior_log_BatchAccount.verifier_count");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, feedback_count) == 172, "behavior_log_BatchAccount.feedback_count");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, overflow) == 176, "behavior_log_BatchAccount.overflow");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, bump) == 177, "behavior_log_BatchAccount.bump");
_Static_assert(__builtin_offsetof(behavior_log_BatchAccount, pad) == 178, "behavior_log_BatchAccount.pad");

/* ---- Events (emitted whole with sol_log_data) ---- */
#define BEHAVIOR_LOG_EV_INITIALIZED_DISC 0xd1c952736273d5d0ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey admin;
  SolPubkey usdc_mint;
  SolPubkey treasury;
  uint64_t epoch_seconds;
} behavior_log_ev_Initialized;
_Static_assert(sizeof(behavior_log_ev_Initialized) == 112, "behavior_log_ev_Initialized size");
_Static_assert(__builtin_offsetof(behavior_log_ev_Initialized, discriminator) == 0, "behavior_log_ev_Initialized.discriminator");
_Static_assert(__builtin_offsetof(behavior_log_ev_Initialized, admin) == 8, "behavior_log_ev_Initialized.admin");
_Static_assert(__builtin_offsetof(behavior_log_ev_Initialized, usdc_mint) == 40, "behavior_log_ev_Initialized.usdc_mint");
_Static_assert(__builtin_offsetof(behavior_log_ev_Initialized, treasury) == 72, "behavior_log_ev_Initialized.treasury");
_Static_assert(__builtin_offsetof(behavior_log_ev_Initialized, epoch_seconds) == 104, "behavior_log_ev_Initialized.epoch_seconds");

#define BEHAVIOR_LOG_EV_BATCH_SUBMITTED_DISC 0x5ae1fd8869103790ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey agent;
  SolPubkey signer;
  SolPubkey batch;
  uint64_t epoch;
  uint8_t batch_hash[32];
  uint8_t log_merkle_root[32];
  uint64_t slot;
  uint64_t message_count;
  uint32_t bid_count;
  uint32_t task_count;
  uint32_t verifier_count;
  uint32_t feedback_count;
  uint8_t overflow;
  uint8_t pad[7];
} behavior_log_ev_BatchSubmitted;
_Static_assert(sizeof(behavior_log_ev_BatchSubmitted) == 216, "behavior_log_ev_BatchSubmitted size");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, discriminator) == 0, "behavior_log_ev_BatchSubmitted.discriminator");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, agent) == 8, "behavior_log_ev_BatchSubmitted.agent");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, signer) == 40, "behavior_log_ev_BatchSubmitted.signer");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, batch) == 72, "behavior_log_ev_BatchSubmitted.batch");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, epoch) == 104, "behavior_log_ev_BatchSubmitted.epoch");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, batch_hash) == 112, "behavior_log_ev_BatchSubmitted.batch_hash");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, log_merkle_root) == 144, "behavior_log_ev_BatchSubmitted.log_merkle_root");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, slot) == 176, "behavior_log_ev_BatchSubmitted.slot");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, message_count) == 184, "behavior_log_ev_BatchSubmitted.message_count");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, bid_count) == 192, "behavior_log_ev_BatchSubmitted.bid_count");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, task_count) == 196, "behavior_log_ev_BatchSubmitted.task_count");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, verifier_count) == 200, "behavior_log_ev_BatchSubmitted.verifier_count");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, feedback_count) == 204, "behavior_log_ev_BatchSubmitted.feedback_count");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, overflow) == 208, "behavior_log_ev_BatchSubmitted.overflow");
_Static_assert(__builtin_offsetof(behavior_log_ev_BatchSubmitted, pad) == 209, "behavior_log_ev_BatchSubmitted.pad");

/* ---- Instructions ---- */
/* Creates the Config PDA (once). */
#define BEHAVIOR_LOG_IX_INITIALIZE 0
#define BEHAVIOR_LOG_INITIALIZE_NACCOUNTS 3
#define BEHAVIOR_LOG_INITIALIZE_ACC_ADMIN 0
#define BEHAVIOR_LOG_INITIALIZE_ACC_CONFIG 1
#define BEHAVIOR_LOG_INITIALIZE_ACC_SYSTEM_PROGRAM 2
typedef struct __attribute__((packed)) {
  uint8_t tag;
  SolPubkey usdc_mint;
  SolPubkey treasury;
  uint64_t epoch_seconds;
} behavior_log_initialize_ix;
_Static_assert(sizeof(behavior_log_initialize_ix) == 73, "behavior_log_initialize_ix size");
_Static_assert(__builtin_offsetof(behavior_log_initialize_ix, tag) == 0, "behavior_log_initialize_ix.tag");
_Static_assert(__builtin_offsetof(behavior_log_initialize_ix, usdc_mint) == 1, "behavior_log_initialize_ix.usdc_mint");
_Static_assert(__builtin_offsetof(behavior_log_initialize_ix, treasury) == 33, "behavior_log_initialize_ix.treasury");
_Static_assert(__builtin_offsetof(behavior_log_initialize_ix, epoch_seconds) == 65, "behavior_log_initialize_ix.epoch_seconds");

/* Creates the BatchAccount for (agent, epoch). An earlier Ed25519 program instruction of the same transaction must verify the identity owner's signature over batch_hash. epoch <= current epoch <= epoch + 1. */
#define BEHAVIOR_LOG_IX_SUBMIT_BATCH 1
#define BEHAVIOR_LOG_SUBMIT_BATCH_NACCOUNTS 6
#define BEHAVIOR_LOG_SUBMIT_BATCH_ACC_PAYER 0
#define BEHAVIOR_LOG_SUBMIT_BATCH_ACC_IDENTITY 1
#define BEHAVIOR_LOG_SUBMIT_BATCH_ACC_CONFIG 2
#define BEHAVIOR_LOG_SUBMIT_BATCH_ACC_BATCH 3
#define BEHAVIOR_LOG_SUBMIT_BATCH_ACC_INSTRUCTIONS 4
#define BEHAVIOR_LOG_SUBMIT_BATCH_ACC_SYSTEM_PROGRAM 5
typedef struct __attribute__((packed)) {
  uint8_t tag;
  uint64_t epoch;
  uint8_t batch_hash[32];
  uint8_t log_merkle_root[32];
  uint64_t message_count;
  uint32_t bid_count;
  uint32_t task_count;
  uint32_t verifier_count;
  uint32_t feedback_count;
  uint8_t overflow;
  uint8_t bump;
} behavior_log_submit_batch_ix;
_Static_assert(sizeof(behavior_log_submit_batch_ix) == 99, "behavior_log_submit_batch_ix size");
_Static_assert(__builtin_offsetof(behavior_log_submit_batch_ix, tag) == 0, "behavior_log_submit_batch_ix.tag");
_Static_assert(__builtin_offsetof(behavior_log_submit_batch_ix, epoch) == 1, "behavior_log_submit_batch_ix.epoch");
_Static_assert(__builtin_offsetof(behavior_log_submit_batch_ix, batch_hash) == 9, "behavior_log_submit_batch_ix.batch_hash");
_Static_assert(__builtin_offsetof(behavior_log_submit_batch_ix, log_merkle_root) == 41, "behavior_log_submit_batch_ix.log_merkle_root");
_Static_assert(__builtin_offsetof(behavior_log_submit_batch_ix, message_count) == 73, "behavior_log_submit_batch_ix.message_count");
_Static_assert(__builtin_offsetof(behavior_log_submit_batch_ix, bid_count) == 81, "behavior_log_submit_batch_ix.bid_count");
_Static_assert(__builtin_offsetof(behavior_log_submit_batch_ix, task_count) == 85, "behavior_log_submit_batch_ix.task_count");
_Static_assert(__builtin_offsetof(behavior_log_submit_batch_ix, verifier_count) == 89, "behavior_log_submit_batch_ix.verifier_count");
_Static_assert(__builtin_offsetof(behavior_log_submit_batch_ix, feedback_count) == 93, "behavior_log_submit_batch_ix.feedback_count");
_Static_assert(__builtin_offsetof(behavior_log_submit_batch_ix, overflow) == 97, "behavior_log_submit_batch_ix.overflow");
_Static_assert(__builtin_offsetof(behavior_log_submit_batch_ix, bump) == 98, "behavior_log_submit_batch_ix.bump");

/* ---- Errors (custom program error codes) ---- */
#define BEHAVIOR_LOG_ERR_ALREADY_INITIALIZED 12289ULL /* config already exists */
#define BEHAVIOR_LOG_ERR_BAD_CONFIG 12290ULL /* config account is not this program's initialized config PDA */
#define BEHAVIOR_LOG_ERR_BAD_PDA 12291ULL /* account is not the expected PDA */
#define BEHAVIOR_LOG_ERR_NOT_IDENTITY_OWNER 12292ULL /* identity account is not a Token-2022 account holding 1 of the agent mint */
#define BEHAVIOR_LOG_ERR_BATCH_EXISTS 12293ULL /* a batch for this agent and epoch was already submitted */
#define BEHAVIOR_LOG_ERR_BAD_SIGNATURE 12294ULL /* no Ed25519 program instruction verifies the identity owner's signature over batch_hash */
#define BEHAVIOR_LOG_ERR_EPOCH_IN_FUTURE 12295ULL /* batch epoch is after the current epoch */
#define BEHAVIOR_LOG_ERR_EPOCH_TOO_LATE 12296ULL /* batch submitted more than one epoch after its epoch */
#define BEHAVIOR_LOG_ERR_BAD_ACCOUNT 12297ULL /* wrong program or sysvar account */
#define BEHAVIOR_LOG_ERR_BAD_ARGUMENT 12298ULL /* invalid instruction data or argument */
#define BEHAVIOR_LOG_ERR_MISSING_SIGNER 12299ULL /* a required signer did not sign */

#endif /* ZX_GEN_BEHAVIOR_LOG_H */
