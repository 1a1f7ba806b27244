/*
 * Reading accounts and the clock: protocol epochs, events, PDA derivation and checks, token
 * accounts and the identity-NFT owner check. Included through zerox1.h.
 */
#ifndef ZX_ACCOUNTS_H
#define ZX_ACCOUNTS_H

#include "zx_runtime.h"
#include "zx_bytes.h"

/* ---- Clock and epochs ---- */
static inline SolClock zx_clock(void) {
  SolClock c;
  sol_get_clock_sysvar(&c);
  return c;
}

/* Protocol epoch = unix_timestamp / epoch_seconds (programs/README.md); negative time is epoch 0. */
static inline uint64_t zx_epoch(const SolClock *c, uint64_t epoch_seconds) {
  if (c->unix_timestamp <= 0 || epoch_seconds == 0) return 0;
  return (uint64_t)c->unix_timestamp / epoch_seconds;
}

/* ---- Events ---- */
/* Emits one sol_log_data record: the packed event struct, whose first 8 bytes are its discriminator. */
static inline void zx_emit(const void *event, uint64_t len) {
  SolBytes b = {(const uint8_t *)event, len};
  sol_log_data(&b, 1);
}

/* ---- PDAs ---- */
static inline bool zx_find_pda(const SolSignerSeed *seeds, uint64_t n, const SolPubkey *program_id, SolPubkey *out,
                               uint8_t *bump) {
  return sol_try_find_program_address(seeds, n, program_id, out, bump) == 0;
}

/* True when key == create_program_address(seeds ++ [bump], program_id). Cheaper than a search. */
static inline bool zx_check_pda(const SolPubkey *key, const SolSignerSeed *seeds_with_bump, uint64_t n,
                                const SolPubkey *program_id) {
  SolPubkey k;
  if (sol_create_program_address(seeds_with_bump, n, program_id, &k) != 0) return false;
  return zx_key_eq(&k, key);
}

/* ---- Token accounts (SPL Token and Token-2022 share the first 165 bytes) ---- */
#define ZX_TOKEN_ACCOUNT_LEN 165
typedef struct {
  SolPubkey mint;   /* offset 0 */
  SolPubkey owner;  /* offset 32 */
  uint64_t amount;  /* offset 64 */
} ZxTokenAccountHead;

/* The account is an initialized token account of `token_program`; returns its head or NULL. */
static inline const ZxTokenAccountHead *zx_token_account(const SolAccountInfo *a, const SolPubkey *token_program) {
  if (!zx_key_eq(a->owner, token_program)) return NULL;
  if (a->data_len < ZX_TOKEN_ACCOUNT_LEN) return NULL;
  if (a->data[108] != 1 && a->data[108] != 2) return NULL; /* state: initialized or frozen */
  return (const ZxTokenAccountHead *)a->data;
}

/*
 * Identity (programs/README.md): the agent id is a Token-2022 mint; its owner is the owner of
 * a Token-2022 token account holding exactly 1 of it. True when `owner` is that owner.
 */
static inline bool zx_is_identity_owner(const SolAccountInfo *token_acc, const SolPubkey *agent, const SolPubkey *owner) {
  const SolPubkey t22 = ZX_TOKEN_2022_PROGRAM_ID;
  const ZxTokenAccountHead *h = zx_token_account(token_acc, &t22);
  if (h == NULL) return false;
  return zx_key_eq(&h->mint, agent) && h->amount == 1 && zx_key_eq(&h->owner, owner);
}

/* ---- Token-2022 mint extensions ---- */
/* Mint base 82 bytes, padded to 165, account type at 165 (1 = mint), then TLV entries (u16 type, u16 length, value). */
#define ZX_T22_ACCOUNT_TYPE_OFFSET 165
#define ZX_T22_TLV_START 166
#define ZX_EXT_TOKEN_GROUP_MEMBER 23

/* The value of the first TLV entry of `type` in a Token-2022 mint's data, or NULL (its length in *len). */
static inline const uint8_t *zx_t22_extension(const SolAccountInfo *mint, uint64_t type, uint64_t *len) {
  if (mint->data_len <= ZX_T22_TLV_START || mint->data[ZX_T22_ACCOUNT_TYPE_OFFSET] != 1) return NULL;
  uint64_t o = ZX_T22_TLV_START;
  while (o + 4 <= mint->data_len) {
    uint64_t t = zx_u16le(mint->data + o), l = zx_u16le(mint->data + o + 2);
    if (t == 0) return NULL; /* uninitialized: end of the entries */
    if (o + 4 + l > mint->data_len) return NULL;
    if (t == type) {
      *len = l;
      return mint->data + o + 4;
    }
    o += 4 + l;
  }
  return NULL;
}

/* ---- Account checks ---- */
static inline bool zx_is_system_empty(const SolAccountInfo *a) {
  const SolPubkey sys = ZX_SYSTEM_PROGRAM_ID;
  return zx_key_eq(a->owner, &sys) && *a->lamports == 0 && a->data_len == 0;
}

/* The account is owned by `program_id`, at least `len` bytes and starts with `disc`. */
static inline bool zx_is_account(const SolAccountInfo *a, const SolPubkey *program_id, const uint8_t disc[8], uint64_t len) {
  return zx_key_eq(a->owner, program_id) && a->data_len >= len && *(const uint64_t *)a->data == *(const uint64_t *)disc;
}

#define ZX_SEED(lit) {(const uint8_t *)(lit), sizeof(lit) - 1}

#endif /* ZX_ACCOUNTS_H */
