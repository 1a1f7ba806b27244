/*
 * Readers for the three protocol structures resolve_challenge needs, on top of zx_cbor.h:
 *   - a BehaviorBatch (docs/protocol.md §6), validated in full and searched for one needle;
 *   - a log entry (docs/protocol.md §5: the 12-item envelope array of §2, payload possibly empty);
 *   - a NEG1 payload (docs/protocol.md §8), validated in full, giving its bid_value.
 * Portable (SBPF and host), see zx_cbor.h.
 */
#ifndef ZX_BATCH_H
#define ZX_BATCH_H

#include "zx_bytes.h"
#include "zx_cbor.h"

#define ZXB_MAX_ENTRIES 1000
#define ZXB_MAX_ENVELOPE 65536

/* Needle bits: what the contradiction needs the batch to contain. */
#define ZX_WANT_BID 1
#define ZX_WANT_TASK 2
#define ZX_WANT_VERIFIER 4

/** What must be reported: a TypedBid / TaskSelection / VerifierAssignment matching these. */
typedef struct {
  const uint8_t *conv; /* 16 bytes: conversation_id */
  const uint8_t *peer; /* 32 bytes: counterparty (bids, tasks) or verifier_id */
  zx_i128 bid;         /* bid_value of a TypedBid */
  uint64_t want;       /* ZX_WANT_* bits */
} zx_needle;

/** Fields of a batch the challenge compares, and which needle parts were found. */
typedef struct {
  const uint8_t *agent;
  const uint8_t *overflow_hash;
  const uint8_t *root;
  uint64_t epoch;
  uint64_t message_count;
  uint64_t n_bids;
  uint64_t n_tasks;
  uint64_t n_verifiers;
  uint64_t n_feedback;
  uint64_t found; /* ZX_WANT_* bits found */
  uint8_t overflow;
} zx_batch_info;

/* conversation_id + 32-byte peer + slot: TaskSelection and VerifierAssignment share the shape. */
ZXC_INLINE int zx_scan_pairs(zx_cbor *c, const zx_needle *nd, uint64_t active, uint64_t *count) {
  uint64_t n, slot;
  const uint8_t *conv, *peer;
  if (zxc_array(c, ZXC_ANY, ZXB_MAX_ENTRIES, &n)) return 1;
  *count = n;
  uint64_t hit = 0;
  for (uint64_t i = 0; i < n; i++) {
    if (zxc_tuple(c, 3)) return 1;
    if (zxc_fixed(c, 16, &conv) || zxc_fixed(c, 32, &peer)) return 1;
    if (zxc_uint(c, ZXC_ANY, &slot)) return 1;
    if (active && !hit && conv[0] == nd->conv[0] && zx_bytes_eq(conv, nd->conv, 16) &&
        zx_bytes_eq(peer, nd->peer, 32))
      hit = 1;
  }
  return hit ? 2 : 0;
}

ZXC_INLINE int zx_scan_bids(zx_cbor *c, const zx_needle *nd, uint64_t *count) {
  uint64_t n, slot;
  const uint8_t *conv, *peer;
  zx_i128 v;
  if (zxc_array(c, ZXC_ANY, ZXB_MAX_ENTRIES, &n)) return 1;
  *count = n;
  uint64_t active = nd->want & ZX_WANT_BID;
  uint64_t hit = 0;
  for (uint64_t i = 0; i < n; i++) {
    if (zxc_tuple(c, 4)) return 1;
    if (zxc_fixed(c, 16, &conv) || zxc_fixed(c, 32, &peer)) return 1;
    if (zxc_int128(c, &v) || zxc_uint(c, ZXC_ANY, &slot)) return 1;
    if (active && !hit && v.lo == nd->bid.lo && v.hi == nd->bid.hi && zx_bytes_eq(conv, nd->conv, 16) &&
        zx_bytes_eq(peer, nd->peer, 32))
      hit = 1;
  }
  return hit ? 2 : 0;
}

ZXC_INLINE int zx_scan_feedback(zx_cbor *c, uint64_t *count) {
  uint64_t n, x;
  const uint8_t *b;
  if (zxc_array(c, ZXC_ANY, ZXB_MAX_ENTRIES, &n)) return 1;
  *count = n;
  for (uint64_t i = 0; i < n; i++) {
    if (zxc_tuple(c, 7)) return 1;
    if (zxc_fixed(c, 16, &b) || zxc_fixed(c, 32, &b)) return 1;
    if (zxc_small_int(c, 100, 100, &x)) return 1;
    if (zxc_uint(c, 2, &x) || zxc_uint(c, 1, &x) || zxc_uint(c, ZXC_ANY, &x)) return 1;
    if (zxc_fixed(c, 32, &b)) return 1;
  }
  return 0;
}

/*
 * Validates a whole canonical BehaviorBatch (17 items, docs/protocol.md §6, arrays capped at 1,000)
 * and looks for the needle. Returns 0 and fills *out, or 1 if the bytes are not a batch.
 */
