/* Generated from programs/lease/program.json by programs/tools/gen.ts. Do not edit. */
#ifndef ZX_GEN_LEASE_H
#define ZX_GEN_LEASE_H
#include "zerox1.h"
#include "ids.h"
#include "constants.h"

/* ---- PDA seeds ---- */
#define LEASE_SEED_CONFIG "config"
#define LEASE_SEED_LEASE "lease"

/* ---- Accounts ---- */
/* Config PDA [b"config"]. */
#define LEASE_LEASE_CONFIG_DISC 0xac53d344572b2f83ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey admin;
  SolPubkey usdc_mint;
  SolPubkey treasury;
  uint64_t epoch_seconds;
  uint8_t bump;
  uint8_t _pad[7];
} lease_LeaseConfig;
_Static_assert(sizeof(lease_LeaseConfig) == 120, "lease_LeaseConfig size");
_Static_assert(__builtin_offsetof(lease_LeaseConfig, discriminator) == 0, "lease_LeaseConfig.discriminator");
_Static_assert(__builtin_offsetof(lease_LeaseConfig, admin) == 8, "lease_LeaseConfig.admin");
_Static_assert(__builtin_offsetof(lease_LeaseConfig, usdc_mint) == 40, "lease_LeaseConfig.usdc_mint");
_Static_assert(__builtin_offsetof(lease_LeaseConfig, treasury) == 72, "lease_LeaseConfig.treasury");
_Static_assert(__builtin_offsetof(lease_LeaseConfig, epoch_seconds) == 104, "lease_LeaseConfig.epoch_seconds");
_Static_assert(__builtin_offsetof(lease_LeaseConfig, bump) == 112, "lease_LeaseConfig.bump");
_Static_assert(__builtin_offsetof(lease_LeaseConfig, _pad) == 113, "lease_LeaseConfig._pad");

/* Lease PDA [b"lease", agent]. status: 0 active, 1 grace, 2 deactivated. */
#define LEASE_LEASE_DISC 0x5469eaf83dda670eULL
typedef struct {
  uint64_t discriminator;
  SolPubkey agent;
  uint64_t paid_through_epoch;
  uint64_t last_tick_epoch;
  uint64_t created_epoch;
  uint64_t total_paid;
  uint8_t status;
  uint8_t bump;
  uint8_t _pad[6];
} lease_Lease;
_Static_assert(sizeof(lease_Lease) == 80, "lease_Lease size");
_Static_assert(__builtin_offsetof(lease_Lease, discriminator) == 0, "lease_Lease.discriminator");
_Static_assert(__builtin_offsetof(lease_Lease, agent) == 8, "lease_Lease.agent");
_Static_assert(__builtin_offsetof(lease_Lease, paid_through_epoch) == 40, "lease_Lease.paid_through_epoch");
_Static_assert(__builtin_offsetof(lease_Lease, last_tick_epoch) == 48, "lease_Lease.last_tick_epoch");
_Static_assert(__builtin_offsetof(lease_Lease, created_epoch) == 56, "lease_Lease.created_epoch");
_Static_assert(__builtin_offsetof(lease_Lease, total_paid) == 64, "lease_Lease.total_paid");
_Static_assert(__builtin_offsetof(lease_Lease, status) == 72, "lease_Lease.status");
_Static_assert(__builtin_offsetof(lease_Lease, bump) == 73, "lease_Lease.bump");
_Static_assert(__builtin_offsetof(lease_Lease, _pad) == 74, "lease_Lease._pad");

/* ---- Events (emitted whole with sol_log_data) ---- */
#define LEASE_EV_LEASE_INITIALIZED_DISC 0x9a45aa2f17dae950ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey admin;
  SolPubkey usdc_mint;
  SolPubkey treasury;
  uint64_t epoch_seconds;
} lease_ev_LeaseInitialized;
_Static_assert(sizeof(lease_ev_LeaseInitialized) == 112, "lease_ev_LeaseInitialized size");
_Static_assert(__builtin_offsetof(lease_ev_LeaseInitialized, discriminator) == 0, "lease_ev_LeaseInitialized.discriminator");
_Static_assert(__builtin_offsetof(lease_ev_LeaseInitialized, admin) == 8, "lease_ev_LeaseInitialized.admin");
_Static_assert(__builtin_offsetof(lease_ev_LeaseInitialized, usdc_mint) == 40, "lease_ev_LeaseInitialized.usdc_mint");
_Static_assert(__builtin_offsetof(lease_ev_LeaseInitialized, treasury) == 72, "lease_ev_LeaseInitialized.treasury");
_Static_assert(__builtin_offsetof(lease_ev_LeaseInitialized, epoch_seconds) == 104, "lease_ev_LeaseInitialized.epoch_seconds");

