/*
 * Challenge (0x01 spec §10.4, §8.6; contract in programs/README.md): initialize, the staging buffer,
 * submit_challenge and expire_challenge; resolve_challenge is in resolve.c.
 * Every state change emits its event with sol_log_data.
 */
#include "challenge_common.h"

uint64_t resolve_challenge(const ZxInput *in);

static uint64_t initialize(const ZxInput *in) {
  if (in->accounts_len < CHALLENGE_INITIALIZE_NACCOUNTS) return ZX_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (in->data_len != sizeof(challenge_initialize_ix)) return ERR(BAD_ARGUMENT);
  const challenge_initialize_ix *ix = (const challenge_initialize_ix *)in->data;
  const SolAccountInfo *admin = &in->accounts[CHALLENGE_INITIALIZE_ACC_ADMIN];
  const SolAccountInfo *config = &in->accounts[CHALLENGE_INITIALIZE_ACC_CONFIG];
  const SolAccountInfo *mint = &in->accounts[CHALLENGE_INITIALIZE_ACC_USDC_MINT];
  const SolAccountInfo *vault = &in->accounts[CHALLENGE_INITIALIZE_ACC_VAULT];
  const SolAccountInfo *token = &in->accounts[CHALLENGE_INITIALIZE_ACC_TOKEN_PROGRAM];
  const SolAccountInfo *system = &in->accounts[CHALLENGE_INITIALIZE_ACC_SYSTEM_PROGRAM];
  const SolPubkey sys_id = ZX_SYSTEM_PROGRAM_ID, tok_id = ZX_TOKEN_PROGRAM_ID;
  if (!admin->is_signer) return ERR(MISSING_SIGNER);
  if (!zx_key_eq(system->key, &sys_id) || !zx_key_eq(token->key, &tok_id)) return ERR(BAD_ACCOUNT);
  if (!zx_key_eq(mint->owner, &tok_id)) return ERR(BAD_ACCOUNT);
  if (ix->epoch_seconds == 0) return ERR(BAD_ARGUMENT);

  uint8_t cfg_bump, vault_bump, slasher_bump;
  SolPubkey pda;
  SolSignerSeed cseeds[2] = {ZX_SEED(CHALLENGE_SEED_CONFIG), {&cfg_bump, 1}};
  SolSignerSeed vseeds[2] = {ZX_SEED(CHALLENGE_SEED_VAULT), {&vault_bump, 1}};
  SolSignerSeed sseeds[1] = {ZX_SEED(CHALLENGE_SEED_SLASHER)};
  if (!zx_find_pda(cseeds, 1, in->program_id, &pda, &cfg_bump) || !zx_key_eq(&pda, config->key)) return ERR(BAD_PDA);
  if (!zx_find_pda(vseeds, 1, in->program_id, &pda, &vault_bump) || !zx_key_eq(&pda, vault->key)) return ERR(BAD_PDA);
  if (!zx_find_pda(sseeds, 1, in->program_id, &pda, &slasher_bump)) return ERR(BAD_PDA);
  if (!zx_is_system_empty(config) || !zx_is_system_empty(vault)) return ERR(ALREADY_INITIALIZED);

  SolSignerSeeds csigner = {cseeds, 2}, vsigner = {vseeds, 2};
  uint64_t r = zx_create_account(admin, config, sizeof(challenge_Config), in->program_id, &csigner);
  if (r) return r;
  r = zx_create_account(admin, vault, ZX_TOKEN_ACCOUNT_LEN, &tok_id, &vsigner);
  if (r) return r;
  r = zx_init_token_account(token, vault, mint, config->key);
  if (r) return r;

  challenge_Config *c = (challenge_Config *)config->data;
  c->discriminator = CHALLENGE_CONFIG_DISC;
  c->admin = *admin->key;
  c->usdc_mint = *mint->key;
  c->treasury = ix->treasury;
  c->epoch_seconds = ix->epoch_seconds;
  c->vault = *vault->key;
  c->bump = cfg_bump;
  c->vault_bump = vault_bump;
  c->slasher_bump = slasher_bump;
  challenge_ev_Initialized ev = {CHALLENGE_EV_INITIALIZED_DISC, *admin->key, *mint->key, ix->treasury, *vault->key,
                                 ix->epoch_seconds};
  zx_emit(&ev, sizeof(ev));
  return ZX_SUCCESS;
}

