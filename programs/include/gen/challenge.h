/* Generated from programs/challenge/program.json by programs/tools/gen.ts. Do not edit. */
#ifndef ZX_GEN_CHALLENGE_H
#define ZX_GEN_CHALLENGE_H
#include "zerox1.h"
#include "ids.h"
#include "constants.h"

/* ---- PDA seeds ---- */
#define CHALLENGE_SEED_CONFIG "config"
#define CHALLENGE_SEED_VAULT "vault"
#define CHALLENGE_SEED_SLASHER "slasher"
#define CHALLENGE_SEED_AGENT "agent"
#define CHALLENGE_SEED_CHALLENGE "challenge"

/* ---- Accounts ---- */
/* Program configuration, PDA [b"config"]; also the authority of the stake vault */
#define CHALLENGE_CONFIG_DISC 0x82ccfa1ee0aa0c9bULL
typedef struct {
  uint64_t discriminator;
  SolPubkey admin;
  SolPubkey usdc_mint;
  SolPubkey treasury;
  uint64_t epoch_seconds;
  SolPubkey vault;
  uint8_t bump;
  uint8_t vault_bump;
  uint8_t slasher_bump;
  uint8_t pad[5];
} challenge_Config;
_Static_assert(sizeof(challenge_Config) == 152, "challenge_Config size");
_Static_assert(__builtin_offsetof(challenge_Config, discriminator) == 0, "challenge_Config.discriminator");
_Static_assert(__builtin_offsetof(challenge_Config, admin) == 8, "challenge_Config.admin");
_Static_assert(__builtin_offsetof(challenge_Config, usdc_mint) == 40, "challenge_Config.usdc_mint");
_Static_assert(__builtin_offsetof(challenge_Config, treasury) == 72, "challenge_Config.treasury");
_Static_assert(__builtin_offsetof(challenge_Config, epoch_seconds) == 104, "challenge_Config.epoch_seconds");
_Static_assert(__builtin_offsetof(challenge_Config, vault) == 112, "challenge_Config.vault");
_Static_assert(__builtin_offsetof(challenge_Config, bump) == 144, "challenge_Config.bump");
_Static_assert(__builtin_offsetof(challenge_Config, vault_bump) == 145, "challenge_Config.vault_bump");
_Static_assert(__builtin_offsetof(challenge_Config, slasher_bump) == 146, "challenge_Config.slasher_bump");
_Static_assert(__builtin_offsetof(challenge_Config, pad) == 147, "challenge_Config.pad");

/* Per-agent challenge counters, PDA [b"agent", agent]; stake_lock.claim_stake requires pending == 0 */
#define CHALLENGE_AGENT_CHALLENGES_DISC 0xe422cb01a6b0dea4ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey agent;
  uint32_t pending;
  uint32_t total;
  uint32_t upheld;
  uint8_t bump;
  uint8_t pad[3];
} challenge_AgentChallenges;
_Static_assert(sizeof(challenge_AgentChallenges) == 56, "challenge_AgentChallenges size");
_Static_assert(__builtin_offsetof(challenge_AgentChallenges, discriminator) == 0, "challenge_AgentChallenges.discriminator");
_Static_assert(__builtin_offsetof(challenge_AgentChallenges, agent) == 8, "challenge_AgentChallenges.agent");
_Static_assert(__builtin_offsetof(challenge_AgentChallenges, pending) == 40, "challenge_AgentChallenges.pending");
_Static_assert(__builtin_offsetof(challenge_AgentChallenges, total) == 44, "challenge_AgentChallenges.total");
_Static_assert(__builtin_offsetof(challenge_AgentChallenges, upheld) == 48, "challenge_AgentChallenges.upheld");
_Static_assert(__builtin_offsetof(challenge_AgentChallenges, bump) == 52, "challenge_AgentChallenges.bump");
_Static_assert(__builtin_offsetof(challenge_AgentChallenges, pad) == 53, "challenge_AgentChallenges.pad");

