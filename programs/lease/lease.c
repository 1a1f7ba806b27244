/*
 * Lease (0x01 spec §10.3). An agent's lease is paid LEASE_COST_PER_EPOCH USDC per protocol epoch
 * to the treasury. A permissionless tick moves an agent that has not paid the current epoch to
 * grace, and to deactivated once more than GRACE_PERIOD_EPOCHS epochs are unpaid; deactivation
 * sticks until the back-lease is paid (paid_through_epoch >= current epoch).
 */
#include "zerox1.h"
#include "lease.h"

#define STATUS_ACTIVE 0
#define STATUS_GRACE 1
#define STATUS_DEACTIVATED 2
#define MAX_EPOCHS_PER_PAYMENT 1000

#define REQUIRE(cond, err) \
  do {                     \
    if (!(cond)) return (err); \
  } while (0)

/* The Config account of this program, or NULL. Only this program creates accounts with the
 * Config discriminator and only at its PDA, so owner + discriminator identify it. */
static const lease_LeaseConfig *load_config(const SolAccountInfo *a, const SolPubkey *pid) {
  if (!zx_key_eq(a->owner, pid) || a->data_len < sizeof(lease_LeaseConfig)) return NULL;
  const lease_LeaseConfig *c = (const lease_LeaseConfig *)a->data;
  return c->discriminator == LEASE_LEASE_CONFIG_DISC ? c : NULL;
}

static uint8_t next_status(uint64_t paid_through, uint64_t current, uint8_t prev) {
  if (paid_through >= current) return STATUS_ACTIVE;
  if (prev == STATUS_DEACTIVATED || current - paid_through > ZX_GRACE_PERIOD_EPOCHS) return STATUS_DEACTIVATED;
  return STATUS_GRACE;
}

