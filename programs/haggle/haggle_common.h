/*
 * haggle_common.h: what the Haggle instruction files share: states and sides, loading a
 * Negotiation, the clock rules, basis-point arithmetic, and the vault's PDA-signed CPIs.
 * Interpretations (what min_offer_bps is relative to, decay rounding, the response window) are
 * in programs/README.md "Haggle".
 */
#ifndef HAGGLE_COMMON_H
#define HAGGLE_COMMON_H
#include "zerox1.h"
#include "haggle.h"

/* Negotiation.status. 4..7 never stay in an account: the instruction that reaches them closes it. */
#define ST_CREATED 1
#define ST_PROPOSED 2
#define ST_COUNTERED 3
#define ST_ACCEPTED 4
#define ST_SETTLED 5
#define ST_EXPIRED 6
#define ST_REJECTED 7

#define SIDE_BUYER 1
#define SIDE_SELLER 2

/* Negotiation.sealed bits. */
#define SEALED_BUYER_COMMITTED 1
#define SEALED_SELLER_COMMITTED 2
#define SEALED_BUYER_REVEALED 4
#define SEALED_SELLER_REVEALED 8

/* NegotiationRefunded.reason */
#define REASON_REJECTED 1
#define REASON_DEADLINE 2
#define REASON_WINDOW 3
#define REASON_NO_ZOPA 4

/* create_negotiation parameter ranges (NEG1's own ranges for max_rounds and decay_bps, docs/protocol.md §8). */
#define MAX_ROUNDS_MAX 20
#define DECAY_BPS_MAX 1000
#define WINDOW_MIN 60
#define WINDOW_MAX 3600
#define DEADLINE_MIN 60
#define DEADLINE_MAX 86400
#define FEE_BPS_MAX 500
#define BPS 10000

#define REQUIRE(cond, err) \
  do {                     \
    if (!(cond)) return (err); \
  } while (0)

/*
 * A writable Negotiation account of this program into *out. It only ever exists at its PDA (created
 * there by create_negotiation), so owner + discriminator identify it; a closed one is NoNegotiation.
 */
static inline uint64_t hg_open(const SolAccountInfo *a, const SolPubkey *pid, haggle_Negotiation **out) {
  REQUIRE(zx_key_eq(a->owner, pid) && a->data_len >= sizeof(haggle_Negotiation), HAGGLE_ERR_NO_NEGOTIATION);
  haggle_Negotiation *n = (haggle_Negotiation *)a->data;
  REQUIRE(n->discriminator == HAGGLE_NEGOTIATION_DISC, HAGGLE_ERR_NO_NEGOTIATION);
  REQUIRE(a->is_writable, HAGGLE_ERR_NOT_WRITABLE);
  *out = n;
  return 0;
}

static inline const haggle_HaggleConfig *hg_config(const SolAccountInfo *a, const SolPubkey *pid) {
  if (!zx_key_eq(a->owner, pid) || a->data_len < sizeof(haggle_HaggleConfig)) return NULL;
  const haggle_HaggleConfig *c = (const haggle_HaggleConfig *)a->data;
  return c->discriminator == HAGGLE_HAGGLE_CONFIG_DISC ? c : NULL;
}

/* SIDE_BUYER / SIDE_SELLER for a signer that is one of the two parties, 0 otherwise. */
static inline uint8_t hg_side(const haggle_Negotiation *n, const SolAccountInfo *signer) {
  if (!signer->is_signer) return 0;
  if (zx_key_eq(signer->key, &n->buyer)) return SIDE_BUYER;
  if (zx_key_eq(signer->key, &n->seller)) return SIDE_SELLER;
  return 0;
}

/*
 * The negotiation is still live at `now`: on or before the global deadline and within the
 * response window counted from the last offer (or creation / the seller joining). Both bounds are
 * inclusive, so `expire` is possible from the second after.
 */
static inline uint64_t hg_check_live(const haggle_Negotiation *n, int64_t now) {
  REQUIRE(now <= n->deadline, HAGGLE_ERR_DEADLINE_PASSED);
  REQUIRE(now <= n->last_action_at + (int64_t)n->response_window, HAGGLE_ERR_RESPONSE_WINDOW_MISSED);
  return 0;
}

/* floor(amount * bps / 10000) without overflow for any u64 amount and bps <= 10000 (no 128-bit division in BPF). */
static inline uint64_t hg_bps(uint64_t amount, uint64_t bps) {
  return (amount / BPS) * bps + ((amount % BPS) * bps) / BPS;
}

/* Seeds of the Negotiation PDA, bump included: [b"negotiation", buyer, seller, conversation_id]. */
typedef struct {
  SolSignerSeed s[5];
  uint8_t bump;
} HgNegSeeds;

static inline void hg_neg_seeds(HgNegSeeds *out, const SolPubkey *buyer, const SolPubkey *seller, const uint8_t *conv,
                                uint8_t bump) {
  out->bump = bump;
  out->s[0] = (SolSignerSeed)ZX_SEED(HAGGLE_SEED_NEGOTIATION);
  out->s[1] = (SolSignerSeed){buyer->x, 32};
  out->s[2] = (SolSignerSeed){seller->x, 32};
  out->s[3] = (SolSignerSeed){conv, 16};
  out->s[4] = (SolSignerSeed){&out->bump, 1};
}