/* One challenge of a batch by a challenger, PDA [b"challenge", batch, challenger]; status 0 pending, 1 upheld (slashed), 2 rejected, 3 void (overflowed batch), 4 expired */
#define CHALLENGE_CHALLENGE_DISC 0xd016517779a1fa77ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey challenger;
  SolPubkey challenger_usdc;
  SolPubkey batch;
  SolPubkey agent;
  uint64_t epoch;
  uint8_t leaf[32];
  uint64_t submitted_slot;
  uint64_t resolved_slot;
  uint64_t stake;
  uint8_t status;
  uint8_t reason;
  uint8_t bump;
  uint8_t pad[5];
} challenge_Challenge;
_Static_assert(sizeof(challenge_Challenge) == 208, "challenge_Challenge size");
_Static_assert(__builtin_offsetof(challenge_Challenge, discriminator) == 0, "challenge_Challenge.discriminator");
_Static_assert(__builtin_offsetof(challenge_Challenge, challenger) == 8, "challenge_Challenge.challenger");
_Static_assert(__builtin_offsetof(challenge_Challenge, challenger_usdc) == 40, "challenge_Challenge.challenger_usdc");
_Static_assert(__builtin_offsetof(challenge_Challenge, batch) == 72, "challenge_Challenge.batch");
_Static_assert(__builtin_offsetof(challenge_Challenge, agent) == 104, "challenge_Challenge.agent");
_Static_assert(__builtin_offsetof(challenge_Challenge, epoch) == 136, "challenge_Challenge.epoch");
_Static_assert(__builtin_offsetof(challenge_Challenge, leaf) == 144, "challenge_Challenge.leaf");
_Static_assert(__builtin_offsetof(challenge_Challenge, submitted_slot) == 176, "challenge_Challenge.submitted_slot");
_Static_assert(__builtin_offsetof(challenge_Challenge, resolved_slot) == 184, "challenge_Challenge.resolved_slot");
_Static_assert(__builtin_offsetof(challenge_Challenge, stake) == 192, "challenge_Challenge.stake");
_Static_assert(__builtin_offsetof(challenge_Challenge, status) == 200, "challenge_Challenge.status");
_Static_assert(__builtin_offsetof(challenge_Challenge, reason) == 201, "challenge_Challenge.reason");
_Static_assert(__builtin_offsetof(challenge_Challenge, bump) == 202, "challenge_Challenge.bump");
_Static_assert(__builtin_offsetof(challenge_Challenge, pad) == 203, "challenge_Challenge.pad");

/* Staging account created by the client (System createAccount, owner = challenge) and written in chunks; data after this header: u32 entry_len, entry, u32 payload_len, payload, u32 leaf_index, u8 depth, depth x 32-byte siblings, then the batch's canonical CBOR up to len */
#define CHALLENGE_BUFFER_DISC 0x292e1e55c0d40573ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey authority;
  uint32_t len;
  uint8_t pad[4];
} challenge_Buffer;
_Static_assert(sizeof(challenge_Buffer) == 48, "challenge_Buffer size");
_Static_assert(__builtin_offsetof(challenge_Buffer, discriminator) == 0, "challenge_Buffer.discriminator");
_Static_assert(__builtin_offsetof(challenge_Buffer, authority) == 8, "challenge_Buffer.authority");
_Static_assert(__builtin_offsetof(challenge_Buffer, len) == 40, "challenge_Buffer.len");
_Static_assert(__builtin_offsetof(challenge_Buffer, pad) == 44, "challenge_Buffer.pad");

/* ---- Events (emitted whole with sol_log_data) ---- */
#define CHALLENGE_EV_INITIALIZED_DISC 0xd1c952736273d5d0ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey admin;
  SolPubkey usdc_mint;
  SolPubkey treasury;
  SolPubkey vault;
  uint64_t epoch_seconds;
} challenge_ev_Initialized;
_Static_assert(sizeof(challenge_ev_Initialized) == 144, "challenge_ev_Initialized size");
_Static_assert(__builtin_offsetof(challenge_ev_Initialized, discriminator) == 0, "challenge_ev_Initialized.discriminator");
_Static_assert(__builtin_offsetof(challenge_ev_Initialized, admin) == 8, "challenge_ev_Initialized.admin");
_Static_assert(__builtin_offsetof(challenge_ev_Initialized, usdc_mint) == 40, "challenge_ev_Initialized.usdc_mint");
_Static_assert(__builtin_offsetof(challenge_ev_Initialized, treasury) == 72, "challenge_ev_Initialized.treasury");
_Static_assert(__builtin_offsetof(challenge_ev_Initialized, vault) == 104, "challenge_ev_Initialized.vault");
_Static_assert(__builtin_offsetof(challenge_ev_Initialized, epoch_seconds) == 136, "challenge_ev_Initialized.epoch_seconds");

