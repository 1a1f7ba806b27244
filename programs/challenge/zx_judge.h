/*
 * The contradiction rule of resolve_challenge (0x01 spec §8.6, programs/README.md "Challenge
 * outcomes"), given an authenticated log entry (its leaf, merkle inclusion and Ed25519 signature
 * already checked by the caller), the payload the challenger supplied (payload_hash checked by
 * the caller) and the batch bytes whose keccak equals the committed batch_hash.
 * Portable (SBPF and host).
 */
#ifndef ZX_JUDGE_H
#define ZX_JUDGE_H

#include "zx_batch.h"

#define ZXJ_UPHELD 1
#define ZXJ_REJECTED 2
#define ZXJ_VOID 3

#define ZXJ_MISSING_BID 1
#define ZXJ_MISSING_TASK 2
#define ZXJ_MISSING_VERIFIER 3
#define ZXJ_MALFORMED_BATCH 4
#define ZXJ_INCONSISTENT_BATCH 5
#define ZXJ_NOT_AGENTS_ENTRY 10
#define ZXJ_NOT_CHECKABLE 11
#define ZXJ_REPORTED 12
#define ZXJ_OVERFLOWED 20

#define ZXJ_PROPOSE 3
#define ZXJ_COUNTER 4
#define ZXJ_ACCEPT 5
#define ZXJ_NOTARIZE_ASSIGN 9

/** What the batch account on chain says (the agent committed these). */
typedef struct {
  const uint8_t *agent; /* 32 */
  const uint8_t *root;  /* 32 */
  uint64_t epoch;
} zx_commit;

/** Inputs of the rule. */
typedef struct {
  const zx_entry *entry;
  const uint8_t *payload; /* the entry's payload (NEG1 or not), may be 0 when n == 0 */
  uint64_t payload_n;
  const uint8_t *batch;
  uint64_t batch_len;
  const zx_commit *commit;
} zx_judge_in;

/*
 * The needle an entry implies: 0 when the entry cannot contradict a batch (not sent by the
 * agent, not version 1, or a message type / payload that the batch does not report).
 */
static uint64_t zx_needle_of(const zx_judge_in *j, zx_needle *nd) {
  const zx_entry *e = j->entry;
  nd->conv = e->conv;
  nd->peer = e->recipient;
  nd->bid.lo = nd->bid.hi = 0;
  nd->want = 0;
  if (e->msg_type == ZXJ_PROPOSE || e->msg_type == ZXJ_COUNTER || e->msg_type == ZXJ_ACCEPT) {
    if (j->payload_n && zx_neg1_bid(j->payload, j->payload_n, &nd->bid) == 0) nd->want |= ZX_WANT_BID;
    if (e->msg_type == ZXJ_ACCEPT) nd->want |= ZX_WANT_TASK;
  } else if (e->msg_type == ZXJ_NOTARIZE_ASSIGN) {
    nd->want |= ZX_WANT_VERIFIER;
  }
  return nd->want;
}

/* Returns ZXJ_UPHELD / ZXJ_REJECTED / ZXJ_VOID and sets *reason. */
static uint64_t zx_judge(const zx_judge_in *j, uint64_t *reason) {
  const zx_entry *e = j->entry;
  zx_needle nd;
  zx_batch_info bi;
  if (!zx_bytes_eq(e->sender, j->commit->agent, 32) || e->version != 1) {
    *reason = ZXJ_NOT_AGENTS_ENTRY;
    return ZXJ_REJECTED;
  }
  if (zx_needle_of(j, &nd) == 0) {
    *reason = ZXJ_NOT_CHECKABLE;
    return ZXJ_REJECTED;
  }
  if (zx_batch_scan(j->batch, j->batch_len, &nd, &bi)) {
    *reason = ZXJ_MALFORMED_BATCH; /* the agent signed bytes that are not a batch */
    return ZXJ_UPHELD;
  }
  if (!zx_bytes_eq(bi.agent, j->commit->agent, 32) || bi.epoch != j->commit->epoch ||
      !zx_bytes_eq(bi.root, j->commit->root, 32)) {
    *reason = ZXJ_INCONSISTENT_BATCH; /* the signed batch is not the one committed on chain */
    return ZXJ_UPHELD;
  }
  uint64_t missing = nd.want & ~bi.found;
  if (missing == 0) {
    *reason = ZXJ_REPORTED;
    return ZXJ_REJECTED;
  }
  /*
   * An overflowed batch may carry the entry in its overflow data (not checked on chain): a
   * missing item counts only when its array is below the cap, or when the batch did not overflow.
   */
  uint64_t code = 0;
  if ((missing & ZX_WANT_VERIFIER) && (!bi.overflow || bi.n_verifiers < ZXB_MAX_ENTRIES)) code = ZXJ_MISSING_VERIFIER;
  if ((missing & ZX_WANT_TASK) && (!bi.overflow || bi.n_tasks < ZXB_MAX_ENTRIES)) code = ZXJ_MISSING_TASK;
  if ((missing & ZX_WANT_BID) && (!bi.overflow || bi.n_bids < ZXB_MAX_ENTRIES)) code = ZXJ_MISSING_BID;
  if (code == 0) {
    *reason = ZXJ_OVERFLOWED;
    return ZXJ_VOID;
  }
  *reason = code;
  return ZXJ_UPHELD;
}

#endif
