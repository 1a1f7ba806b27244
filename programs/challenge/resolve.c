/*
 * resolve_challenge (0x01 spec §10.4, §8.6): permissionless, after the challenge window.
 *
 * The challenger's buffer holds, after its 48-byte header:
 *   u32 entry_len | entry | u32 payload_len | payload | u32 leaf_index | u8 depth |
 *   depth x 32-byte siblings | the batch's canonical CBOR (to the buffer's len).
 * Authentication failures are errors (the transaction fails, nothing moves): entry keccak !=
 * committed leaf, bad merkle proof, no Ed25519 verification of the entry by the batch signer,
 * payload not matching payload_hash, keccak(batch bytes) != batch_hash. Once everything is
 * authentic the outcome is decided by zx_judge (zx_judge.h): upheld → stake_lock.slash and the
 * stake back, rejected → the stake to the treasury, void → the stake back. The buffer is then
 * closed and its lamports go to the challenger's wallet (account `challenger`, checked against
 * the Challenge), so the evidence's rent comes back whoever resolves.
 */
#include "challenge_common.h"
#include "zx_judge.h"
#include "zx_merkle.h"
#include "zx_ed25519.h"

static void zx_keccak2(const uint8_t *a, uint64_t na, const uint8_t *b, uint64_t nb, uint8_t *out) {
  SolBytes s[2] = {{a, na}, {b, nb}};
  sol_keccak256(s, 2, out);
}

typedef struct {
  const uint8_t *entry;
  uint64_t entry_len;
  const uint8_t *payload;
  uint64_t payload_len;
  uint64_t index;
  uint64_t depth;
  const uint8_t *siblings;
  const uint8_t *batch;
  uint64_t batch_len;
} evidence;

static inline uint64_t rd32(const uint8_t *p) {
  return (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24);
}

/* Splits the buffer's data into its sections; 1 when they do not fit `len`. */
static int parse_evidence(const uint8_t *p, uint64_t len, evidence *ev) {
  uint64_t o = 0;
  if (len < 4) return 1;
  ev->entry_len = rd32(p);
  o = 4;
  if (ev->entry_len > len - o) return 1;
  ev->entry = p + o;
  o += ev->entry_len;
  if (len - o < 4) return 1;
  ev->payload_len = rd32(p + o);
  o += 4;
  if (ev->payload_len > len - o) return 1;
  ev->payload = p + o;
  o += ev->payload_len;
  if (len - o < 5) return 1;
  ev->index = rd32(p + o);
  ev->depth = p[o + 4];
  o += 5;
  if (ev->depth > 32 || ev->depth * 32 > len - o) return 1;
  ev->siblings = p + o;
  o += ev->depth * 32;
  ev->batch = p + o;
  ev->batch_len = len - o;
  return 0;
}

/* True when the agent has a stake that slash can take (stake_lock Stake: amount @72, status @96). */
static bool has_stake(const SolAccountInfo *stake) {
  const SolPubkey sl = ZX_STAKE_LOCK_PROGRAM_ID;
  if (!zx_key_eq(stake->owner, &sl) || stake->data_len < 97) return false;
  uint64_t amount = *(const uint64_t *)(stake->data + 72);
  uint8_t status = stake->data[96];
  return amount > 0 && (status == 1 || status == 2);
}

/* CPI stake_lock.slash (tag 4) signed by this program's PDA [b"slasher"]. */
static uint64_t cpi_slash(const ZxInput *in, const challenge_Config *cfg) {
  const SolAccountInfo *a = in->accounts;
  uint8_t bump = cfg->slasher_bump;
  SolSignerSeed seeds[2] = {ZX_SEED(CHALLENGE_SEED_SLASHER), {&bump, 1}};
  SolSignerSeeds signer = {seeds, 2};
  const SolAccountInfo *slasher = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_SLASHER];
  const SolAccountInfo *scfg = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_STAKE_CONFIG];
  const SolAccountInfo *stake = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_STAKE];
  const SolAccountInfo *svault = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_STAKE_VAULT];
  const SolAccountInfo *usdc = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_CHALLENGER_USDC];
  const SolAccountInfo *treasury = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_TREASURY];
  const SolAccountInfo *sauth = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_STAKE_VAULT_AUTHORITY];
  const SolAccountInfo *token = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_TOKEN_PROGRAM];
  const SolAccountInfo *prog = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_STAKE_LOCK_PROGRAM];
  SolAccountMeta metas[8] = {{slasher->key, false, true}, {scfg->key, false, false}, {stake->key, true, false},
                             {svault->key, true, false},  {usdc->key, true, false},  {treasury->key, true, false},
                             {sauth->key, false, false},  {token->key, false, false}};
  uint8_t data[1] = {4};
  SolInstruction ix = {prog->key, metas, 8, data, 1};
  SolAccountInfo infos[9] = {*slasher, *scfg, *stake, *svault, *usdc, *treasury, *sauth, *token, *prog};
  return sol_invoke_signed_c(&ix, infos, 9, &signer, 1);
}