#define CHALLENGE_EV_BUFFER_INITIALIZED_DISC 0x349b66d831980fa1ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey buffer;
  SolPubkey authority;
  uint32_t len;
  uint8_t pad[4];
} challenge_ev_BufferInitialized;
_Static_assert(sizeof(challenge_ev_BufferInitialized) == 80, "challenge_ev_BufferInitialized size");
_Static_assert(__builtin_offsetof(challenge_ev_BufferInitialized, discriminator) == 0, "challenge_ev_BufferInitialized.discriminator");
_Static_assert(__builtin_offsetof(challenge_ev_BufferInitialized, buffer) == 8, "challenge_ev_BufferInitialized.buffer");
_Static_assert(__builtin_offsetof(challenge_ev_BufferInitialized, authority) == 40, "challenge_ev_BufferInitialized.authority");
_Static_assert(__builtin_offsetof(challenge_ev_BufferInitialized, len) == 72, "challenge_ev_BufferInitialized.len");
_Static_assert(__builtin_offsetof(challenge_ev_BufferInitialized, pad) == 76, "challenge_ev_BufferInitialized.pad");

#define CHALLENGE_EV_BUFFER_WRITTEN_DISC 0xc3568a4ff2da00e4ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey buffer;
  uint32_t offset;
  uint32_t len;
} challenge_ev_BufferWritten;
_Static_assert(sizeof(challenge_ev_BufferWritten) == 48, "challenge_ev_BufferWritten size");
_Static_assert(__builtin_offsetof(challenge_ev_BufferWritten, discriminator) == 0, "challenge_ev_BufferWritten.discriminator");
_Static_assert(__builtin_offsetof(challenge_ev_BufferWritten, buffer) == 8, "challenge_ev_BufferWritten.buffer");
_Static_assert(__builtin_offsetof(challenge_ev_BufferWritten, offset) == 40, "challenge_ev_BufferWritten.offset");
_Static_assert(__builtin_offsetof(challenge_ev_BufferWritten, len) == 44, "challenge_ev_BufferWritten.len");

#define CHALLENGE_EV_BUFFER_CLOSED_DISC 0xf72d1ca98ee8dcc7ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey buffer;
  SolPubkey authority;
} challenge_ev_BufferClosed;
_Static_assert(sizeof(challenge_ev_BufferClosed) == 72, "challenge_ev_BufferClosed size");
_Static_assert(__builtin_offsetof(challenge_ev_BufferClosed, discriminator) == 0, "challenge_ev_BufferClosed.discriminator");
_Static_assert(__builtin_offsetof(challenge_ev_BufferClosed, buffer) == 8, "challenge_ev_BufferClosed.buffer");
_Static_assert(__builtin_offsetof(challenge_ev_BufferClosed, authority) == 40, "challenge_ev_BufferClosed.authority");

#define CHALLENGE_EV_CHALLENGE_SUBMITTED_DISC 0x84a14d08d1ed0383ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey challenge;
  SolPubkey challenger;
  SolPubkey agent;
  SolPubkey batch;
  uint64_t epoch;
  uint8_t leaf[32];
  uint64_t stake;
  uint64_t slot;
  uint32_t pending;
  uint8_t pad[4];
} challenge_ev_ChallengeSubmitted;
_Static_assert(sizeof(challenge_ev_ChallengeSubmitted) == 200, "challenge_ev_ChallengeSubmitted size");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeSubmitted, discriminator) == 0, "challenge_ev_ChallengeSubmitted.discriminator");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeSubmitted, challenge) == 8, "challenge_ev_ChallengeSubmitted.challenge");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeSubmitted, challenger) == 40, "challenge_ev_ChallengeSubmitted.challenger");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeSubmitted, agent) == 72, "challenge_ev_ChallengeSubmitted.agent");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeSubmitted, batch) == 104, "challenge_ev_ChallengeSubmitted.batch");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeSubmitted, epoch) == 136, "challenge_ev_ChallengeSubmitted.epoch");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeSubmitted, leaf) == 144, "challenge_ev_ChallengeSubmitted.leaf");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeSubmitted, stake) == 176, "challenge_ev_ChallengeSubmitted.stake");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeSubmitted, slot) == 184, "challenge_ev_ChallengeSubmitted.slot");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeSubmitted, pending) == 192, "challenge_ev_ChallengeSubmitted.pending");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeSubmitted, pad) == 196, "challenge_ev_ChallengeSubmitted.pad");

