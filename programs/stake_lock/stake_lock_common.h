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

/*
 * SATI registration (docs/chain.md "SATI"): `agent`'s TokenGroupMember extension names the group
 * of the RegistryConfig PDA [b"registry"] of the configured SATI program, and that program's
 * AgentIndex PDA [b"agent_index", member_number u64 LE] holds the agent mint. Both PDAs are
 * checked with their stored bumps. The mint base (NFT shape) is checked by the caller.
 */
#define SATI_REGISTRY_CONFIG_LEN 81
#define SATI_AGENT_INDEX_LEN 41
static uint64_t check_sati_member(const SolAccountInfo *agent, const SolAccountInfo *registry, const SolAccountInfo *index,
                                  const SolPubkey *sati_program) {
  static const uint8_t registry_disc[8] = {23, 118, 10, 246, 173, 231, 243, 156};
  static const uint8_t index_disc[8] = {241, 154, 35, 103, 180, 141, 49, 179};
  REQUIRE(zx_is_account(registry, sati_program, registry_disc, SATI_REGISTRY_CONFIG_LEN), STAKE_LOCK_ERR_WRONG_SATI_ACCOUNT);
  uint8_t rbump = registry->data[80];
  SolSignerSeed rseeds[2] = {ZX_SEED("registry"), {&rbump, 1}};
  REQUIRE(zx_check_pda(registry->key, rseeds, 2, sati_program), STAKE_LOCK_ERR_WRONG_SATI_ACCOUNT);
  const SolPubkey *group = (const SolPubkey *)(registry->data + 8);

  uint64_t len = 0;
  const uint8_t *m = zx_t22_extension(agent, ZX_EXT_TOKEN_GROUP_MEMBER, &len);
  REQUIRE(m != NULL && len >= 72, STAKE_LOCK_ERR_NOT_SATI_AGENT);
  REQUIRE(zx_bytes_eq(m, agent->key->x, 32) && zx_bytes_eq(m + 32, group->x, 32), STAKE_LOCK_ERR_NOT_SATI_AGENT);

  REQUIRE(zx_is_account(index, sati_program, index_disc, SATI_AGENT_INDEX_LEN), STAKE_LOCK_ERR_NOT_SATI_AGENT);
  REQUIRE(zx_bytes_eq(index->data + 8, agent->key->x, 32), STAKE_LOCK_ERR_NOT_SATI_AGENT);
  uint8_t ibump = index->data[40];
  SolSignerSeed iseeds[3] = {ZX_SEED("agent_index"), {m + 64, 8}, {&ibump, 1}};
  REQUIRE(zx_check_pda(index->key, iseeds, 3, sati_program), STAKE_LOCK_ERR_NOT_SATI_AGENT);
  return 0;
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