/* Fixed-account checks; returns 0 or an error code. */
static uint64_t check_accounts(const ZxInput *in, const challenge_Config *cfg, const challenge_Challenge *ch) {
  const SolAccountInfo *a = in->accounts;
  const SolPubkey tok = ZX_TOKEN_PROGRAM_ID, ixs = ZX_INSTRUCTIONS_SYSVAR_ID, sl = ZX_STAKE_LOCK_PROGRAM_ID;
  if (!zx_key_eq(a[CHALLENGE_RESOLVE_CHALLENGE_ACC_VAULT].key, &cfg->vault)) return ERR(BAD_ACCOUNT);
  if (!zx_key_eq(a[CHALLENGE_RESOLVE_CHALLENGE_ACC_TREASURY].key, &cfg->treasury)) return ERR(BAD_ACCOUNT);
  if (!zx_key_eq(a[CHALLENGE_RESOLVE_CHALLENGE_ACC_CHALLENGER_USDC].key, &ch->challenger_usdc)) return ERR(BAD_ACCOUNT);
  if (!zx_key_eq(a[CHALLENGE_RESOLVE_CHALLENGE_ACC_TOKEN_PROGRAM].key, &tok)) return ERR(BAD_ACCOUNT);
  if (!zx_key_eq(a[CHALLENGE_RESOLVE_CHALLENGE_ACC_INSTRUCTIONS].key, &ixs)) return ERR(BAD_ACCOUNT);
  if (!zx_key_eq(a[CHALLENGE_RESOLVE_CHALLENGE_ACC_STAKE_LOCK_PROGRAM].key, &sl)) return ERR(BAD_ACCOUNT);
  if (!zx_key_eq(a[CHALLENGE_RESOLVE_CHALLENGE_ACC_BATCH].key, &ch->batch)) return ERR(BAD_BATCH);
  const SolAccountInfo *challenger = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_CHALLENGER];
  if (!zx_key_eq(challenger->key, &ch->challenger) || !challenger->is_writable) return ERR(BAD_ACCOUNT);
  uint8_t bump = cfg->slasher_bump;
  SolSignerSeed seeds[2] = {ZX_SEED(CHALLENGE_SEED_SLASHER), {&bump, 1}};
  if (!zx_check_pda(a[CHALLENGE_RESOLVE_CHALLENGE_ACC_SLASHER].key, seeds, 2, in->program_id)) return ERR(BAD_PDA);
  return 0;
}

/* Authenticates the evidence; fills the entry and the judge's inputs. Returns 0 or an error. */
static uint64_t authenticate(const ZxInput *in, const behavior_log_BatchAccount *batch, const challenge_Challenge *ch,
                             const evidence *ev, zx_entry *e) {
  uint8_t h[32];
  zx_keccak2(ev->entry, ev->entry_len, 0, 0, h);
  if (!zx_bytes_eq(h, ch->leaf, 32)) return ERR(LEAF_MISMATCH);
  if (zx_merkle_verify(h, ev->index, ev->siblings, ev->depth, batch->log_merkle_root)) return ERR(BAD_PROOF);
  if (zx_entry_read(ev->entry, ev->entry_len, e)) return ERR(BAD_ENTRY);
  /* signature preimage = 0x8a || entry items 0..9 (docs/protocol.md §2) */
  const uint8_t head = 0x8a;
  zx_ed_expect x = {batch->signer.x, e->signature, &head, 1, ev->entry + 1, e->preimage_end - 1};
  const SolAccountInfo *ixs = &in->accounts[CHALLENGE_RESOLVE_CHALLENGE_ACC_INSTRUCTIONS];
  if (zx_ed25519_check(ixs->data, ixs->data_len, &x)) return ERR(BAD_ENTRY_SIGNATURE);
  zx_keccak2(ev->batch, ev->batch_len, 0, 0, h);
  if (!zx_bytes_eq(h, batch->batch_hash, 32)) return ERR(BUFFER_HASH_MISMATCH);
  return 0;
}

/* The payload to judge: the challenger's when given, else the entry's own; checked against the header. */
static uint64_t pick_payload(const evidence *ev, const zx_entry *e, const uint8_t **p, uint64_t *n) {
  *p = ev->payload_len ? ev->payload : e->payload;
  *n = ev->payload_len ? ev->payload_len : e->payload_n;
  if (*n == 0) return 0; /* elided and not supplied: judged without it */
  uint8_t h[32];
  zx_keccak2(*p, *n, 0, 0, h);
  if (*n != e->payload_len || !zx_bytes_eq(h, e->payload_hash, 32)) return ERR(PAYLOAD_MISMATCH);
  return 0;
}