#define CHALLENGE_EV_CHALLENGE_RESOLVED_DISC 0x69a6faac7b269964ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey challenge;
  SolPubkey challenger;
  SolPubkey agent;
  SolPubkey batch;
  uint64_t epoch;
  uint64_t slot;
  uint64_t stake_returned;
  uint64_t stake_to_treasury;
  uint32_t pending;
  uint8_t status;
  uint8_t reason;
  uint8_t pad[2];
} challenge_ev_ChallengeResolved;
_Static_assert(sizeof(challenge_ev_ChallengeResolved) == 176, "challenge_ev_ChallengeResolved size");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeResolved, discriminator) == 0, "challenge_ev_ChallengeResolved.discriminator");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeResolved, challenge) == 8, "challenge_ev_ChallengeResolved.challenge");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeResolved, challenger) == 40, "challenge_ev_ChallengeResolved.challenger");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeResolved, agent) == 72, "challenge_ev_ChallengeResolved.agent");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeResolved, batch) == 104, "challenge_ev_ChallengeResolved.batch");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeResolved, epoch) == 136, "challenge_ev_ChallengeResolved.epoch");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeResolved, slot) == 144, "challenge_ev_ChallengeResolved.slot");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeResolved, stake_returned) == 152, "challenge_ev_ChallengeResolved.stake_returned");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeResolved, stake_to_treasury) == 160, "challenge_ev_ChallengeResolved.stake_to_treasury");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeResolved, pending) == 168, "challenge_ev_ChallengeResolved.pending");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeResolved, status) == 172, "challenge_ev_ChallengeResolved.status");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeResolved, reason) == 173, "challenge_ev_ChallengeResolved.reason");
_Static_assert(__builtin_offsetof(challenge_ev_ChallengeResolved, pad) == 174, "challenge_ev_ChallengeResolved.pad");

/* ---- Instructions ---- */
/* Creates the Config PDA and the stake vault (SPL Token account PDA [b"vault"] owned by the config PDA). */
#define CHALLENGE_IX_INITIALIZE 0
#define CHALLENGE_INITIALIZE_NACCOUNTS 6
#define CHALLENGE_INITIALIZE_ACC_ADMIN 0
#define CHALLENGE_INITIALIZE_ACC_CONFIG 1
#define CHALLENGE_INITIALIZE_ACC_USDC_MINT 2
#define CHALLENGE_INITIALIZE_ACC_VAULT 3
#define CHALLENGE_INITIALIZE_ACC_TOKEN_PROGRAM 4
#define CHALLENGE_INITIALIZE_ACC_SYSTEM_PROGRAM 5
typedef struct __attribute__((packed)) {
  uint8_t tag;
  SolPubkey treasury;
  uint64_t epoch_seconds;
} challenge_initialize_ix;
_Static_assert(sizeof(challenge_initialize_ix) == 41, "challenge_initialize_ix size");
_Static_assert(__builtin_offsetof(challenge_initialize_ix, tag) == 0, "challenge_initialize_ix.tag");
_Static_assert(__builtin_offsetof(challenge_initialize_ix, treasury) == 1, "challenge_initialize_ix.treasury");
_Static_assert(__builtin_offsetof(challenge_initialize_ix, epoch_seconds) == 33, "challenge_initialize_ix.epoch_seconds");

/* Claims a zeroed account owned by this program (created by the client, space >= 48 + len) as a buffer of len bytes. */
#define CHALLENGE_IX_INIT_BUFFER 1
#define CHALLENGE_INIT_BUFFER_NACCOUNTS 2
#define CHALLENGE_INIT_BUFFER_ACC_AUTHORITY 0
#define CHALLENGE_INIT_BUFFER_ACC_BUFFER 1
typedef struct __attribute__((packed)) {
  uint8_t tag;
  uint32_t len;
} challenge_init_buffer_ix;
_Static_assert(sizeof(challenge_init_buffer_ix) == 5, "challenge_init_buffer_ix size");
_Static_assert(__builtin_offsetof(challenge_init_buffer_ix, tag) == 0, "challenge_init_buffer_ix.tag");
_Static_assert(__builtin_offsetof(challenge_init_buffer_ix, len) == 1, "challenge_init_buffer_ix.len");

