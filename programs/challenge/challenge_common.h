/*
 * Shared by challenge.c and resolve.c: account loading and checks of the Challenge program.
 */
#ifndef CHALLENGE_COMMON_H
#define CHALLENGE_COMMON_H

/* resolve_challenge names 17 accounts (the last, the challenger's wallet, receives the buffer's rent). */
#define ZX_MAX_ACCOUNTS 17
#include "zerox1.h"
#include "constants.h"
#include "challenge.h"
#include "behavior_log.h"

#define ERR(name) CHALLENGE_ERR_##name

/* Challenge.status */
#define ST_PENDING 0
#define ST_UPHELD 1
#define ST_REJECTED 2
#define ST_VOID 3
#define ST_EXPIRED 4

/* Challenge.reason: zx_judge.h ZXJ_* codes, and this one (programs/README.md, "Challenge outcomes") */
#define RS_EXPIRED 30

#define BUFFER_HEADER sizeof(challenge_Buffer)

static inline bool disc_is(const SolAccountInfo *a, const SolPubkey *owner, uint64_t disc, uint64_t size) {
  return zx_key_eq(a->owner, owner) && a->data_len >= size && *(const uint64_t *)a->data == disc;
}

/* The initialized Config PDA of this program, or NULL. */
static const challenge_Config *load_config(const SolAccountInfo *a, const SolPubkey *program_id) {
  if (!disc_is(a, program_id, CHALLENGE_CONFIG_DISC, sizeof(challenge_Config))) return NULL;
  const challenge_Config *c = (const challenge_Config *)a->data;
  uint8_t bump = c->bump;
  SolSignerSeed seeds[2] = {ZX_SEED(CHALLENGE_SEED_CONFIG), {&bump, 1}};
  if (!zx_check_pda(a->key, seeds, 2, program_id)) return NULL;
  return c;
}

/* A behavior_log BatchAccount, or NULL. */
static const behavior_log_BatchAccount *load_batch(const SolAccountInfo *a) {
  const SolPubkey bl = ZX_BEHAVIOR_LOG_PROGRAM_ID;
  if (!disc_is(a, &bl, BEHAVIOR_LOG_BATCH_ACCOUNT_DISC, sizeof(behavior_log_BatchAccount))) return NULL;
  return (const behavior_log_BatchAccount *)a->data;
}

/* The AgentChallenges PDA of `agent` (existing), or NULL. */
static challenge_AgentChallenges *load_agent(const SolAccountInfo *a, const SolPubkey *agent, const SolPubkey *program_id) {
  if (!disc_is(a, program_id, CHALLENGE_AGENT_CHALLENGES_DISC, sizeof(challenge_AgentChallenges))) return NULL;
  challenge_AgentChallenges *ac = (challenge_AgentChallenges *)a->data;
  if (!zx_key_eq(&ac->agent, agent)) return NULL;
  uint8_t bump = ac->bump;
  SolSignerSeed seeds[3] = {ZX_SEED(CHALLENGE_SEED_AGENT), {agent->x, 32}, {&bump, 1}};
  if (!zx_check_pda(a->key, seeds, 3, program_id)) return NULL;
  return ac;
}

/* A pending Challenge account of this program, or NULL. */
static challenge_Challenge *load_pending(const SolAccountInfo *a, const SolPubkey *program_id) {
  if (!a->is_writable || !disc_is(a, program_id, CHALLENGE_CHALLENGE_DISC, sizeof(challenge_Challenge))) return NULL;
  return (challenge_Challenge *)a->data;
}

/* Moves `amount` out of the vault, signed by the config PDA (the vault's owner). */
static uint64_t vault_pay(const SolAccountInfo *token_program, const SolAccountInfo *vault, const SolAccountInfo *to,
                          const SolAccountInfo *config, uint64_t amount) {
  const challenge_Config *c = (const challenge_Config *)config->data;
  uint8_t bump = c->bump;
  SolSignerSeed seeds[2] = {ZX_SEED(CHALLENGE_SEED_CONFIG), {&bump, 1}};
  SolSignerSeeds signer = {seeds, 2};
  zx_transfer_accounts t = {token_program, vault, to, config};
  return zx_transfer(&t, amount, &signer);
}

/* Current protocol epoch under this program's config. */
static inline uint64_t now_epoch(const challenge_Config *c, SolClock *clock) {
  *clock = zx_clock();
  return zx_epoch(clock, c->epoch_seconds);
}

/* Emits ChallengeResolved for a challenge that just left ST_PENDING. */
static void emit_resolved(const SolAccountInfo *challenge_acc, const challenge_Challenge *ch, uint64_t returned,
                          uint64_t to_treasury, uint32_t pending) {
  challenge_ev_ChallengeResolved ev;
  zx_memset(&ev, 0, sizeof(ev));
  ev.discriminator = CHALLENGE_EV_CHALLENGE_RESOLVED_DISC;
  ev.challenge = *challenge_acc->key;
  ev.challenger = ch->challenger;
  ev.agent = ch->agent;
  ev.batch = ch->batch;
  ev.epoch = ch->epoch;
  ev.slot = ch->resolved_slot;
  ev.stake_returned = returned;
  ev.stake_to_treasury = to_treasury;
  ev.pending = pending;
  ev.status = ch->status;
  ev.reason = ch->reason;
  zx_emit(&ev, sizeof(ev));
}

#endif
