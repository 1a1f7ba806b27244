/*
 * BehaviorLog (0x01 spec §10.2; contract in programs/README.md): agents commit their epoch BehaviorBatch.
 *   initialize    creates the Config PDA [b"config"] once.
 *   submit_batch  creates the BatchAccount PDA [b"batch", agent, epoch u64 LE] once, after
 *                 checking that an Ed25519 program instruction of the same transaction verifies
 *                 the identity owner's signature over the 32-byte batch_hash (the full batch
 *                 bytes, up to ~300 KB, cannot travel in a transaction; see programs/README.md).
 * Every state change emits its event with sol_log_data.
 */
#include "zerox1.h"
#include "behavior_log.h"
#include "zx_ed25519.h"

#define ERR(name) BEHAVIOR_LOG_ERR_##name

static uint64_t initialize(const ZxInput *in) {
  if (in->accounts_len < BEHAVIOR_LOG_INITIALIZE_NACCOUNTS) return ZX_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (in->data_len != sizeof(behavior_log_initialize_ix)) return ERR(BAD_ARGUMENT);
  const behavior_log_initialize_ix *ix = (const behavior_log_initialize_ix *)in->data;
  const SolAccountInfo *admin = &in->accounts[BEHAVIOR_LOG_INITIALIZE_ACC_ADMIN];
  const SolAccountInfo *config = &in->accounts[BEHAVIOR_LOG_INITIALIZE_ACC_CONFIG];
  const SolAccountInfo *system = &in->accounts[BEHAVIOR_LOG_INITIALIZE_ACC_SYSTEM_PROGRAM];
  const SolPubkey sys_id = ZX_SYSTEM_PROGRAM_ID;
  if (!admin->is_signer) return ERR(MISSING_SIGNER);
  if (!zx_key_eq(system->key, &sys_id)) return ERR(BAD_ACCOUNT);
  if (ix->epoch_seconds == 0) return ERR(BAD_ARGUMENT);
  SolSignerSeed seeds[2] = {ZX_SEED(BEHAVIOR_LOG_SEED_CONFIG), {0, 1}};
  SolPubkey pda;
  uint8_t bump;
  if (!zx_find_pda(seeds, 1, in->program_id, &pda, &bump) || !zx_key_eq(&pda, config->key)) return ERR(BAD_PDA);
  if (!zx_is_system_empty(config)) return ERR(ALREADY_INITIALIZED);
  seeds[1].addr = &bump;
  SolSignerSeeds signer = {seeds, 2};
  uint64_t r = zx_create_account(admin, config, sizeof(behavior_log_Config), in->program_id, &signer);
  if (r) return r;
  behavior_log_Config *c = (behavior_log_Config *)config->data;
  c->discriminator = BEHAVIOR_LOG_CONFIG_DISC;
  c->admin = *admin->key;
  c->usdc_mint = ix->usdc_mint;
  c->treasury = ix->treasury;
  c->epoch_seconds = ix->epoch_seconds;
  c->bump = bump;
  behavior_log_ev_Initialized ev = {BEHAVIOR_LOG_EV_INITIALIZED_DISC, *admin->key, ix->usdc_mint, ix->treasury,
                                    ix->epoch_seconds};
  zx_emit(&ev, sizeof(ev));
  return ZX_SUCCESS;
}

/* The initialized Config PDA of this program, or NULL. */
static const behavior_log_Config *load_config(const SolAccountInfo *a, const SolPubkey *program_id) {
  uint8_t disc[8];
  uint64_t d = BEHAVIOR_LOG_CONFIG_DISC;
  zx_memcpy(disc, &d, 8);
  if (!zx_is_account(a, program_id, disc, sizeof(behavior_log_Config))) return NULL;
  const behavior_log_Config *c = (const behavior_log_Config *)a->data;
  uint8_t bump = c->bump;
  SolSignerSeed seeds[2] = {ZX_SEED(BEHAVIOR_LOG_SEED_CONFIG), {&bump, 1}};
  if (!zx_check_pda(a->key, seeds, 2, program_id)) return NULL;
  return c;
}