static int zx_batch_scan(const uint8_t *buf, uint64_t len, const zx_needle *nd, zx_batch_info *out) {
  zx_cbor cc;
  zx_cbor *c = &cc;
  uint64_t n, x;
  const uint8_t *b;
  int r;
  zxc_init(c, buf, len);
  out->found = 0;
  if (zxc_array(c, 17, 17, &n)) return 1;
  if (zxc_fixed(c, 32, &out->agent)) return 1;
  if (zxc_uint(c, ZXC_ANY, &out->epoch)) return 1;
  if (zxc_uint(c, ZXC_ANY, &x) || zxc_uint(c, ZXC_ANY, &x)) return 1; /* slot_start, slot_end */
  if (zxc_uint(c, ZXC_ANY, &out->message_count)) return 1;
  if (zxc_array(c, 16, 16, &n)) return 1;
  for (uint64_t i = 0; i < 16; i++) {
    if (zxc_uint(c, ZXC_ANY, &x)) return 1;
  }
  for (uint64_t i = 0; i < 4; i++) { /* unique_counterparties, tasks_completed, notarizations, disputes */
    if (zxc_uint(c, ZXC_ANY, &x)) return 1;
  }
  r = zx_scan_bids(c, nd, &out->n_bids);
  if (r == 1) return 1;
  if (r == 2) out->found |= ZX_WANT_BID;
  r = zx_scan_pairs(c, nd, nd->want & ZX_WANT_TASK, &out->n_tasks);
  if (r == 1) return 1;
  if (r == 2) out->found |= ZX_WANT_TASK;
  r = zx_scan_pairs(c, nd, nd->want & ZX_WANT_VERIFIER, &out->n_verifiers);
  if (r == 1) return 1;
  if (r == 2) out->found |= ZX_WANT_VERIFIER;
  if (zx_scan_feedback(c, &out->n_feedback)) return 1;
  if (zxc_bool(c, &out->overflow)) return 1;
  if (zxc_fixed(c, 32, &out->overflow_hash) || zxc_fixed(c, 32, &out->root)) return 1;
  (void)b;
  return c->pos == c->len ? 0 : 1;
}

/** A decoded log entry (docs/protocol.md §5): pointers into the caller's bytes. */
typedef struct {
  uint64_t version;
  uint64_t msg_type;
  uint64_t timestamp;
  uint64_t block_ref;
  uint64_t nonce;
  uint64_t payload_len;
  uint64_t payload_n;     /* length of item 10 as carried (0 when elided) */
  uint64_t preimage_end;  /* offset where item 10 starts: preimage = 0x8a || bytes[1..preimage_end) */
  const uint8_t *sender;
  const uint8_t *recipient;
  const uint8_t *conv;
  const uint8_t *payload_hash;
  const uint8_t *payload;
  const uint8_t *signature;
} zx_entry;

/*
 * Decodes a log entry or envelope: canonical 12-item array, types and lengths of docs/protocol.md §2,
 * at most 65,536 bytes, no trailing bytes. Returns 0 on success.
 */
static int zx_entry_read(const uint8_t *buf, uint64_t len, zx_entry *e) {
  zx_cbor cc;
  zx_cbor *c = &cc;
  uint64_t n;
  if (len > ZXB_MAX_ENVELOPE) return 1;
  zxc_init(c, buf, len);
  if (zxc_array(c, 12, 12, &n)) return 1;
  if (zxc_uint(c, 0xff, &e->version) || zxc_uint(c, 0xffff, &e->msg_type)) return 1;
  if (zxc_fixed(c, 32, &e->sender) || zxc_fixed(c, 32, &e->recipient)) return 1;
  if (zxc_uint(c, ZXC_ANY, &e->timestamp) || zxc_uint(c, ZXC_ANY, &e->block_ref)) return 1;
  if (zxc_uint(c, ZXC_ANY, &e->nonce)) return 1;
  if (zxc_fixed(c, 16, &e->conv) || zxc_fixed(c, 32, &e->payload_hash)) return 1;
  if (zxc_uint(c, 0xffffffffULL, &e->payload_len)) return 1;
  e->preimage_end = c->pos;
  if (zxc_bstr(c, ZXC_ANY, ZXB_MAX_ENVELOPE, &e->payload, &e->payload_n)) return 1;
  if (zxc_fixed(c, 64, &e->signature)) return 1;
  return c->pos == c->len ? 0 : 1;
}

/*
 * A NEG1 payload (docs/protocol.md §8): 'NEG1' then one canonical 10-item array with every field in
 * range and no trailing bytes. Returns 0 and the bid_value, or 1 if the payload is not NEG1.
 */
static int zx_neg1_bid(const uint8_t *payload, uint64_t len, zx_i128 *bid) {
  zx_cbor cc;
  zx_cbor *c = &cc;
  uint64_t n, x;
  const uint8_t *b;
  if (len < 4 || payload[0] != 'N' || payload[1] != 'E' || payload[2] != 'G' || payload[3] != '1') return 1;
  zxc_init(c, payload + 4, len - 4);
  if (zxc_array(c, 10, 10, &n)) return 1;
  if (zxc_int128(c, bid)) return 1;
  if (zxc_fixed(c, 32, &b) || zxc_fixed(c, 32, &b)) return 1; /* token_mint, service_hash */
  if (zxc_uint(c, ZXC_ANY, &x) || zxc_uint(c, ZXC_ANY, &x)) return 1; /* round, deadline */
  if (zxc_uint(c, 1000, &x)) return 1;                             /* decay_bps */
  if (zxc_uint(c, 20, &x) || x < 1) return 1;                      /* max_rounds */
  if (zxc_array(c, 2, 2, &n) || zxc_uint(c, 2, &x)) return 1;      /* verification [tier, hash] */
  if (zxc_bstr(c, ZXC_ANY, 32, &b, &n) || (n != 0 && n != 32)) return 1;
  if (zxc_uint(c, 6, &x)) return 1; /* reason */
  if (zxc_bstr(c, ZXC_ANY, 64, &b, &n)) return 1;                  /* metadata */
  return c->pos == c->len ? 0 : 1;
}

#endif
