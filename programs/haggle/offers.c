/*
 * Haggle offers: submit_offer (alternating sides, one round each, the round's decay to the
 * treasury) and accept_offer (Accepted -> Settled in one instruction: the agreed amount minus the
 * protocol fee to the seller, the fee to the treasury, the rest of the vault and all rent to the
 * buyer).
 */
#include "haggle_common.h"

/* The treasury passed is the configured one. */
static uint64_t check_treasury(const SolAccountInfo *config, const SolAccountInfo *treasury, const SolPubkey *pid) {
  const haggle_HaggleConfig *cfg = hg_config(config, pid);
  REQUIRE(cfg != NULL, HAGGLE_ERR_NOT_INITIALIZED);
  REQUIRE(zx_key_eq(treasury->key, &cfg->treasury), HAGGLE_ERR_WRONG_TREASURY);
  REQUIRE(treasury->is_writable, HAGGLE_ERR_NOT_WRITABLE);
  return 0;
}

uint64_t hg_submit_offer(const ZxInput *in) {
  REQUIRE(in->accounts_len >= HAGGLE_SUBMIT_OFFER_NACCOUNTS, HAGGLE_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(haggle_submit_offer_ix), HAGGLE_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *party = &in->accounts[HAGGLE_SUBMIT_OFFER_ACC_PARTY];
  const SolAccountInfo *treasury = &in->accounts[HAGGLE_SUBMIT_OFFER_ACC_TREASURY];
  const SolAccountInfo *negotiation = &in->accounts[HAGGLE_SUBMIT_OFFER_ACC_NEGOTIATION];
  /* Only the token program and the vault of HgVault are used to pay the decay. */
  HgVault v = {&in->accounts[HAGGLE_SUBMIT_OFFER_ACC_TOKEN_PROGRAM], negotiation, &in->accounts[HAGGLE_SUBMIT_OFFER_ACC_VAULT],
               NULL, NULL};
  const haggle_submit_offer_ix *args = (const haggle_submit_offer_ix *)in->data;

  haggle_Negotiation *n;
  uint64_t rc = hg_open(negotiation, in->program_id, &n);
  if (rc != 0) return rc;
  uint8_t side = hg_side(n, party);
  REQUIRE(side != 0, HAGGLE_ERR_NOT_PARTY);
  REQUIRE(n->joined, HAGGLE_ERR_NOT_JOINED);
  REQUIRE(n->last_offer_by != side, HAGGLE_ERR_WRONG_SIDE);
  SolClock clock = zx_clock();
  rc = hg_check_live(n, clock.unix_timestamp);
  if (rc != 0) return rc;
  REQUIRE(n->round < n->max_rounds, HAGGLE_ERR_MAX_ROUNDS_REACHED);
  uint64_t amount = args->amount;
  REQUIRE(amount >= hg_bps(n->deposit, n->min_offer_bps), HAGGLE_ERR_OFFER_BELOW_MINIMUM);
  uint64_t decay = hg_bps(n->escrow, n->decay_bps);
  REQUIRE(amount <= n->escrow - decay, HAGGLE_ERR_OFFER_ABOVE_ESCROW);
  rc = check_treasury(&in->accounts[HAGGLE_SUBMIT_OFFER_ACC_CONFIG], treasury, in->program_id);
  if (rc != 0) return rc;
  const SolPubkey token = ZX_TOKEN_PROGRAM_ID;
  REQUIRE(zx_key_eq(v.token_program->key, &token), HAGGLE_ERR_WRONG_PROGRAM);
  REQUIRE(zx_key_eq(v.vault->key, &n->vault), HAGGLE_ERR_WRONG_VAULT);
  REQUIRE(v.vault->is_writable, HAGGLE_ERR_NOT_WRITABLE);
  rc = hg_vault_pay(&v, n, treasury, decay);
  if (rc != 0) return rc;

  if (n->opener == 0) n->opener = side;
  n->round += 1;
  n->escrow -= decay;
  n->decayed += decay;
  n->current_offer = amount;
  n->last_offer_by = side;
  n->status = side == n->opener ? ST_PROPOSED : ST_COUNTERED;
  n->last_action_at = clock.unix_timestamp;

  haggle_ev_OfferSubmitted ev;
  ev.discriminator = HAGGLE_EV_OFFER_SUBMITTED_DISC;
  ev.negotiation = *negotiation->key;
  zx_memcpy(ev.conversation_id, n->conversation_id, 16);
  ev.amount = amount;
  ev.decay = decay;
  ev.escrow = n->escrow;
  ev.at = clock.unix_timestamp;
  ev.side = side;
  ev.round = n->round;
  ev.status = n->status;
  zx_memcpy(ev.metadata, args->metadata, 64);
  zx_emit(&ev, sizeof ev);
  return ZX_SUCCESS;
}

/* The seller's payout account: an SPL Token account of the vault's mint owned by the seller. */
static uint64_t check_seller_usdc(const HgVault *v, const SolAccountInfo *seller_usdc, const haggle_Negotiation *n) {
  const SolPubkey token = ZX_TOKEN_PROGRAM_ID;
  const ZxTokenAccountHead *vh = (const ZxTokenAccountHead *)v->vault->data;
  const ZxTokenAccountHead *sh = zx_token_account(seller_usdc, &token);
  REQUIRE(sh != NULL && zx_key_eq(&sh->mint, &vh->mint), HAGGLE_ERR_WRONG_MINT);
  REQUIRE(zx_key_eq(&sh->owner, &n->seller), HAGGLE_ERR_WRONG_TOKEN_OWNER);
  REQUIRE(seller_usdc->is_writable, HAGGLE_ERR_NOT_WRITABLE);
  return 0;
}

uint64_t hg_accept_offer(const ZxInput *in) {
  REQUIRE(in->accounts_len >= HAGGLE_ACCEPT_OFFER_NACCOUNTS, HAGGLE_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(haggle_accept_offer_ix), HAGGLE_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *party = &in->accounts[HAGGLE_ACCEPT_OFFER_ACC_PARTY];
  const SolAccountInfo *negotiation = &in->accounts[HAGGLE_ACCEPT_OFFER_ACC_NEGOTIATION];
  const SolAccountInfo *seller_usdc = &in->accounts[HAGGLE_ACCEPT_OFFER_ACC_SELLER_USDC];
  const SolAccountInfo *treasury = &in->accounts[HAGGLE_ACCEPT_OFFER_ACC_TREASURY];
  HgVault v = {&in->accounts[HAGGLE_ACCEPT_OFFER_ACC_TOKEN_PROGRAM], negotiation, &in->accounts[HAGGLE_ACCEPT_OFFER_ACC_VAULT],
               &in->accounts[HAGGLE_ACCEPT_OFFER_ACC_BUYER], &in->accounts[HAGGLE_ACCEPT_OFFER_ACC_BUYER_USDC]};

  haggle_Negotiation *n;
  uint64_t rc = hg_open(negotiation, in->program_id, &n);
  if (rc != 0) return rc;
  uint8_t side = hg_side(n, party);
  REQUIRE(side != 0, HAGGLE_ERR_NOT_PARTY);
  REQUIRE(n->last_offer_by != 0, HAGGLE_ERR_NO_OFFER);
  REQUIRE(n->last_offer_by != side, HAGGLE_ERR_WRONG_SIDE);
  SolClock clock = zx_clock();
  rc = hg_check_live(n, clock.unix_timestamp);
  if (rc != 0) return rc;
  rc = check_treasury(&in->accounts[HAGGLE_ACCEPT_OFFER_ACC_CONFIG], treasury, in->program_id);
  if (rc != 0) return rc;
  rc = hg_check_vault(&v, n);
  if (rc != 0) return rc;
  rc = check_seller_usdc(&v, seller_usdc, n);
  if (rc != 0) return rc;

  /* submit_offer keeps current_offer <= escrow, and the vault never holds less than escrow. */
  uint64_t amount = n->current_offer;
  uint64_t fee = hg_bps(amount, n->protocol_fee_bps);
  uint64_t refund = hg_vault_balance(&v) - amount;
  rc = hg_vault_pay(&v, n, seller_usdc, amount - fee);
  if (rc == 0) rc = hg_vault_pay(&v, n, treasury, fee);
  if (rc == 0) rc = hg_vault_pay(&v, n, v.buyer_usdc, refund);
  if (rc != 0) return rc;

  haggle_ev_OfferAccepted acc;
  acc.discriminator = HAGGLE_EV_OFFER_ACCEPTED_DISC;
  acc.negotiation = *negotiation->key;
  zx_memcpy(acc.conversation_id, n->conversation_id, 16);
  acc.amount = amount;
  acc.at = clock.unix_timestamp;
  acc.side = side;
  acc.round = n->round;
  zx_emit(&acc, sizeof acc);
  haggle_ev_NegotiationSettled ev;
  ev.discriminator = HAGGLE_EV_NEGOTIATION_SETTLED_DISC;
  ev.negotiation = *negotiation->key;
  zx_memcpy(ev.conversation_id, n->conversation_id, 16);
  ev.buyer = n->buyer;
  ev.seller = n->seller;
  ev.amount = amount;
  ev.fee = fee;
  ev.to_seller = amount - fee;
  ev.refund = refund;
  ev.decayed = n->decayed;
  zx_emit(&ev, sizeof ev);
  return hg_close(&v, n);
}
