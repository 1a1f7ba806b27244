/*
 * StakeLock (0x01 spec §10.5). An agent's identity owner locks at least MIN_STAKE USDC into a
 * program vault; unlocking is queued only once the agent's Lease is deactivated, and the stake is
 * claimed after UNLOCK_DELAY_SLOTS when no challenge against the agent is pending. The Challenge
 * program slashes the whole stake through CPI signed by its [b"slasher"] PDA.
 */
#include "zerox1.h"
#include "stake_lock.h"
#include "lease.h"
#include "challenge.h"
#include "stake_lock_common.h"

static uint64_t initialize(const ZxInput *in) {
  REQUIRE(in->accounts_len >= STAKE_LOCK_INITIALIZE_NACCOUNTS, STAKE_LOCK_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(stake_lock_initialize_ix), STAKE_LOCK_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *admin = &in->accounts[STAKE_LOCK_INITIALIZE_ACC_ADMIN];
  const SolAccountInfo *config = &in->accounts[STAKE_LOCK_INITIALIZE_ACC_CONFIG];
  const SolAccountInfo *mint = &in->accounts[STAKE_LOCK_INITIALIZE_ACC_USDC_MINT];
  const SolAccountInfo *treasury = &in->accounts[STAKE_LOCK_INITIALIZE_ACC_TREASURY];
  const SolAccountInfo *vault = &in->accounts[STAKE_LOCK_INITIALIZE_ACC_VAULT];
  const SolAccountInfo *system = &in->accounts[STAKE_LOCK_INITIALIZE_ACC_SYSTEM_PROGRAM];
  uint64_t epoch_seconds = ((const stake_lock_initialize_ix *)in->data)->epoch_seconds;
  const SolPubkey sati_program = ((const stake_lock_initialize_ix *)in->data)->sati_program;

  REQUIRE(admin->is_signer, STAKE_LOCK_ERR_MISSING_SIGNATURE);
  REQUIRE(config->is_writable, STAKE_LOCK_ERR_NOT_WRITABLE);
  const SolPubkey sys = ZX_SYSTEM_PROGRAM_ID, token = ZX_TOKEN_PROGRAM_ID;
  REQUIRE(zx_key_eq(system->key, &sys), STAKE_LOCK_ERR_WRONG_PROGRAM);
  REQUIRE(epoch_seconds > 0, STAKE_LOCK_ERR_INVALID_INSTRUCTION);
  SolPubkey expected;
  uint8_t bump, vbump;
  SolSignerSeed seeds[2] = {ZX_SEED(STAKE_LOCK_SEED_CONFIG), {&bump, 1}};
  REQUIRE(zx_find_pda(seeds, 1, in->program_id, &expected, &bump) && zx_key_eq(config->key, &expected), STAKE_LOCK_ERR_WRONG_PDA);
  REQUIRE(zx_is_system_empty(config), STAKE_LOCK_ERR_ALREADY_INITIALIZED);
  REQUIRE(zx_key_eq(mint->owner, &token) && mint->data_len == 82 && mint->data[45] == 1, STAKE_LOCK_ERR_WRONG_MINT);
  const ZxTokenAccountHead *t = zx_token_account(treasury, &token);
  REQUIRE(t != NULL && zx_key_eq(&t->mint, mint->key), STAKE_LOCK_ERR_WRONG_TREASURY);
  SolPubkey vault_authority;
  SolSignerSeed vseeds[1] = {ZX_SEED(STAKE_LOCK_SEED_VAULT_AUTHORITY)};
  REQUIRE(zx_find_pda(vseeds, 1, in->program_id, &vault_authority, &vbump), STAKE_LOCK_ERR_WRONG_VAULT);
  const ZxTokenAccountHead *v = zx_token_account(vault, &token);
  REQUIRE(v != NULL && zx_key_eq(&v->mint, mint->key) && zx_key_eq(&v->owner, &vault_authority), STAKE_LOCK_ERR_WRONG_VAULT);
  /* No delegate (option tag at 72) and no close authority (option tag at 129): nobody but the PDA moves funds. */
  REQUIRE(vault->data[72] == 0 && vault->data[129] == 0, STAKE_LOCK_ERR_WRONG_VAULT);

  SolSignerSeeds signer = {seeds, 2};
  uint64_t rc = zx_create_account(admin, config, sizeof(stake_lock_StakeConfig), in->program_id, &signer);
  if (rc != 0) return rc;
  stake_lock_StakeConfig *c = (stake_lock_StakeConfig *)config->data;
  c->discriminator = STAKE_LOCK_STAKE_CONFIG_DISC;
  c->admin = *admin->key;
  c->usdc_mint = *mint->key;
  c->treasury = *treasury->key;
  c->vault = *vault->key;
  c->epoch_seconds = epoch_seconds;
  c->bump = bump;
  c->vault_authority_bump = vbump;
  c->sati_program = sati_program;
  stake_lock_ev_StakeInitialized ev = {STAKE_LOCK_EV_STAKE_INITIALIZED_DISC, *admin->key, *mint->key, *treasury->key,
                                       *vault->key, epoch_seconds, sati_program};
  zx_emit(&ev, sizeof ev);
  return ZX_SUCCESS;
}

static uint64_t lock_stake(const ZxInput *in) {
  REQUIRE(in->accounts_len >= STAKE_LOCK_LOCK_STAKE_NACCOUNTS, STAKE_LOCK_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(stake_lock_lock_stake_ix), STAKE_LOCK_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *owner = &in->accounts[STAKE_LOCK_LOCK_STAKE_ACC_OWNER];
  const SolAccountInfo *config = &in->accounts[STAKE_LOCK_LOCK_STAKE_ACC_CONFIG];
  const SolAccountInfo *stake = &in->accounts[STAKE_LOCK_LOCK_STAKE_ACC_STAKE];
  const SolAccountInfo *agent = &in->accounts[STAKE_LOCK_LOCK_STAKE_ACC_AGENT];
  const SolAccountInfo *identity = &in->accounts[STAKE_LOCK_LOCK_STAKE_ACC_IDENTITY];
  const SolAccountInfo *owner_usdc = &in->accounts[STAKE_LOCK_LOCK_STAKE_ACC_OWNER_USDC];
  const SolAccountInfo *vault = &in->accounts[STAKE_LOCK_LOCK_STAKE_ACC_VAULT];
  const SolAccountInfo *token_program = &in->accounts[STAKE_LOCK_LOCK_STAKE_ACC_TOKEN_PROGRAM];
  const SolAccountInfo *system = &in->accounts[STAKE_LOCK_LOCK_STAKE_ACC_SYSTEM_PROGRAM];
  uint64_t amount = ((const stake_lock_lock_stake_ix *)in->data)->amount;

  REQUIRE(owner->is_signer, STAKE_LOCK_ERR_MISSING_SIGNATURE);
  REQUIRE(stake->is_writable, STAKE_LOCK_ERR_NOT_WRITABLE);
  const stake_lock_StakeConfig *cfg = load_config(config, in->program_id);
  REQUIRE(cfg != NULL, STAKE_LOCK_ERR_NOT_INITIALIZED);
  const SolPubkey sys = ZX_SYSTEM_PROGRAM_ID, token = ZX_TOKEN_PROGRAM_ID, t22 = ZX_TOKEN_2022_PROGRAM_ID;
  REQUIRE(zx_key_eq(token_program->key, &token) && zx_key_eq(system->key, &sys), STAKE_LOCK_ERR_WRONG_PROGRAM);
  REQUIRE(zx_key_eq(vault->key, &cfg->vault), STAKE_LOCK_ERR_WRONG_VAULT);
  REQUIRE(amount >= ZX_MIN_STAKE, STAKE_LOCK_ERR_BELOW_MIN_STAKE);
  /* Mint base: no mint authority (COption tag at 0), supply 1 (36), decimals 0 (44), initialized (45). */
  REQUIRE(zx_key_eq(agent->owner, &t22) && agent->data_len >= 82 && agent->data[0] == 0 && zx_u64le(agent->data + 36) == 1 &&
              agent->data[44] == 0 && agent->data[45] == 1,
          STAKE_LOCK_ERR_NOT_AN_AGENT);
  uint64_t rc = check_sati_member(agent, &in->accounts[STAKE_LOCK_LOCK_STAKE_ACC_SATI_REGISTRY],
                                  &in->accounts[STAKE_LOCK_LOCK_STAKE_ACC_AGENT_INDEX], &cfg->sati_program);
  if (rc != 0) return rc;
  REQUIRE(zx_is_identity_owner(identity, agent->key, owner->key), STAKE_LOCK_ERR_NOT_IDENTITY_OWNER);
  stake_lock_Stake *s = NULL;
  bool fresh = zx_is_system_empty(stake);
  if (!fresh) {
    s = load_stake(stake, in->program_id);
    REQUIRE(s != NULL && zx_key_eq(&s->agent, agent->key), STAKE_LOCK_ERR_WRONG_PDA);
    REQUIRE(s->status != STATUS_LOCKED && s->status != STATUS_UNLOCKING, STAKE_LOCK_ERR_ALREADY_LOCKED);
  }
  const ZxTokenAccountHead *src = zx_token_account(owner_usdc, &token);
  REQUIRE(src != NULL && zx_key_eq(&src->mint, &cfg->usdc_mint), STAKE_LOCK_ERR_WRONG_MINT);
  REQUIRE(src->amount >= amount, STAKE_LOCK_ERR_INSUFFICIENT_USDC);

  if (fresh) {
    SolPubkey expected;
    uint8_t bump;
    SolSignerSeed seeds[3] = {ZX_SEED(STAKE_LOCK_SEED_STAKE), {agent->key->x, 32}, {&bump, 1}};
    REQUIRE(zx_find_pda(seeds, 2, in->program_id, &expected, &bump) && zx_key_eq(stake->key, &expected), STAKE_LOCK_ERR_WRONG_PDA);
    SolSignerSeeds signer = {seeds, 3};
    rc = zx_create_account(owner, stake, sizeof(stake_lock_Stake), in->program_id, &signer);
    if (rc != 0) return rc;
    s = (stake_lock_Stake *)stake->data;
    s->discriminator = STAKE_LOCK_STAKE_DISC;
    s->agent = *agent->key;
    s->bump = bump;
  }
  rc = zx_transfer(&(zx_transfer_accounts){token_program, owner_usdc, vault, owner}, amount, NULL);
  if (rc != 0) return rc;
  SolClock clock = zx_clock();
  s->owner = *owner->key;
  s->amount = amount;
  s->locked_slot = clock.slot;
  s->unlock_requested_slot = 0;
  s->status = STATUS_LOCKED;
  stake_lock_ev_StakeLocked ev = {STAKE_LOCK_EV_STAKE_LOCKED_DISC, *agent->key, *owner->key, amount, clock.slot};
  zx_emit(&ev, sizeof ev);
  return ZX_SUCCESS;
}

static uint64_t queue_unlock(const ZxInput *in) {
  REQUIRE(in->accounts_len >= STAKE_LOCK_QUEUE_UNLOCK_NACCOUNTS, STAKE_LOCK_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(stake_lock_queue_unlock_ix), STAKE_LOCK_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *owner = &in->accounts[STAKE_LOCK_QUEUE_UNLOCK_ACC_OWNER];
  const SolAccountInfo *config = &in->accounts[STAKE_LOCK_QUEUE_UNLOCK_ACC_CONFIG];
  const SolAccountInfo *stake = &in->accounts[STAKE_LOCK_QUEUE_UNLOCK_ACC_STAKE];
  const SolAccountInfo *identity = &in->accounts[STAKE_LOCK_QUEUE_UNLOCK_ACC_IDENTITY];
  const SolAccountInfo *lease = &in->accounts[STAKE_LOCK_QUEUE_UNLOCK_ACC_LEASE];

  REQUIRE(owner->is_signer, STAKE_LOCK_ERR_MISSING_SIGNATURE);
  REQUIRE(load_config(config, in->program_id) != NULL, STAKE_LOCK_ERR_NOT_INITIALIZED);
  stake_lock_Stake *s = load_stake(stake, in->program_id);
  REQUIRE(s != NULL, STAKE_LOCK_ERR_NO_STAKE);
  REQUIRE(stake->is_writable, STAKE_LOCK_ERR_NOT_WRITABLE);
  REQUIRE(zx_is_identity_owner(identity, &s->agent, owner->key), STAKE_LOCK_ERR_NOT_IDENTITY_OWNER);
  REQUIRE(s->status == STATUS_LOCKED, STAKE_LOCK_ERR_NOT_LOCKED);
  /* The lease program's Lease PDA for this agent (contract: owner, address, status == 2). */
  const SolPubkey lease_id = ZX_LEASE_PROGRAM_ID;
  REQUIRE(zx_key_eq(lease->owner, &lease_id) && lease->data_len >= sizeof(lease_Lease), STAKE_LOCK_ERR_WRONG_LEASE_ACCOUNT);
  const lease_Lease *l = (const lease_Lease *)lease->data;
  REQUIRE(l->discriminator == LEASE_LEASE_DISC && zx_key_eq(&l->agent, &s->agent), STAKE_LOCK_ERR_WRONG_LEASE_ACCOUNT);
  uint8_t lbump = l->bump;
  SolSignerSeed lseeds[3] = {ZX_SEED(LEASE_SEED_LEASE), {s->agent.x, 32}, {&lbump, 1}};
  REQUIRE(zx_check_pda(lease->key, lseeds, 3, &lease_id), STAKE_LOCK_ERR_WRONG_LEASE_ACCOUNT);
  REQUIRE(l->status == 2, STAKE_LOCK_ERR_STILL_LEASED);

  SolClock clock = zx_clock();
  s->unlock_requested_slot = clock.slot;
  s->status = STATUS_UNLOCKING;
  stake_lock_ev_UnlockQueued ev = {STAKE_LOCK_EV_UNLOCK_QUEUED_DISC, s->agent, *owner->key, s->amount, clock.slot,
                                   clock.slot + ZX_UNLOCK_DELAY_SLOTS};
  zx_emit(&ev, sizeof ev);
  return ZX_SUCCESS;
}

static uint64_t claim_stake(const ZxInput *in) {
  REQUIRE(in->accounts_len >= STAKE_LOCK_CLAIM_STAKE_NACCOUNTS, STAKE_LOCK_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(stake_lock_claim_stake_ix), STAKE_LOCK_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *owner = &in->accounts[STAKE_LOCK_CLAIM_STAKE_ACC_OWNER];
  const SolAccountInfo *config = &in->accounts[STAKE_LOCK_CLAIM_STAKE_ACC_CONFIG];
  const SolAccountInfo *stake = &in->accounts[STAKE_LOCK_CLAIM_STAKE_ACC_STAKE];
  const SolAccountInfo *identity = &in->accounts[STAKE_LOCK_CLAIM_STAKE_ACC_IDENTITY];
  const SolAccountInfo *challenges = &in->accounts[STAKE_LOCK_CLAIM_STAKE_ACC_AGENT_CHALLENGES];
  const SolAccountInfo *owner_usdc = &in->accounts[STAKE_LOCK_CLAIM_STAKE_ACC_OWNER_USDC];
  Vault v = {&in->accounts[STAKE_LOCK_CLAIM_STAKE_ACC_TOKEN_PROGRAM], &in->accounts[STAKE_LOCK_CLAIM_STAKE_ACC_VAULT],
             &in->accounts[STAKE_LOCK_CLAIM_STAKE_ACC_VAULT_AUTHORITY], 0};

  REQUIRE(owner->is_signer, STAKE_LOCK_ERR_MISSING_SIGNATURE);
  const stake_lock_StakeConfig *cfg = load_config(config, in->program_id);
  REQUIRE(cfg != NULL, STAKE_LOCK_ERR_NOT_INITIALIZED);
  uint64_t rc = check_vault(&v, cfg, in->program_id);
  if (rc != 0) return rc;
  v.bump = cfg->vault_authority_bump;
  stake_lock_Stake *s = load_stake(stake, in->program_id);
  REQUIRE(s != NULL, STAKE_LOCK_ERR_NO_STAKE);
  REQUIRE(stake->is_writable, STAKE_LOCK_ERR_NOT_WRITABLE);
  REQUIRE(zx_is_identity_owner(identity, &s->agent, owner->key), STAKE_LOCK_ERR_NOT_IDENTITY_OWNER);
  REQUIRE(s->status != STATUS_CLAIMED, STAKE_LOCK_ERR_ALREADY_CLAIMED);
  REQUIRE(s->status == STATUS_UNLOCKING, STAKE_LOCK_ERR_NOT_UNLOCKING);
  SolClock clock = zx_clock();
  REQUIRE(clock.slot >= s->unlock_requested_slot + ZX_UNLOCK_DELAY_SLOTS, STAKE_LOCK_ERR_UNLOCK_DELAY_NOT_ELAPSED);

  /* AgentChallenges: the challenge program's PDA [b"agent", agent]; absent or pending == 0. */
  const SolPubkey challenge_id = ZX_CHALLENGE_PROGRAM_ID;
  SolPubkey expected;
  uint8_t cbump;
  SolSignerSeed cseeds[2] = {ZX_SEED(CHALLENGE_SEED_AGENT), {s->agent.x, 32}};
  REQUIRE(zx_find_pda(cseeds, 2, &challenge_id, &expected, &cbump) && zx_key_eq(challenges->key, &expected),
          STAKE_LOCK_ERR_WRONG_CHALLENGE_ACCOUNT);
  if (!zx_is_system_empty(challenges)) {
    REQUIRE(zx_key_eq(challenges->owner, &challenge_id) && challenges->data_len >= sizeof(challenge_AgentChallenges),
            STAKE_LOCK_ERR_WRONG_CHALLENGE_ACCOUNT);
    const challenge_AgentChallenges *ac = (const challenge_AgentChallenges *)challenges->data;
    REQUIRE(ac->discriminator == CHALLENGE_AGENT_CHALLENGES_DISC, STAKE_LOCK_ERR_WRONG_CHALLENGE_ACCOUNT);
    REQUIRE(ac->pending == 0, STAKE_LOCK_ERR_PENDING_CHALLENGE);
  }
  const SolPubkey token = ZX_TOKEN_PROGRAM_ID;
  const ZxTokenAccountHead *dst = zx_token_account(owner_usdc, &token);
  REQUIRE(dst != NULL && zx_key_eq(&dst->mint, &cfg->usdc_mint), STAKE_LOCK_ERR_WRONG_MINT);

  uint64_t amount = s->amount;
  rc = vault_pay(&v, owner_usdc, amount);
  if (rc != 0) return rc;
  s->amount = 0;
  s->status = STATUS_CLAIMED;
  stake_lock_ev_StakeClaimed ev = {STAKE_LOCK_EV_STAKE_CLAIMED_DISC, s->agent, *owner->key, amount, clock.slot};
  zx_emit(&ev, sizeof ev);
  return ZX_SUCCESS;
}

static uint64_t slash(const ZxInput *in) {
  REQUIRE(in->accounts_len >= STAKE_LOCK_SLASH_NACCOUNTS, STAKE_LOCK_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(stake_lock_slash_ix), STAKE_LOCK_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *slasher = &in->accounts[STAKE_LOCK_SLASH_ACC_SLASHER];
  const SolAccountInfo *config = &in->accounts[STAKE_LOCK_SLASH_ACC_CONFIG];
  const SolAccountInfo *stake = &in->accounts[STAKE_LOCK_SLASH_ACC_STAKE];
  const SolAccountInfo *challenger_usdc = &in->accounts[STAKE_LOCK_SLASH_ACC_CHALLENGER_USDC];
  const SolAccountInfo *treasury = &in->accounts[STAKE_LOCK_SLASH_ACC_TREASURY];
  Vault v = {&in->accounts[STAKE_LOCK_SLASH_ACC_TOKEN_PROGRAM], &in->accounts[STAKE_LOCK_SLASH_ACC_VAULT],
             &in->accounts[STAKE_LOCK_SLASH_ACC_VAULT_AUTHORITY], 0};

  /* Only the challenge program can sign for its [b"slasher"] PDA (through invoke_signed). */
  const SolPubkey challenge_id = ZX_CHALLENGE_PROGRAM_ID;
  SolPubkey expected;
  uint8_t sbump;
  SolSignerSeed sseeds[1] = {ZX_SEED(CHALLENGE_SEED_SLASHER)};
  REQUIRE(zx_find_pda(sseeds, 1, &challenge_id, &expected, &sbump), STAKE_LOCK_ERR_NOT_SLASHER);
  REQUIRE(slasher->is_signer && zx_key_eq(slasher->key, &expected), STAKE_LOCK_ERR_NOT_SLASHER);
  const stake_lock_StakeConfig *cfg = load_config(config, in->program_id);
  REQUIRE(cfg != NULL, STAKE_LOCK_ERR_NOT_INITIALIZED);
  uint64_t rc = check_vault(&v, cfg, in->program_id);
  if (rc != 0) return rc;
  v.bump = cfg->vault_authority_bump;
  REQUIRE(zx_key_eq(treasury->key, &cfg->treasury), STAKE_LOCK_ERR_WRONG_TREASURY);
  stake_lock_Stake *s = load_stake(stake, in->program_id);
  REQUIRE(s != NULL, STAKE_LOCK_ERR_NO_STAKE);
  REQUIRE(stake->is_writable, STAKE_LOCK_ERR_NOT_WRITABLE);
  REQUIRE((s->status == STATUS_LOCKED || s->status == STATUS_UNLOCKING) && s->amount > 0, STAKE_LOCK_ERR_NO_STAKE);
  const SolPubkey token = ZX_TOKEN_PROGRAM_ID;
  const ZxTokenAccountHead *dst = zx_token_account(challenger_usdc, &token);
  REQUIRE(dst != NULL && zx_key_eq(&dst->mint, &cfg->usdc_mint), STAKE_LOCK_ERR_WRONG_MINT);

  uint64_t amount = s->amount;
  uint64_t reward = amount * ZX_CHALLENGE_REWARD_BPS / 10000;
  uint64_t rest = amount - reward;
  if (reward > 0) {
    rc = vault_pay(&v, challenger_usdc, reward);
    if (rc != 0) return rc;
  }
  if (rest > 0) {
    rc = vault_pay(&v, treasury, rest);
    if (rc != 0) return rc;
  }
  SolClock clock = zx_clock();
  s->amount = 0;
  s->status = STATUS_SLASHED;
  stake_lock_ev_StakeSlashed ev = {STAKE_LOCK_EV_STAKE_SLASHED_DISC, s->agent, *challenger_usdc->key, amount, reward, rest,
                                   clock.slot};
  zx_emit(&ev, sizeof ev);
  return ZX_SUCCESS;
}

uint64_t entrypoint(const uint8_t *input) {
  ZxInput in;
  if (!zx_deserialize(input, &in)) return STAKE_LOCK_ERR_NOT_ENOUGH_ACCOUNTS;
  if (in.data_len < 1) return STAKE_LOCK_ERR_INVALID_INSTRUCTION;
  switch (in.data[0]) {
    case STAKE_LOCK_IX_INITIALIZE: return initialize(&in);
    case STAKE_LOCK_IX_LOCK_STAKE: return lock_stake(&in);
    case STAKE_LOCK_IX_QUEUE_UNLOCK: return queue_unlock(&in);
    case STAKE_LOCK_IX_CLAIM_STAKE: return claim_stake(&in);
    case STAKE_LOCK_IX_SLASH: return slash(&in);
    default: return STAKE_LOCK_ERR_INVALID_INSTRUCTION;
  }
}