static uint64_t submit_batch(const ZxInput *in) {
  if (in->accounts_len < BEHAVIOR_LOG_SUBMIT_BATCH_NACCOUNTS) return ZX_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (in->data_len != sizeof(behavior_log_submit_batch_ix)) return ERR(BAD_ARGUMENT);
  const behavior_log_submit_batch_ix *ix = (const behavior_log_submit_batch_ix *)in->data;
  const SolAccountInfo *payer = &in->accounts[BEHAVIOR_LOG_SUBMIT_BATCH_ACC_PAYER];
  const SolAccountInfo *identity = &in->accounts[BEHAVIOR_LOG_SUBMIT_BATCH_ACC_IDENTITY];
  const SolAccountInfo *config = &in->accounts[BEHAVIOR_LOG_SUBMIT_BATCH_ACC_CONFIG];
  const SolAccountInfo *batch = &in->accounts[BEHAVIOR_LOG_SUBMIT_BATCH_ACC_BATCH];
  const SolAccountInfo *ixs = &in->accounts[BEHAVIOR_LOG_SUBMIT_BATCH_ACC_INSTRUCTIONS];
  const SolAccountInfo *system = &in->accounts[BEHAVIOR_LOG_SUBMIT_BATCH_ACC_SYSTEM_PROGRAM];
  const SolPubkey sys_id = ZX_SYSTEM_PROGRAM_ID;
  const SolPubkey ixs_id = ZX_INSTRUCTIONS_SYSVAR_ID;
  if (!payer->is_signer) return ERR(MISSING_SIGNER);
  if (!zx_key_eq(system->key, &sys_id) || !zx_key_eq(ixs->key, &ixs_id)) return ERR(BAD_ACCOUNT);
  const behavior_log_Config *cfg = load_config(config, in->program_id);
  if (cfg == NULL) return ERR(BAD_CONFIG);

  /* identity: Token-2022 account holding 1 of the agent mint; its owner signs */
  const SolPubkey t22 = ZX_TOKEN_2022_PROGRAM_ID;
  const ZxTokenAccountHead *id = zx_token_account(identity, &t22);
  if (id == NULL || id->amount != 1) return ERR(NOT_IDENTITY_OWNER);
  SolPubkey agent = id->mint;
  SolPubkey owner = id->owner;

  /* epoch: not in the future, and no later than one epoch after its end */
  SolClock clock = zx_clock();
  uint64_t now = zx_epoch(&clock, cfg->epoch_seconds);
  if (ix->epoch > now) return ERR(EPOCH_IN_FUTURE);
  if (now - ix->epoch > 1) return ERR(EPOCH_TOO_LATE);
  if (ix->overflow > 1) return ERR(BAD_ARGUMENT);

  /* PDA [b"batch", agent, epoch LE] with the caller's bump; must not exist yet */
  uint64_t epoch = ix->epoch;
  uint8_t bump = ix->bump;
  SolSignerSeed seeds[4] = {ZX_SEED(BEHAVIOR_LOG_SEED_BATCH), {agent.x, 32}, {(const uint8_t *)&epoch, 8}, {&bump, 1}};
  if (!zx_check_pda(batch->key, seeds, 4, in->program_id)) return ERR(BAD_PDA);
  if (!zx_is_system_empty(batch)) return ERR(BATCH_EXISTS);

  /* the identity owner signed batch_hash (Ed25519 program, same transaction) */
  zx_ed_expect x = {owner.x, 0, 0, 0, ix->batch_hash, 32};
  if (zx_ed25519_check(ixs->data, ixs->data_len, &x)) return ERR(BAD_SIGNATURE);

  SolSignerSeeds signer = {seeds, 4};
  uint64_t r = zx_create_account(payer, batch, sizeof(behavior_log_BatchAccount), in->program_id, &signer);
  if (r) return r;
  behavior_log_BatchAccount *b = (behavior_log_BatchAccount *)batch->data;
  b->discriminator = BEHAVIOR_LOG_BATCH_ACCOUNT_DISC;
  b->agent = agent;
  b->signer = owner;
  b->epoch = epoch;
  zx_memcpy(b->batch_hash, ix->batch_hash, 32);
  zx_memcpy(b->log_merkle_root, ix->log_merkle_root, 32);
  b->submitted_slot = clock.slot;
  b->message_count = ix->message_count;
  b->bid_count = ix->bid_count;
  b->task_count = ix->task_count;
  b->verifier_count = ix->verifier_count;
  b->feedback_count = ix->feedback_count;
  b->overflow = ix->overflow;
  b->bump = bump;

  behavior_log_ev_BatchSubmitted ev;
  zx_memset(&ev, 0, sizeof(ev));
  ev.discriminator = BEHAVIOR_LOG_EV_BATCH_SUBMITTED_DISC;
  ev.agent = agent;
  ev.signer = owner;
  ev.batch = *batch->key;
  ev.epoch = epoch;
  zx_memcpy(ev.batch_hash, ix->batch_hash, 32);
  zx_memcpy(ev.log_merkle_root, ix->log_merkle_root, 32);
  ev.slot = clock.slot;
  ev.message_count = ix->message_count;
  ev.bid_count = ix->bid_count;
  ev.task_count = ix->task_count;
  ev.verifier_count = ix->verifier_count;
  ev.feedback_count = ix->feedback_count;
  ev.overflow = ix->overflow;
  zx_emit(&ev, sizeof(ev));
  return ZX_SUCCESS;
}

uint64_t entrypoint(const uint8_t *input) {
  ZxInput in;
  if (!zx_deserialize(input, &in)) return ZX_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (in.data_len < 1) return ERR(BAD_ARGUMENT);
  switch (in.data[0]) {
    case BEHAVIOR_LOG_IX_INITIALIZE:
      return initialize(&in);
    case BEHAVIOR_LOG_IX_SUBMIT_BATCH:
      return submit_batch(&in);
    default:
      return ERR(BAD_ARGUMENT);
  }
}