/* The buffer account and its header, checked against the signing authority; NULL on mismatch. */
static challenge_Buffer *load_buffer(const SolAccountInfo *buffer, const SolAccountInfo *authority,
                                     const SolPubkey *program_id, uint64_t *err) {
  *err = ERR(BAD_BUFFER);
  if (!disc_is(buffer, program_id, CHALLENGE_BUFFER_DISC, BUFFER_HEADER) || !buffer->is_writable) return NULL;
  challenge_Buffer *b = (challenge_Buffer *)buffer->data;
  if (buffer->data_len < BUFFER_HEADER + (uint64_t)b->len) return NULL;
  *err = ERR(BUFFER_AUTHORITY);
  if (!authority->is_signer || !zx_key_eq(&b->authority, authority->key)) return NULL;
  return b;
}

static uint64_t init_buffer(const ZxInput *in) {
  if (in->accounts_len < CHALLENGE_INIT_BUFFER_NACCOUNTS) return ZX_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (in->data_len != sizeof(challenge_init_buffer_ix)) return ERR(BAD_ARGUMENT);
  const challenge_init_buffer_ix *ix = (const challenge_init_buffer_ix *)in->data;
  const SolAccountInfo *authority = &in->accounts[CHALLENGE_INIT_BUFFER_ACC_AUTHORITY];
  const SolAccountInfo *buffer = &in->accounts[CHALLENGE_INIT_BUFFER_ACC_BUFFER];
  if (!authority->is_signer) return ERR(MISSING_SIGNER);
  if (!zx_key_eq(buffer->owner, in->program_id) || !buffer->is_writable) return ERR(BAD_BUFFER);
  if (buffer->data_len < BUFFER_HEADER + (uint64_t)ix->len) return ERR(BAD_BUFFER);
  for (uint64_t i = 0; i < BUFFER_HEADER; i++) {
    if (buffer->data[i] != 0) return ERR(BAD_BUFFER); /* claimed already, or another account kind */
  }
  challenge_Buffer *b = (challenge_Buffer *)buffer->data;
  b->discriminator = CHALLENGE_BUFFER_DISC;
  b->authority = *authority->key;
  b->len = ix->len;
  challenge_ev_BufferInitialized ev;
  zx_memset(&ev, 0, sizeof(ev));
  ev.discriminator = CHALLENGE_EV_BUFFER_INITIALIZED_DISC;
  ev.buffer = *buffer->key;
  ev.authority = *authority->key;
  ev.len = ix->len;
  zx_emit(&ev, sizeof(ev));
  return ZX_SUCCESS;
}

static uint64_t write_buffer(const ZxInput *in) {
  if (in->accounts_len < CHALLENGE_WRITE_BUFFER_NACCOUNTS) return ZX_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (in->data_len < sizeof(challenge_write_buffer_ix)) return ERR(BAD_ARGUMENT);
  const challenge_write_buffer_ix *ix = (const challenge_write_buffer_ix *)in->data;
  const SolAccountInfo *authority = &in->accounts[CHALLENGE_WRITE_BUFFER_ACC_AUTHORITY];
  const SolAccountInfo *buffer = &in->accounts[CHALLENGE_WRITE_BUFFER_ACC_BUFFER];
  uint64_t err;
  challenge_Buffer *b = load_buffer(buffer, authority, in->program_id, &err);
  if (b == NULL) return err;
  uint64_t n = in->data_len - sizeof(challenge_write_buffer_ix);
  uint64_t off = ix->offset;
  if (off > b->len || n > (uint64_t)b->len - off) return ERR(BUFFER_RANGE);
  if (n) zx_memcpy(buffer->data + BUFFER_HEADER + off, in->data + sizeof(challenge_write_buffer_ix), n);
  challenge_ev_BufferWritten ev = {CHALLENGE_EV_BUFFER_WRITTEN_DISC, *buffer->key, (uint32_t)off, (uint32_t)n};
  zx_emit(&ev, sizeof(ev));
  return ZX_SUCCESS;
}

