/*
 * Account loading, vault checks and the vault transfer of the StakeLock program, kept apart from
 * the instruction handlers in stake_lock.c (its only includer).
 */
#ifndef STAKE_LOCK_COMMON_H
#define STAKE_LOCK_COMMON_H

#include "zerox1.h"
#include "stake_lock.h"

#define STATUS_LOCKED 1
#define STATUS_UNLOCKING 2
#define STATUS_CLAIMED 3
#define STATUS_SLASHED 4

#define REQUIRE(cond, err) \
  do {                     \
    if (!(cond)) return (err); \
  } while (0)

static const stake_lock_StakeConfig *load_config(const SolAccountInfo *a, const SolPubkey *pid) {
  if (!zx_key_eq(a->owner, pid) || a->data_len < sizeof(stake_lock_StakeConfig)) return NULL;
  const stake_lock_StakeConfig *c = (const stake_lock_StakeConfig *)a->data;
  return c->discriminator == STAKE_LOCK_STAKE_CONFIG_DISC ? c : NULL;
}

/* An existing Stake account of this program (only ever created at its PDA), or NULL. */
static stake_lock_Stake *load_stake(const SolAccountInfo *a, const SolPubkey *pid) {
  if (!zx_key_eq(a->owner, pid) || a->data_len < sizeof(stake_lock_Stake)) return NULL;
  stake_lock_Stake *s = (stake_lock_Stake *)a->data;
  return s->discriminator == STAKE_LOCK_STAKE_DISC ? s : NULL;
}

typedef struct {
  const SolAccountInfo *token_program;
  const SolAccountInfo *vault;
  const SolAccountInfo *authority;
  uint8_t bump;
} Vault;

/* Checks vault and vault_authority against the config and the token program id. */
static uint64_t check_vault(const Vault *v, const stake_lock_StakeConfig *cfg, const SolPubkey *pid) {
  const SolPubkey token = ZX_TOKEN_PROGRAM_ID;
  REQUIRE(zx_key_eq(v->token_program->key, &token), STAKE_LOCK_ERR_WRONG_PROGRAM);
  REQUIRE(zx_key_eq(v->vault->key, &cfg->vault), STAKE_LOCK_ERR_WRONG_VAULT);
  REQUIRE(v->vault->is_writable, STAKE_LOCK_ERR_NOT_WRITABLE);
  uint8_t bump = cfg->vault_authority_bump;
  SolSignerSeed seeds[2] = {ZX_SEED(STAKE_LOCK_SEED_VAULT_AUTHORITY), {&bump, 1}};
  REQUIRE(zx_check_pda(v->authority->key, seeds, 2, pid), STAKE_LOCK_ERR_WRONG_VAULT);
  return 0;
}

/* Transfer out of the vault, signed by the vault_authority PDA. */
static uint64_t vault_pay(const Vault *v, const SolAccountInfo *to, uint64_t amount) {
  uint8_t bump = v->bump;
  SolSignerSeed seeds[2] = {ZX_SEED(STAKE_LOCK_SEED_VAULT_AUTHORITY), {&bump, 1}};
  SolSignerSeeds signer = {seeds, 2};
  return zx_transfer(&(zx_transfer_accounts){v->token_program, v->vault, to, v->authority}, amount, &signer);
}

#endif