uint64_t resolve_challenge(const ZxInput *in) {
  if (in->accounts_len < CHALLENGE_RESOLVE_CHALLENGE_NACCOUNTS) return ZX_ERROR_NOT_ENOUGH_ACCOUNT_KEYS;
  const SolAccountInfo *a = in->accounts;
  const SolAccountInfo *config = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_CONFIG];
  const SolAccountInfo *ch_acc = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_CHALLENGE];
  const SolAccountInfo *buf_acc = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_BUFFER];
  const challenge_Config *cfg = load_config(config, in->program_id);
  if (cfg == NULL) return ERR(BAD_CONFIG);
  challenge_Challenge *ch = load_pending(ch_acc, in->program_id);
  if (ch == NULL) return ERR(BAD_ACCOUNT);
  if (ch->status != ST_PENDING) return ERR(NOT_PENDING);
  uint64_t r = check_accounts(in, cfg, ch);
  if (r) return r;
  const behavior_log_BatchAccount *batch = load_batch(&a[CHALLENGE_RESOLVE_CHALLENGE_ACC_BATCH]);
  if (batch == NULL) return ERR(BAD_BATCH);
  const SolAccountInfo *agent_acc = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_AGENT_CHALLENGES];
  challenge_AgentChallenges *ac = load_agent(agent_acc, &ch->agent, in->program_id);
  if (ac == NULL || !agent_acc->is_writable) return ERR(BAD_PDA);

  SolClock clock;
  uint64_t now = now_epoch(cfg, &clock);
  if (now <= ch->epoch + ZX_CHALLENGE_WINDOW_EPOCHS) return ERR(WINDOW_OPEN);

  /* the challenger's buffer */
  if (!disc_is(buf_acc, in->program_id, CHALLENGE_BUFFER_DISC, BUFFER_HEADER) || !buf_acc->is_writable) return ERR(BAD_BUFFER);
  const challenge_Buffer *buf = (const challenge_Buffer *)buf_acc->data;
  if (!zx_key_eq(&buf->authority, &ch->challenger)) return ERR(BUFFER_AUTHORITY);
  if (buf_acc->data_len < BUFFER_HEADER + (uint64_t)buf->len) return ERR(BAD_BUFFER);
  evidence ev;
  if (parse_evidence(buf_acc->data + BUFFER_HEADER, buf->len, &ev)) return ERR(BAD_EVIDENCE);

  zx_entry e;
  r = authenticate(in, batch, ch, &ev, &e);
  if (r) return r;
  zx_judge_in j;
  r = pick_payload(&ev, &e, &j.payload, &j.payload_n);
  if (r) return r;
  zx_commit commit = {batch->agent.x, batch->log_merkle_root, batch->epoch};
  j.entry = &e;
  j.batch = ev.batch;
  j.batch_len = ev.batch_len;
  j.commit = &commit;
  uint64_t reason;
  uint64_t verdict = zx_judge(&j, &reason);

  const SolAccountInfo *token = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_TOKEN_PROGRAM];
  const SolAccountInfo *vault = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_VAULT];
  const SolAccountInfo *usdc = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_CHALLENGER_USDC];
  const SolAccountInfo *treasury = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_TREASURY];
  uint64_t returned = 0, to_treasury = 0;
  if (verdict == ZXJ_UPHELD && has_stake(&a[CHALLENGE_RESOLVE_CHALLENGE_ACC_STAKE])) {
    r = cpi_slash(in, cfg);
    if (r) return ERR(SLASH_FAILED);
  }
  if (verdict == ZXJ_REJECTED) {
    r = vault_pay(token, vault, treasury, config, ch->stake);
    to_treasury = ch->stake;
  } else {
    r = vault_pay(token, vault, usdc, config, ch->stake);
    returned = ch->stake;
  }
  if (r) return r;
  ch->status = (uint8_t)verdict; /* ZXJ_* equal ST_UPHELD / ST_REJECTED / ST_VOID */
  ch->reason = (uint8_t)reason;
  ch->resolved_slot = clock.slot;
  if (ac->pending > 0) ac->pending -= 1;
  if (verdict == ZXJ_UPHELD) ac->upheld += 1;
  emit_resolved(ch_acc, ch, returned, to_treasury, ac->pending);
  /* The evidence served its one purpose (its batch bytes hash to this challenge's batch only):
   * close the buffer so its rent goes back to the challenger whoever resolves. */
  const SolAccountInfo *challenger = &a[CHALLENGE_RESOLVE_CHALLENGE_ACC_CHALLENGER];
  if (!zx_key_eq(challenger->key, buf_acc->key)) {
    *challenger->lamports += *buf_acc->lamports;
    *buf_acc->lamports = 0;
    zx_memset(buf_acc->data, 0, buf_acc->data_len);
    challenge_ev_BufferClosed bev = {CHALLENGE_EV_BUFFER_CLOSED_DISC, *buf_acc->key, *challenger->key};
    zx_emit(&bev, sizeof(bev));
  }
  return ZX_SUCCESS;
}