static uint64_t close_buffer(const ZxInput *in) {
  if (in->accounts_len < CHALLENGE_CLOSE_BUFFER_NACCOUNTS) return ZX_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  const SolAccountInfo *authority = &in->accounts[CHALLENGE_CLOSE_BUFFER_ACC_AUTHORITY];
  const SolAccountInfo *buffer = &in->accounts[CHALLENGE_CLOSE_BUFFER_ACC_BUFFER];
  uint64_t err;
  challenge_Buffer *b = load_buffer(buffer, authority, in->program_id, &err);
  if (b == NULL) return err;
  if (!authority->is_writable || zx_key_eq(authority->key, buffer->key)) return ERR(BAD_ACCOUNT);
  *authority->lamports += *buffer->lamports;
  *buffer->lamports = 0;
  zx_memset(buffer->data, 0, buffer->data_len);
  challenge_ev_BufferClosed ev = {CHALLENGE_EV_BUFFER_CLOSED_DISC, *buffer->key, *authority->key};
  zx_emit(&ev, sizeof(ev));
  return ZX_SUCCESS;
}

/* Creates AgentChallenges for `agent` when absent; returns it (or NULL with *err). */
static challenge_AgentChallenges *agent_counters(const ZxInput *in, const SolAccountInfo *payer, const SolAccountInfo *acc,
                                                 const SolPubkey *agent, uint64_t *err) {
  if (!zx_is_system_empty(acc)) {
    *err = ERR(BAD_PDA);
    return load_agent(acc, agent, in->program_id);
  }
  uint8_t bump;
  SolPubkey pda;
  SolSignerSeed seeds[3] = {ZX_SEED(CHALLENGE_SEED_AGENT), {agent->x, 32}, {&bump, 1}};
  if (!zx_find_pda(seeds, 2, in->program_id, &pda, &bump) || !zx_key_eq(&pda, acc->key)) {
    *err = ERR(BAD_PDA);
    return NULL;
  }
  SolSignerSeeds signer = {seeds, 3};
  *err = zx_create_account(payer, acc, sizeof(challenge_AgentChallenges), in->program_id, &signer);
  if (*err) return NULL;
  challenge_AgentChallenges *ac = (challenge_AgentChallenges *)acc->data;
  ac->discriminator = CHALLENGE_AGENT_CHALLENGES_DISC;
  ac->agent = *agent;
  ac->bump = bump;
  return ac;
}

