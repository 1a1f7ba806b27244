/*
 * Haggle refunds: reject (either side, any time while the negotiation exists), expire (anyone,
 * once the global deadline or the response window has passed) and the no-ZOPA end of sealed.c.
 * Whatever the vault holds goes back to the buyer; the decay already paid stays with the treasury.
 */
#include "haggle_common.h"

uint64_t hg_refund(const HgVault *v, haggle_Negotiation *n, uint8_t status, uint8_t reason, uint8_t side) {
  uint64_t refund = hg_vault_balance(v);
  uint64_t rc = hg_vault_pay(v, n, v->buyer_usdc, refund);
  if (rc != 0) return rc;
  SolClock clock = zx_clock();
  haggle_ev_NegotiationRefunded ev;
  ev.discriminator = HAGGLE_EV_NEGOTIATION_REFUNDED_DISC;
  ev.negotiation = *v->negotiation->key;
  zx_memcpy(ev.conversation_id, n->conversation_id, 16);
  ev.buyer = n->buyer;
  ev.refund = refund;
  ev.decayed = n->decayed;
  ev.at = clock.unix_timestamp;
  ev.status = status;
  ev.reason = reason;
  ev.side = side;
  zx_emit(&ev, sizeof ev);
  return hg_close(v, n);
}

uint64_t hg_reject(const ZxInput *in) {
  REQUIRE(in->accounts_len >= HAGGLE_REJECT_NACCOUNTS, HAGGLE_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(haggle_reject_ix), HAGGLE_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *party = &in->accounts[HAGGLE_REJECT_ACC_PARTY];
  HgVault v = {&in->accounts[HAGGLE_REJECT_ACC_TOKEN_PROGRAM], &in->accounts[HAGGLE_REJECT_ACC_NEGOTIATION],
               &in->accounts[HAGGLE_REJECT_ACC_VAULT], &in->accounts[HAGGLE_REJECT_ACC_BUYER],
               &in->accounts[HAGGLE_REJECT_ACC_BUYER_USDC]};
  haggle_Negotiation *n;
  uint64_t rc = hg_open(v.negotiation, in->program_id, &n);
  if (rc != 0) return rc;
  uint8_t side = hg_side(n, party);
  REQUIRE(side != 0, HAGGLE_ERR_NOT_PARTY);
  rc = hg_check_vault(&v, n);
  if (rc != 0) return rc;
  return hg_refund(&v, n, ST_REJECTED, REASON_REJECTED, side);
}

uint64_t hg_expire(const ZxInput *in) {
  REQUIRE(in->accounts_len >= HAGGLE_EXPIRE_NACCOUNTS, HAGGLE_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(haggle_expire_ix), HAGGLE_ERR_INVALID_INSTRUCTION);
  HgVault v = {&in->accounts[HAGGLE_EXPIRE_ACC_TOKEN_PROGRAM], &in->accounts[HAGGLE_EXPIRE_ACC_NEGOTIATION],
               &in->accounts[HAGGLE_EXPIRE_ACC_VAULT], &in->accounts[HAGGLE_EXPIRE_ACC_BUYER],
               &in->accounts[HAGGLE_EXPIRE_ACC_BUYER_USDC]};
  haggle_Negotiation *n;
  uint64_t rc = hg_open(v.negotiation, in->program_id, &n);
  if (rc != 0) return rc;
  SolClock clock = zx_clock();
  int64_t now = clock.unix_timestamp;
  uint8_t reason = now > n->deadline ? REASON_DEADLINE
                   : now > n->last_action_at + (int64_t)n->response_window ? REASON_WINDOW
                                                                          : 0;
  REQUIRE(reason != 0, HAGGLE_ERR_NOT_EXPIRED);
  rc = hg_check_vault(&v, n);
  if (rc != 0) return rc;
  return hg_refund(&v, n, ST_EXPIRED, reason, 0);
}