#define LEASE_EV_LEASE_PAID_DISC 0x6cffff7225cab14dULL
typedef struct {
  uint64_t discriminator;
  SolPubkey agent;
  SolPubkey payer;
  uint64_t amount;
  uint64_t epoch;
  uint64_t paid_through_epoch;
  uint32_t epochs;
  uint8_t prev_status;
  uint8_t status;
  uint8_t _pad[2];
} lease_ev_LeasePaid;
_Static_assert(sizeof(lease_ev_LeasePaid) == 104, "lease_ev_LeasePaid size");
_Static_assert(__builtin_offsetof(lease_ev_LeasePaid, discriminator) == 0, "lease_ev_LeasePaid.discriminator");
_Static_assert(__builtin_offsetof(lease_ev_LeasePaid, agent) == 8, "lease_ev_LeasePaid.agent");
_Static_assert(__builtin_offsetof(lease_ev_LeasePaid, payer) == 40, "lease_ev_LeasePaid.payer");
_Static_assert(__builtin_offsetof(lease_ev_LeasePaid, amount) == 72, "lease_ev_LeasePaid.amount");
_Static_assert(__builtin_offsetof(lease_ev_LeasePaid, epoch) == 80, "lease_ev_LeasePaid.epoch");
_Static_assert(__builtin_offsetof(lease_ev_LeasePaid, paid_through_epoch) == 88, "lease_ev_LeasePaid.paid_through_epoch");
_Static_assert(__builtin_offsetof(lease_ev_LeasePaid, epochs) == 96, "lease_ev_LeasePaid.epochs");
_Static_assert(__builtin_offsetof(lease_ev_LeasePaid, prev_status) == 100, "lease_ev_LeasePaid.prev_status");
_Static_assert(__builtin_offsetof(lease_ev_LeasePaid, status) == 101, "lease_ev_LeasePaid.status");
_Static_assert(__builtin_offsetof(lease_ev_LeasePaid, _pad) == 102, "lease_ev_LeasePaid._pad");

#define LEASE_EV_LEASE_TICKED_DISC 0xe3832640fe928680ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey agent;
  uint64_t epoch;
  uint64_t paid_through_epoch;
  uint8_t prev_status;
  uint8_t status;
  uint8_t _pad[6];
} lease_ev_LeaseTicked;
_Static_assert(sizeof(lease_ev_LeaseTicked) == 64, "lease_ev_LeaseTicked size");
_Static_assert(__builtin_offsetof(lease_ev_LeaseTicked, discriminator) == 0, "lease_ev_LeaseTicked.discriminator");
_Static_assert(__builtin_offsetof(lease_ev_LeaseTicked, agent) == 8, "lease_ev_LeaseTicked.agent");
_Static_assert(__builtin_offsetof(lease_ev_LeaseTicked, epoch) == 40, "lease_ev_LeaseTicked.epoch");
_Static_assert(__builtin_offsetof(lease_ev_LeaseTicked, paid_through_epoch) == 48, "lease_ev_LeaseTicked.paid_through_epoch");
_Static_assert(__builtin_offsetof(lease_ev_LeaseTicked, prev_status) == 56, "lease_ev_LeaseTicked.prev_status");
_Static_assert(__builtin_offsetof(lease_ev_LeaseTicked, status) == 57, "lease_ev_LeaseTicked.status");
_Static_assert(__builtin_offsetof(lease_ev_LeaseTicked, _pad) == 58, "lease_ev_LeaseTicked._pad");

/* ---- Instructions ---- */
/* Creates the Config PDA once: admin, USDC mint, treasury (a USDC token account), epoch length. */
#define LEASE_IX_INITIALIZE 0
#define LEASE_INITIALIZE_NACCOUNTS 5
#define LEASE_INITIALIZE_ACC_ADMIN 0
#define LEASE_INITIALIZE_ACC_CONFIG 1
#define LEASE_INITIALIZE_ACC_USDC_MINT 2
#define LEASE_INITIALIZE_ACC_TREASURY 3
#define LEASE_INITIALIZE_ACC_SYSTEM_PROGRAM 4
typedef struct __attribute__((packed)) {
  uint8_t tag;
  uint64_t epoch_seconds;
} lease_initialize_ix;
_Static_assert(sizeof(lease_initialize_ix) == 9, "lease_initialize_ix size");
_Static_assert(__builtin_offsetof(lease_initialize_ix, tag) == 0, "lease_initialize_ix.tag");
_Static_assert(__builtin_offsetof(lease_initialize_ix, epoch_seconds) == 1, "lease_initialize_ix.epoch_seconds");