static uint64_t submit_challenge(const ZxInput *in) {
  if (in->accounts_len < CHALLENGE_SUBMIT_CHALLENGE_NACCOUNTS) return ZX_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (in->data_len != sizeof(challenge_submit_challenge_ix)) return ERR(BAD_ARGUMENT);
  const challenge_submit_challenge_ix *ix = (const challenge_submit_challenge_ix *)in->data;
  const SolAccountInfo *challenger = &in->accounts[CHALLENGE_SUBMIT_CHALLENGE_ACC_CHALLENGER];
  const SolAccountInfo *usdc = &in->accounts[CHALLENGE_SUBMIT_CHALLENGE_ACC_CHALLENGER_USDC];
  const SolAccountInfo *config = &in->accounts[CHALLENGE_SUBMIT_CHALLENGE_ACC_CONFIG];
  const SolAccountInfo *batch_acc = &in->accounts[CHALLENGE_SUBMIT_CHALLENGE_ACC_BATCH];
  const SolAccountInfo *ch_acc = &in->accounts[CHALLENGE_SUBMIT_CHALLENGE_ACC_CHALLENGE];
  const SolAccountInfo *agent_acc = &in->accounts[CHALLENGE_SUBMIT_CHALLENGE_ACC_AGENT_CHALLENGES];
  const SolAccountInfo *vault = &in->accounts[CHALLENGE_SUBMIT_CHALLENGE_ACC_VAULT];
  const SolAccountInfo *token = &in->accounts[CHALLENGE_SUBMIT_CHALLENGE_ACC_TOKEN_PROGRAM];
  const SolAccountInfo *system = &in->accounts[CHALLENGE_SUBMIT_CHALLENGE_ACC_SYSTEM_PROGRAM];
  const SolPubkey sys_id = ZX_SYSTEM_PROGRAM_ID, tok_id = ZX_TOKEN_PROGRAM_ID;
  if (!challenger->is_signer) return ERR(MISSING_SIGNER);
  if (!zx_key_eq(system->key, &sys_id) || !zx_key_eq(token->key, &tok_id)) return ERR(BAD_ACCOUNT);
  const challenge_Config *cfg = load_config(config, in->program_id);
  if (cfg == NULL) return ERR(BAD_CONFIG);
  if (!zx_key_eq(vault->key, &cfg->vault)) return ERR(BAD_ACCOUNT);
  const behavior_log_BatchAccount *batch = load_batch(batch_acc);
  if (batch == NULL) return ERR(BAD_BATCH);

  SolClock clock;
  uint64_t now = now_epoch(cfg, &clock);
  if (now > batch->epoch + ZX_CHALLENGE_WINDOW_EPOCHS) return ERR(WINDOW_CLOSED);

  const ZxTokenAccountHead *t = zx_token_account(usdc, &tok_id);
  if (t == NULL || !zx_key_eq(&t->mint, &cfg->usdc_mint)) return ERR(BAD_ACCOUNT);
  if (t->amount < ZX_CHALLENGE_STAKE) return ERR(INSUFFICIENT_USDC);

  uint8_t bump;
  SolPubkey pda;
  SolSignerSeed seeds[4] = {ZX_SEED(CHALLENGE_SEED_CHALLENGE), {batch_acc->key->x, 32}, {challenger->key->x, 32}, {&bump, 1}};
  if (!zx_find_pda(seeds, 3, in->program_id, &pda, &bump) || !zx_key_eq(&pda, ch_acc->key)) return ERR(BAD_PDA);
  if (!zx_is_system_empty(ch_acc)) return ERR(CHALLENGE_EXISTS);

  uint64_t err;
  challenge_AgentChallenges *ac = agent_counters(in, challenger, agent_acc, &batch->agent, &err);
  if (ac == NULL) return err;

  zx_transfer_accounts tr = {token, usdc, vault, challenger};
  uint64_t r = zx_transfer(&tr, ZX_CHALLENGE_STAKE, NULL);
  if (r) return r;
  SolSignerSeeds signer = {seeds, 4};
  r = zx_create_account(challenger, ch_acc, sizeof(challenge_Challenge), in->program_id, &signer);
  if (r) return r;
  challenge_Challenge *ch = (challenge_Challenge *)ch_acc->data;
  ch->discriminator = CHALLENGE_CHALLENGE_DISC;
  ch->challenger = *challenger->key;
  ch->challenger_usdc = *usdc->key;
  ch->batch = *batch_acc->key;
  ch->agent = batch->agent;
  ch->epoch = batch->epoch;
  zx_memcpy(ch->leaf, ix->leaf, 32);
  ch->submitted_slot = clock.slot;
  ch->stake = ZX_CHALLENGE_STAKE;
  ch->status = ST_PENDING;
  ch->bump = bump;
  ac->pending += 1;
  ac->total += 1;

  challenge_ev_ChallengeSubmitted ev;
  zx_memset(&ev, 0, sizeof(ev));
  ev.discriminator = CHALLENGE_EV_CHALLENGE_SUBMITTED_DISC;
  ev.challenge = *ch_acc->key;
  ev.challenger = *challenger->key;
  ev.agent = batch->agent;
  ev.batch = *batch_acc->key;
  ev.epoch = batch->epoch;
  zx_memcpy(ev.leaf, ix->leaf, 32);
  ev.stake = ZX_CHALLENGE_STAKE;
  ev.slot = clock.slot;
  ev.pending = ac->pending;
  zx_emit(&ev, sizeof(ev));
  return ZX_SUCCESS;
}