static uint64_t initialize(const ZxInput *in) {
  REQUIRE(in->accounts_len >= LEASE_INITIALIZE_NACCOUNTS, LEASE_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(lease_initialize_ix), LEASE_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *admin = &in->accounts[LEASE_INITIALIZE_ACC_ADMIN];
  const SolAccountInfo *config = &in->accounts[LEASE_INITIALIZE_ACC_CONFIG];
  const SolAccountInfo *mint = &in->accounts[LEASE_INITIALIZE_ACC_USDC_MINT];
  const SolAccountInfo *treasury = &in->accounts[LEASE_INITIALIZE_ACC_TREASURY];
  const SolAccountInfo *system = &in->accounts[LEASE_INITIALIZE_ACC_SYSTEM_PROGRAM];
  const lease_initialize_ix *ix = (const lease_initialize_ix *)in->data;
  uint64_t epoch_seconds = ix->epoch_seconds;

  REQUIRE(admin->is_signer, LEASE_ERR_MISSING_SIGNATURE);
  REQUIRE(config->is_writable, LEASE_ERR_NOT_WRITABLE);
  const SolPubkey sys = ZX_SYSTEM_PROGRAM_ID, token = ZX_TOKEN_PROGRAM_ID;
  REQUIRE(zx_key_eq(system->key, &sys), LEASE_ERR_WRONG_PROGRAM);
  REQUIRE(epoch_seconds > 0, LEASE_ERR_BAD_ARGUMENT);
  SolPubkey expected;
  uint8_t bump;
  SolSignerSeed seeds[2] = {ZX_SEED(LEASE_SEED_CONFIG), {&bump, 1}};
  REQUIRE(zx_find_pda(seeds, 1, in->program_id, &expected, &bump), LEASE_ERR_WRONG_PDA);
  REQUIRE(zx_key_eq(config->key, &expected), LEASE_ERR_WRONG_PDA);
  REQUIRE(zx_is_system_empty(config), LEASE_ERR_ALREADY_INITIALIZED);
  /* USDC mint: an initialized SPL Token mint (82 bytes, is_initialized at 45). */
  REQUIRE(zx_key_eq(mint->owner, &token) && mint->data_len == 82 && mint->data[45] == 1, LEASE_ERR_WRONG_MINT);
  const ZxTokenAccountHead *t = zx_token_account(treasury, &token);
  REQUIRE(t != NULL && zx_key_eq(&t->mint, mint->key), LEASE_ERR_WRONG_TREASURY);

  SolSignerSeeds signer = {seeds, 2};
  uint64_t rc = zx_create_account(admin, config, sizeof(lease_LeaseConfig), in->program_id, &signer);
  if (rc != 0) return rc;
  lease_LeaseConfig *c = (lease_LeaseConfig *)config->data;
  c->discriminator = LEASE_LEASE_CONFIG_DISC;
  c->admin = *admin->key;
  c->usdc_mint = *mint->key;
  c->treasury = *treasury->key;
  c->epoch_seconds = epoch_seconds;
  c->bump = bump;

  lease_ev_LeaseInitialized ev = {LEASE_EV_LEASE_INITIALIZED_DISC, *admin->key, *mint->key, *treasury->key, epoch_seconds};
  zx_emit(&ev, sizeof ev);
  return ZX_SUCCESS;
}

static uint64_t pay_lease(const ZxInput *in) {
  REQUIRE(in->accounts_len >= LEASE_PAY_LEASE_NACCOUNTS, LEASE_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(lease_pay_lease_ix), LEASE_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *payer = &in->accounts[LEASE_PAY_LEASE_ACC_PAYER];
  const SolAccountInfo *config = &in->accounts[LEASE_PAY_LEASE_ACC_CONFIG];
  const SolAccountInfo *lease = &in->accounts[LEASE_PAY_LEASE_ACC_LEASE];
  const SolAccountInfo *agent = &in->accounts[LEASE_PAY_LEASE_ACC_AGENT];
  const SolAccountInfo *payer_usdc = &in->accounts[LEASE_PAY_LEASE_ACC_PAYER_USDC];
  const SolAccountInfo *treasury = &in->accounts[LEASE_PAY_LEASE_ACC_TREASURY];
  const SolAccountInfo *token_program = &in->accounts[LEASE_PAY_LEASE_ACC_TOKEN_PROGRAM];
  const SolAccountInfo *system = &in->accounts[LEASE_PAY_LEASE_ACC_SYSTEM_PROGRAM];
  const lease_pay_lease_ix *ix = (const lease_pay_lease_ix *)in->data;
  uint64_t epochs = ix->epochs;

  REQUIRE(payer->is_signer, LEASE_ERR_MISSING_SIGNATURE);
  REQUIRE(lease->is_writable, LEASE_ERR_NOT_WRITABLE);
  const lease_LeaseConfig *cfg = load_config(config, in->program_id);
  REQUIRE(cfg != NULL, LEASE_ERR_NOT_INITIALIZED);
  const SolPubkey sys = ZX_SYSTEM_PROGRAM_ID, token = ZX_TOKEN_PROGRAM_ID, t22 = ZX_TOKEN_2022_PROGRAM_ID;
  REQUIRE(zx_key_eq(token_program->key, &token) && zx_key_eq(system->key, &sys), LEASE_ERR_WRONG_PROGRAM);
  REQUIRE(epochs >= 1 && epochs <= MAX_EPOCHS_PER_PAYMENT, LEASE_ERR_BAD_ARGUMENT);
  /* Agent id: Token-2022 mint, supply (offset 36) 1, decimals (44) 0, initialized (45). */
  REQUIRE(zx_key_eq(agent->owner, &t22) && agent->data_len >= 82 && zx_u64le(agent->data + 36) == 1 &&
              agent->data[44] == 0 && agent->data[45] == 1,
          LEASE_ERR_NOT_AN_AGENT);
  REQUIRE(zx_key_eq(treasury->key, &cfg->treasury), LEASE_ERR_WRONG_TREASURY);
  const ZxTokenAccountHead *src = zx_token_account(payer_usdc, &token);
  REQUIRE(src != NULL && zx_key_eq(&src->mint, &cfg->usdc_mint), LEASE_ERR_WRONG_MINT);
  uint64_t cost = epochs * ZX_LEASE_COST_PER_EPOCH;
  REQUIRE(src->amount >= cost, LEASE_ERR_INSUFFICIENT_USDC);

  SolClock clock = zx_clock();
  uint64_t current = zx_epoch(&clock, cfg->epoch_seconds);
  lease_Lease *l;
  uint8_t prev;
  if (zx_is_system_empty(lease)) {
    SolPubkey expected;
    uint8_t bump;
    SolSignerSeed seeds[3] = {ZX_SEED(LEASE_SEED_LEASE), {agent->key->x, 32}, {&bump, 1}};
    REQUIRE(zx_find_pda(seeds, 2, in->program_id, &expected, &bump), LEASE_ERR_WRONG_PDA);
    REQUIRE(zx_key_eq(lease->key, &expected), LEASE_ERR_WRONG_PDA);
    SolSignerSeeds signer = {seeds, 3};
    uint64_t rc = zx_create_account(payer, lease, sizeof(lease_Lease), in->program_id, &signer);
    if (rc != 0) return rc;
    l = (lease_Lease *)lease->data;
    l->discriminator = LEASE_LEASE_DISC;
    l->agent = *agent->key;
    l->created_epoch = current;
    l->paid_through_epoch = current + epochs - 1;
    l->bump = bump;
    prev = STATUS_ACTIVE;
  } else {
    REQUIRE(zx_key_eq(lease->owner, in->program_id) && lease->data_len >= sizeof(lease_Lease), LEASE_ERR_WRONG_PDA);
    l = (lease_Lease *)lease->data;
    REQUIRE(l->discriminator == LEASE_LEASE_DISC && zx_key_eq(&l->agent, agent->key), LEASE_ERR_WRONG_PDA);
    prev = l->status;
    l->paid_through_epoch += epochs;
  }
  uint64_t rc = zx_transfer(&(zx_transfer_accounts){token_program, payer_usdc, treasury, payer}, cost, NULL);
  if (rc != 0) return rc;
  l->total_paid += cost;
  l->status = next_status(l->paid_through_epoch, current, prev);
  l->last_tick_epoch = current;

  lease_ev_LeasePaid ev = {LEASE_EV_LEASE_PAID_DISC, *agent->key, *payer->key, cost, current, l->paid_through_epoch,
                           (uint32_t)epochs, prev, l->status, {0}};
  zx_emit(&ev, sizeof ev);
  return ZX_SUCCESS;
}

static uint64_t tick_lease(const ZxInput *in) {
  REQUIRE(in->accounts_len >= LEASE_TICK_LEASE_NACCOUNTS, LEASE_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(lease_tick_lease_ix), LEASE_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *config = &in->accounts[LEASE_TICK_LEASE_ACC_CONFIG];
  const SolAccountInfo *lease = &in->accounts[LEASE_TICK_LEASE_ACC_LEASE];
  const lease_LeaseConfig *cfg = load_config(config, in->program_id);
  REQUIRE(cfg != NULL, LEASE_ERR_NOT_INITIALIZED);
  REQUIRE(!zx_is_system_empty(lease), LEASE_ERR_NO_LEASE);
  REQUIRE(zx_key_eq(lease->owner, in->program_id) && lease->data_len >= sizeof(lease_Lease), LEASE_ERR_WRONG_PDA);
  lease_Lease *l = (lease_Lease *)lease->data;
  REQUIRE(l->discriminator == LEASE_LEASE_DISC, LEASE_ERR_WRONG_PDA);
  REQUIRE(lease->is_writable, LEASE_ERR_NOT_WRITABLE);

  SolClock clock = zx_clock();
  uint64_t current = zx_epoch(&clock, cfg->epoch_seconds);
  uint8_t prev = l->status;
  l->status = next_status(l->paid_through_epoch, current, prev);
  l->last_tick_epoch = current;
  lease_ev_LeaseTicked ev = {LEASE_EV_LEASE_TICKED_DISC, l->agent, current, l->paid_through_epoch, prev, l->status, {0}};
  zx_emit(&ev, sizeof ev);
  return ZX_SUCCESS;
}

uint64_t entrypoint(const uint8_t *input) {
  ZxInput in;
  if (!zx_deserialize(input, &in)) return LEASE_ERR_NOT_ENOUGH_ACCOUNTS;
  if (in.data_len < 1) return LEASE_ERR_INVALID_INSTRUCTION;
  switch (in.data[0]) {
    case LEASE_IX_INITIALIZE: return initialize(&in);
    case LEASE_IX_PAY_LEASE: return pay_lease(&in);
    case LEASE_IX_TICK_LEASE: return tick_lease(&in);
    default: return LEASE_ERR_INVALID_INSTRUCTION;
  }
}