/* Writes the bytes that follow the args (instruction data tail) at offset. */
#define CHALLENGE_IX_WRITE_BUFFER 2
#define CHALLENGE_WRITE_BUFFER_NACCOUNTS 2
#define CHALLENGE_WRITE_BUFFER_ACC_AUTHORITY 0
#define CHALLENGE_WRITE_BUFFER_ACC_BUFFER 1
typedef struct __attribute__((packed)) {
  uint8_t tag;
  uint32_t offset;
} challenge_write_buffer_ix;
_Static_assert(sizeof(challenge_write_buffer_ix) == 5, "challenge_write_buffer_ix size");
_Static_assert(__builtin_offsetof(challenge_write_buffer_ix, tag) == 0, "challenge_write_buffer_ix.tag");
_Static_assert(__builtin_offsetof(challenge_write_buffer_ix, offset) == 1, "challenge_write_buffer_ix.offset");

/* Closes a buffer, its lamports to the authority. */
#define CHALLENGE_IX_CLOSE_BUFFER 3
#define CHALLENGE_CLOSE_BUFFER_NACCOUNTS 2
#define CHALLENGE_CLOSE_BUFFER_ACC_AUTHORITY 0
#define CHALLENGE_CLOSE_BUFFER_ACC_BUFFER 1
typedef struct {
  uint8_t tag;
} challenge_close_buffer_ix;
_Static_assert(sizeof(challenge_close_buffer_ix) == 1, "challenge_close_buffer_ix size");
_Static_assert(__builtin_offsetof(challenge_close_buffer_ix, tag) == 0, "challenge_close_buffer_ix.tag");

/* Challenges a batch within CHALLENGE_WINDOW_EPOCHS of its epoch, committing to one log entry (its merkle leaf), locking CHALLENGE_STAKE USDC; pending += 1. */
#define CHALLENGE_IX_SUBMIT_CHALLENGE 4
#define CHALLENGE_SUBMIT_CHALLENGE_NACCOUNTS 9
#define CHALLENGE_SUBMIT_CHALLENGE_ACC_CHALLENGER 0
#define CHALLENGE_SUBMIT_CHALLENGE_ACC_CHALLENGER_USDC 1
#define CHALLENGE_SUBMIT_CHALLENGE_ACC_CONFIG 2
#define CHALLENGE_SUBMIT_CHALLENGE_ACC_BATCH 3
#define CHALLENGE_SUBMIT_CHALLENGE_ACC_CHALLENGE 4
#define CHALLENGE_SUBMIT_CHALLENGE_ACC_AGENT_CHALLENGES 5
#define CHALLENGE_SUBMIT_CHALLENGE_ACC_VAULT 6
#define CHALLENGE_SUBMIT_CHALLENGE_ACC_TOKEN_PROGRAM 7
#define CHALLENGE_SUBMIT_CHALLENGE_ACC_SYSTEM_PROGRAM 8
typedef struct {
  uint8_t tag;
  uint8_t leaf[32];
} challenge_submit_challenge_ix;
_Static_assert(sizeof(challenge_submit_challenge_ix) == 33, "challenge_submit_challenge_ix size");
_Static_assert(__builtin_offsetof(challenge_submit_challenge_ix, tag) == 0, "challenge_submit_challenge_ix.tag");
_Static_assert(__builtin_offsetof(challenge_submit_challenge_ix, leaf) == 1, "challenge_submit_challenge_ix.leaf");

/* After the window, permissionless: checks the staged entry (leaf, merkle inclusion, Ed25519 signature by the batch signer), keccak(batch bytes) == batch_hash, and the contradiction; upheld → stake_lock.slash + stake back, rejected → stake to treasury; pending -= 1; the evidence buffer is closed, its rent to the challenger. */
#define CHALLENGE_IX_RESOLVE_CHALLENGE 5
#define CHALLENGE_RESOLVE_CHALLENGE_NACCOUNTS 17
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_CONFIG 0
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_CHALLENGE 1
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_BATCH 2
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_BUFFER 3
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_AGENT_CHALLENGES 4
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_VAULT 5
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_CHALLENGER_USDC 6
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_TREASURY 7
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_TOKEN_PROGRAM 8
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_INSTRUCTIONS 9
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_STAKE_LOCK_PROGRAM 10
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_SLASHER 11
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_STAKE_CONFIG 12
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_STAKE 13
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_STAKE_VAULT 14
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_STAKE_VAULT_AUTHORITY 15
#define CHALLENGE_RESOLVE_CHALLENGE_ACC_CHALLENGER 16
typedef struct {
  uint8_t tag;
} challenge_resolve_challenge_ix;
_Static_assert(sizeof(challenge_resolve_challenge_ix) == 1, "challenge_resolve_challenge_ix size");
_Static_assert(__builtin_offsetof(challenge_resolve_challenge_ix, tag) == 0, "challenge_resolve_challenge_ix.tag");

