/*
 * Haggle sealed reservations (docs/protocol.md §8 NEGC / NEGR): each side may commit to its
 * reservation price as SHA-256(price as 16-byte big-endian two's complement || 32-byte salt), the
 * bytes of a NEGC payload's commitment, and reveal it (a NEGR payload's price and salt) once both
 * committed. With both revealed and the buyer's maximum below the seller's minimum there is no
 * zone of possible agreement: the negotiation ends and the buyer is refunded.
 */
#include "haggle_common.h"

/* a < b for 16-byte big-endian two's complement integers (int128, as NEGC encodes them). */
static bool i128_lt(const uint8_t *a, const uint8_t *b) {
  for (int i = 0; i < 16; i++) {
    uint8_t x = a[i], y = b[i];
    if (i == 0) { x ^= 0x80; y ^= 0x80; } /* flipping the sign bit makes the order unsigned */
    if (x != y) return x < y;
  }
  return false;
}

uint64_t hg_commit_reservation(const ZxInput *in) {
  REQUIRE(in->accounts_len >= HAGGLE_COMMIT_RESERVATION_NACCOUNTS, HAGGLE_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(haggle_commit_reservation_ix), HAGGLE_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *party = &in->accounts[HAGGLE_COMMIT_RESERVATION_ACC_PARTY];
  const SolAccountInfo *negotiation = &in->accounts[HAGGLE_COMMIT_RESERVATION_ACC_NEGOTIATION];
  const haggle_commit_reservation_ix *args = (const haggle_commit_reservation_ix *)in->data;
  haggle_Negotiation *n;
  uint64_t rc = hg_open(negotiation, in->program_id, &n);
  if (rc != 0) return rc;
  uint8_t side = hg_side(n, party);
  REQUIRE(side != 0, HAGGLE_ERR_NOT_PARTY);
  REQUIRE(n->zopa_detection, HAGGLE_ERR_ZOPA_DISABLED);
  uint8_t bit = side == SIDE_BUYER ? SEALED_BUYER_COMMITTED : SEALED_SELLER_COMMITTED;
  REQUIRE(!(n->sealed & bit), HAGGLE_ERR_ALREADY_COMMITTED);
  SolClock clock = zx_clock();
  rc = hg_check_live(n, clock.unix_timestamp);
  if (rc != 0) return rc;
  n->sealed |= bit;
  zx_memcpy(side == SIDE_BUYER ? n->buyer_commitment : n->seller_commitment, args->commitment, 32);
  haggle_ev_ReservationCommitted ev;
  ev.discriminator = HAGGLE_EV_RESERVATION_COMMITTED_DISC;
  ev.negotiation = *negotiation->key;
  zx_memcpy(ev.conversation_id, n->conversation_id, 16);
  zx_memcpy(ev.commitment, args->commitment, 32);
  ev.side = side;
  zx_emit(&ev, sizeof ev);
  return ZX_SUCCESS;
}

uint64_t hg_reveal_reservation(const ZxInput *in) {
  REQUIRE(in->accounts_len >= HAGGLE_REVEAL_RESERVATION_NACCOUNTS, HAGGLE_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(haggle_reveal_reservation_ix), HAGGLE_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *party = &in->accounts[HAGGLE_REVEAL_RESERVATION_ACC_PARTY];
  const SolAccountInfo *negotiation = &in->accounts[HAGGLE_REVEAL_RESERVATION_ACC_NEGOTIATION];
  HgVault v = {&in->accounts[HAGGLE_REVEAL_RESERVATION_ACC_TOKEN_PROGRAM], negotiation,
               &in->accounts[HAGGLE_REVEAL_RESERVATION_ACC_VAULT], &in->accounts[HAGGLE_REVEAL_RESERVATION_ACC_BUYER],
               &in->accounts[HAGGLE_REVEAL_RESERVATION_ACC_BUYER_USDC]};
  const haggle_reveal_reservation_ix *args = (const haggle_reveal_reservation_ix *)in->data;
  haggle_Negotiation *n;
  uint64_t rc = hg_open(negotiation, in->program_id, &n);
  if (rc != 0) return rc;
  uint8_t side = hg_side(n, party);
  REQUIRE(side != 0, HAGGLE_ERR_NOT_PARTY);
  REQUIRE(n->zopa_detection, HAGGLE_ERR_ZOPA_DISABLED);
  /* A reveal before the other side committed would let it commit against the revealed price. */
  REQUIRE((n->sealed & 3) == 3, HAGGLE_ERR_NOT_BOTH_COMMITTED);
  uint8_t bit = side == SIDE_BUYER ? SEALED_BUYER_REVEALED : SEALED_SELLER_REVEALED;
  REQUIRE(!(n->sealed & bit), HAGGLE_ERR_ALREADY_REVEALED);
  SolClock clock = zx_clock();
  rc = hg_check_live(n, clock.unix_timestamp);
  if (rc != 0) return rc;
  uint8_t hash[32];
  SolBytes parts[2] = {{args->price, 16}, {args->salt, 32}};
  sol_sha256(parts, 2, hash);
  REQUIRE(zx_memeq(hash, side == SIDE_BUYER ? n->buyer_commitment : n->seller_commitment, 32), HAGGLE_ERR_REVEAL_MISMATCH);
  n->sealed |= bit;
  zx_memcpy(side == SIDE_BUYER ? n->buyer_reservation : n->seller_reservation, args->price, 16);

  bool both = (n->sealed & 12) == 12;
  /* The buyer's reservation is the most it pays, the seller's the least it takes. */
  bool zopa = !both || !i128_lt(n->buyer_reservation, n->seller_reservation);
  haggle_ev_ReservationRevealed ev;
  ev.discriminator = HAGGLE_EV_RESERVATION_REVEALED_DISC;
  ev.negotiation = *negotiation->key;
  zx_memcpy(ev.conversation_id, n->conversation_id, 16);
  zx_memcpy(ev.price, args->price, 16);
  ev.side = side;
  ev.both_revealed = both;
  ev.zopa = zopa;
  zx_emit(&ev, sizeof ev);
  if (zopa) return ZX_SUCCESS;
  rc = hg_check_vault(&v, n);
  if (rc != 0) return rc;
  return hg_refund(&v, n, ST_REJECTED, REASON_NO_ZOPA, side);
}