static uint64_t expire_challenge(const ZxInput *in) {
  if (in->accounts_len < CHALLENGE_EXPIRE_CHALLENGE_NACCOUNTS) return ZX_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  const SolAccountInfo *config = &in->accounts[CHALLENGE_EXPIRE_CHALLENGE_ACC_CONFIG];
  const SolAccountInfo *ch_acc = &in->accounts[CHALLENGE_EXPIRE_CHALLENGE_ACC_CHALLENGE];
  const SolAccountInfo *agent_acc = &in->accounts[CHALLENGE_EXPIRE_CHALLENGE_ACC_AGENT_CHALLENGES];
  const SolAccountInfo *vault = &in->accounts[CHALLENGE_EXPIRE_CHALLENGE_ACC_VAULT];
  const SolAccountInfo *treasury = &in->accounts[CHALLENGE_EXPIRE_CHALLENGE_ACC_TREASURY];
  const SolAccountInfo *token = &in->accounts[CHALLENGE_EXPIRE_CHALLENGE_ACC_TOKEN_PROGRAM];
  const SolPubkey tok_id = ZX_TOKEN_PROGRAM_ID;
  const challenge_Config *cfg = load_config(config, in->program_id);
  if (cfg == NULL) return ERR(BAD_CONFIG);
  if (!zx_key_eq(token->key, &tok_id) || !zx_key_eq(vault->key, &cfg->vault) || !zx_key_eq(treasury->key, &cfg->treasury))
    return ERR(BAD_ACCOUNT);
  challenge_Challenge *ch = load_pending(ch_acc, in->program_id);
  if (ch == NULL) return ERR(BAD_ACCOUNT);
  if (ch->status != ST_PENDING) return ERR(NOT_PENDING);
  challenge_AgentChallenges *ac = load_agent(agent_acc, &ch->agent, in->program_id);
  if (ac == NULL || !agent_acc->is_writable) return ERR(BAD_PDA);
  SolClock clock;
  uint64_t now = now_epoch(cfg, &clock);
  if (now <= ch->epoch + 2 * ZX_CHALLENGE_WINDOW_EPOCHS) return ERR(NOT_EXPIRED);
  uint64_t r = vault_pay(token, vault, treasury, config, ch->stake);
  if (r) return r;
  ch->status = ST_EXPIRED;
  ch->reason = RS_EXPIRED;
  ch->resolved_slot = clock.slot;
  if (ac->pending > 0) ac->pending -= 1;
  emit_resolved(ch_acc, ch, 0, ch->stake, ac->pending);
  return ZX_SUCCESS;
}

uint64_t entrypoint(const uint8_t *input) {
  ZxInput in;
  if (!zx_deserialize(input, &in)) return ZX_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  if (in.data_len < 1) return ERR(BAD_ARGUMENT);
  switch (in.data[0]) {
    case CHALLENGE_IX_INITIALIZE:
      return initialize(&in);
    case CHALLENGE_IX_INIT_BUFFER:
      return init_buffer(&in);
    case CHALLENGE_IX_WRITE_BUFFER:
      return write_buffer(&in);
    case CHALLENGE_IX_CLOSE_BUFFER:
      return close_buffer(&in);
    case CHALLENGE_IX_SUBMIT_CHALLENGE:
      return submit_challenge(&in);
    case CHALLENGE_IX_RESOLVE_CHALLENGE:
      return resolve_challenge(&in);
    case CHALLENGE_IX_EXPIRE_CHALLENGE:
      return expire_challenge(&in);
    default:
      return ERR(BAD_ARGUMENT);
  }
}