/* Permissionless, once 2 x CHALLENGE_WINDOW_EPOCHS have passed after the batch's epoch with the challenge still unresolved: the stake goes to the treasury; pending -= 1. */
#define CHALLENGE_IX_EXPIRE_CHALLENGE 6
#define CHALLENGE_EXPIRE_CHALLENGE_NACCOUNTS 6
#define CHALLENGE_EXPIRE_CHALLENGE_ACC_CONFIG 0
#define CHALLENGE_EXPIRE_CHALLENGE_ACC_CHALLENGE 1
#define CHALLENGE_EXPIRE_CHALLENGE_ACC_AGENT_CHALLENGES 2
#define CHALLENGE_EXPIRE_CHALLENGE_ACC_VAULT 3
#define CHALLENGE_EXPIRE_CHALLENGE_ACC_TREASURY 4
#define CHALLENGE_EXPIRE_CHALLENGE_ACC_TOKEN_PROGRAM 5
typedef struct {
  uint8_t tag;
} challenge_expire_challenge_ix;
_Static_assert(sizeof(challenge_expire_challenge_ix) == 1, "challenge_expire_challenge_ix size");
_Static_assert(__builtin_offsetof(challenge_expire_challenge_ix, tag) == 0, "challenge_expire_challenge_ix.tag");

/* ---- Errors (custom program error codes) ---- */
#define CHALLENGE_ERR_ALREADY_INITIALIZED 16385ULL /* config already exists */
#define CHALLENGE_ERR_BAD_CONFIG 16386ULL /* config account is not this program's initialized config PDA */
#define CHALLENGE_ERR_BAD_PDA 16387ULL /* account is not the expected PDA */
#define CHALLENGE_ERR_BAD_ACCOUNT 16388ULL /* wrong program, sysvar, vault, treasury or token account */
#define CHALLENGE_ERR_BAD_ARGUMENT 16389ULL /* invalid instruction data or argument */
#define CHALLENGE_ERR_MISSING_SIGNER 16390ULL /* a required signer did not sign */
#define CHALLENGE_ERR_BAD_BUFFER 16391ULL /* not a buffer of this program, already initialized, or too small */
#define CHALLENGE_ERR_BUFFER_AUTHORITY 16392ULL /* signer is not the buffer's authority (or the challenger) */
#define CHALLENGE_ERR_BUFFER_RANGE 16393ULL /* write outside the buffer */
#define CHALLENGE_ERR_BAD_BATCH 16394ULL /* not a behavior_log BatchAccount */
#define CHALLENGE_ERR_WINDOW_CLOSED 16395ULL /* the challenge window of this batch has closed */
#define CHALLENGE_ERR_CHALLENGE_EXISTS 16396ULL /* this challenger already challenged this batch */
#define CHALLENGE_ERR_INSUFFICIENT_USDC 16397ULL /* the challenger's USDC account cannot pay CHALLENGE_STAKE */
#define CHALLENGE_ERR_WINDOW_OPEN 16398ULL /* the challenge window is still open: resolve after it */
#define CHALLENGE_ERR_NOT_PENDING 16399ULL /* the challenge is already resolved or expired */
#define CHALLENGE_ERR_BAD_EVIDENCE 16400ULL /* the buffer's evidence section is malformed */
#define CHALLENGE_ERR_LEAF_MISMATCH 16401ULL /* keccak(entry) is not the leaf the challenge committed to */
#define CHALLENGE_ERR_BAD_PROOF 16402ULL /* the merkle proof does not lead to the batch's log_merkle_root */
#define CHALLENGE_ERR_BAD_ENTRY 16403ULL /* the log entry is not a canonical 12-item envelope array */
#define CHALLENGE_ERR_BAD_ENTRY_SIGNATURE 16404ULL /* no Ed25519 program instruction verifies the entry's signature by the batch signer */
#define CHALLENGE_ERR_PAYLOAD_MISMATCH 16405ULL /* the supplied payload does not match payload_hash / payload_len */
#define CHALLENGE_ERR_BUFFER_HASH_MISMATCH 16406ULL /* keccak(batch bytes in the buffer) != batch_hash */
#define CHALLENGE_ERR_NOT_EXPIRED 16407ULL /* the challenge can still be resolved */
#define CHALLENGE_ERR_SLASH_FAILED 16408ULL /* the stake_lock slash CPI failed */

#endif /* ZX_GEN_CHALLENGE_H */