/* Pays `epochs` epochs (LEASE_COST_PER_EPOCH each) to the treasury: creates the Lease on first payment (paid through the current epoch), else paid_through_epoch += epochs. Paying the back-lease reactivates. */
#define LEASE_IX_PAY_LEASE 1
#define LEASE_PAY_LEASE_NACCOUNTS 8
#define LEASE_PAY_LEASE_ACC_PAYER 0
#define LEASE_PAY_LEASE_ACC_CONFIG 1
#define LEASE_PAY_LEASE_ACC_LEASE 2
#define LEASE_PAY_LEASE_ACC_AGENT 3
#define LEASE_PAY_LEASE_ACC_PAYER_USDC 4
#define LEASE_PAY_LEASE_ACC_TREASURY 5
#define LEASE_PAY_LEASE_ACC_TOKEN_PROGRAM 6
#define LEASE_PAY_LEASE_ACC_SYSTEM_PROGRAM 7
typedef struct __attribute__((packed)) {
  uint8_t tag;
  uint32_t epochs;
} lease_pay_lease_ix;
_Static_assert(sizeof(lease_pay_lease_ix) == 5, "lease_pay_lease_ix size");
_Static_assert(__builtin_offsetof(lease_pay_lease_ix, tag) == 0, "lease_pay_lease_ix.tag");
_Static_assert(__builtin_offsetof(lease_pay_lease_ix, epochs) == 1, "lease_pay_lease_ix.epochs");

/* Permissionless: recomputes status for the current epoch (grace after a missed epoch, deactivated once more than GRACE_PERIOD_EPOCHS are unpaid; deactivation sticks until fully paid). */
#define LEASE_IX_TICK_LEASE 2
#define LEASE_TICK_LEASE_NACCOUNTS 2
#define LEASE_TICK_LEASE_ACC_CONFIG 0
#define LEASE_TICK_LEASE_ACC_LEASE 1
typedef struct {
  uint8_t tag;
} lease_tick_lease_ix;
_Static_assert(sizeof(lease_tick_lease_ix) == 1, "lease_tick_lease_ix size");
_Static_assert(__builtin_offsetof(lease_tick_lease_ix, tag) == 0, "lease_tick_lease_ix.tag");

/* ---- Errors (custom program error codes) ---- */
#define LEASE_ERR_INVALID_INSTRUCTION 4096ULL /* unknown tag or wrong instruction data length */
#define LEASE_ERR_NOT_ENOUGH_ACCOUNTS 4097ULL /* fewer accounts than the instruction needs */
#define LEASE_ERR_MISSING_SIGNATURE 4098ULL /* a required signer did not sign */
#define LEASE_ERR_WRONG_PDA 4099ULL /* an account is not the expected PDA of this program */
#define LEASE_ERR_ALREADY_INITIALIZED 4100ULL /* the config already exists */
#define LEASE_ERR_NOT_INITIALIZED 4101ULL /* the config account is missing or not this program's */
#define LEASE_ERR_WRONG_TREASURY 4102ULL /* treasury is not the configured treasury */
#define LEASE_ERR_WRONG_MINT 4103ULL /* a token account is not of the configured USDC mint */
#define LEASE_ERR_INSUFFICIENT_USDC 4104ULL /* the payer's USDC account holds less than the cost */
#define LEASE_ERR_NOT_AN_AGENT 4105ULL /* agent is not a Token-2022 mint with decimals 0 and supply 1 */
#define LEASE_ERR_WRONG_PROGRAM 4106ULL /* a program account is not the expected program */
#define LEASE_ERR_NO_LEASE 4107ULL /* the lease account does not exist */
#define LEASE_ERR_BAD_ARGUMENT 4108ULL /* epochs must be 1..1000 and epoch_seconds > 0 */
#define LEASE_ERR_NOT_WRITABLE 4109ULL /* an account that must be writable is not */

#endif /* ZX_GEN_LEASE_H */