/* The accounts that move money out of a negotiation's vault (its authority is the Negotiation PDA). */
typedef struct {
  const SolAccountInfo *token_program;
  const SolAccountInfo *negotiation;
  const SolAccountInfo *vault;
  const SolAccountInfo *buyer;
  const SolAccountInfo *buyer_usdc;
} HgVault;

/* Checks the token program, the vault and the buyer's accounts against the negotiation. */
static inline uint64_t hg_check_vault(const HgVault *v, const haggle_Negotiation *n) {
  const SolPubkey token = ZX_TOKEN_PROGRAM_ID;
  REQUIRE(zx_key_eq(v->token_program->key, &token), HAGGLE_ERR_WRONG_PROGRAM);
  REQUIRE(zx_key_eq(v->vault->key, &n->vault), HAGGLE_ERR_WRONG_VAULT);
  REQUIRE(v->vault->is_writable && v->buyer->is_writable, HAGGLE_ERR_NOT_WRITABLE);
  REQUIRE(zx_key_eq(v->buyer->key, &n->buyer), HAGGLE_ERR_WRONG_TOKEN_OWNER);
  const ZxTokenAccountHead *vh = zx_token_account(v->vault, &token);
  REQUIRE(vh != NULL, HAGGLE_ERR_WRONG_VAULT);
  const ZxTokenAccountHead *bh = zx_token_account(v->buyer_usdc, &token);
  REQUIRE(bh != NULL && zx_key_eq(&bh->mint, &vh->mint), HAGGLE_ERR_WRONG_MINT);
  REQUIRE(zx_key_eq(&bh->owner, &n->buyer), HAGGLE_ERR_WRONG_TOKEN_OWNER);
  return 0;
}

/* What the vault really holds: anyone can transfer into it, and every unit must leave before it closes. */
static inline uint64_t hg_vault_balance(const HgVault *v) { return ((const ZxTokenAccountHead *)v->vault->data)->amount; }

/* Transfer of `amount` out of the vault, signed by the Negotiation PDA; nothing to do for 0. */
static inline uint64_t hg_vault_pay(const HgVault *v, const haggle_Negotiation *n, const SolAccountInfo *to, uint64_t amount) {
  if (amount == 0) return 0;
  HgNegSeeds seeds;
  hg_neg_seeds(&seeds, &n->buyer, &n->seller, n->conversation_id, n->bump);
  SolSignerSeeds signer = {seeds.s, 5};
  return zx_transfer(&(zx_transfer_accounts){v->token_program, v->vault, to, v->negotiation}, amount, &signer);
}

/*
 * Closes the (empty) vault with SPL Token `CloseAccount` (tag 9), its rent to the buyer, then the
 * Negotiation account itself: lamports to the buyer, data zeroed and resized to 0, owner back to
 * the System program, so the same conversation can be negotiated again and nothing reads stale state.
 */
static inline uint64_t hg_close(const HgVault *v, const haggle_Negotiation *n) {
  HgNegSeeds seeds;
  hg_neg_seeds(&seeds, &n->buyer, &n->seller, n->conversation_id, n->bump);
  SolSignerSeeds signer = {seeds.s, 5};
  uint8_t data[1] = {9};
  SolAccountMeta metas[3] = {{v->vault->key, true, false}, {v->buyer->key, true, false}, {v->negotiation->key, false, true}};
  SolInstruction ix = {v->token_program->key, metas, 3, data, 1};
  SolAccountInfo infos[4] = {*v->vault, *v->buyer, *v->negotiation, *v->token_program};
  uint64_t rc = sol_invoke_signed_c(&ix, infos, 4, &signer, 1);
  if (rc != 0) return rc;
  const SolAccountInfo *a = v->negotiation;
  *v->buyer->lamports += *a->lamports;
  *a->lamports = 0;
  zx_memset(a->data, 0, a->data_len);
  *(uint64_t *)(a->data - 8) = 0; /* serialized data length: the runtime resizes the account to it */
  zx_memset(a->owner, 0, 32);
  return 0;
}

/* Instruction handlers (one translation unit each group; haggle.c dispatches). */
uint64_t hg_submit_offer(const ZxInput *in);
uint64_t hg_accept_offer(const ZxInput *in);
uint64_t hg_commit_reservation(const ZxInput *in);
uint64_t hg_reveal_reservation(const ZxInput *in);
uint64_t hg_reject(const ZxInput *in);
uint64_t hg_expire(const ZxInput *in);
/* Pays the vault's whole balance back to the buyer, closes everything, emits NegotiationRefunded. */
uint64_t hg_refund(const HgVault *v, haggle_Negotiation *n, uint8_t status, uint8_t reason, uint8_t side);

#endif /* HAGGLE_COMMON_H */
