/*
 * Shared pieces of the SATI stand-in (sati_registry.c, its only includer): the Anchor
 * discriminators, a bounded Borsh reader with UTF-8 checks, byte writers, the Token-2022 TLV
 * scan and the one CPI helper (every CPI passes the entrypoint's own account infos, so the
 * runtime writes reallocated lengths back into them; a copy would go stale after Token-2022
 * grows the mint for its metadata).
 */
#ifndef SATI_REGISTRY_COMMON_H
#define SATI_REGISTRY_COMMON_H

#include "zerox1.h"
#include "sati_registry.h"

#define REQUIRE(cond, err) \
  do {                     \
    if (!(cond)) return (err); \
  } while (0)

/* Anchor: sha256("global:<ix>")[0..8] and sha256("event:<Name>")[0..8]. */
static const uint8_t DISC_INITIALIZE[8] = {175, 175, 109, 31, 13, 152, 155, 237};
static const uint8_t DISC_REGISTER_AGENT[8] = {135, 157, 66, 195, 2, 113, 175, 30};
static const uint8_t DISC_AGENT_REGISTERED[8] = {191, 78, 217, 54, 232, 100, 189, 85};
/* SPL interfaces: sha256("spl_token_metadata_interface:…" / "spl_token_group_interface:…")[0..8]. */
static const uint8_t DISC_MD_INITIALIZE[8] = {0xd2, 0xe1, 0x1e, 0xa2, 0x58, 0xb8, 0x4d, 0x8d};
static const uint8_t DISC_MD_UPDATE_FIELD[8] = {0xdd, 0xe9, 0x31, 0x2d, 0xb5, 0xca, 0xdc, 0xc8};
static const uint8_t DISC_MD_UPDATE_AUTHORITY[8] = {0xd7, 0xe4, 0xa6, 0xe4, 0x54, 0x64, 0x56, 0x7b};
static const uint8_t DISC_GROUP_INITIALIZE[8] = {0x79, 0x71, 0x6c, 0x27, 0x36, 0x33, 0x00, 0x04};
static const uint8_t DISC_GROUP_INITIALIZE_MEMBER[8] = {0x98, 0x20, 0xde, 0xb0, 0xdf, 0xed, 0x74, 0x86};

/* ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL */
#define ZX_ATA_PROGRAM_ID {{0x8c, 0x97, 0x25, 0x8f, 0x4e, 0x24, 0x89, 0xf1, 0xbb, 0x3d, 0x10, 0x29, 0x14, 0x8e, 0x0d, 0x83, \
                            0x0b, 0x5a, 0x13, 0x99, 0xda, 0xff, 0x10, 0x84, 0x04, 0x8e, 0x7b, 0xd8, 0xdb, 0xe9, 0xf8, 0x59}}

/* SATI's argument limits (bytes of UTF-8, entries). */
#define MAX_NAME 32
#define MAX_SYMBOL 10
#define MAX_URI 200
#define MAX_KEY 32
#define MAX_VALUE 200
#define MAX_FIELDS 10

/* Token-2022 mint layout (zx_accounts.h): TLVs from 166. */
#define T22_TLV_START ZX_T22_TLV_START
#define EXT_NON_TRANSFERABLE 9
#define EXT_METADATA_POINTER 18
#define EXT_GROUP_POINTER 20
#define EXT_TOKEN_GROUP 21
#define EXT_GROUP_MEMBER_POINTER 22
#define POINTER_TLV (4 + 64)
#define GROUP_TLV (4 + 80)
#define MEMBER_TLV (4 + 72)

typedef struct {
  const uint8_t *p;
  uint64_t len;
} Str;

typedef struct {
  const uint8_t *d;
  uint64_t n;
  uint64_t o;
} Rd;

/* Rust's str::from_utf8 rules: no overlong forms, no surrogates, nothing above U+10FFFF. */
static bool utf8_ok(const uint8_t *p, uint64_t n) {
  uint64_t i = 0;
  while (i < n) {
    uint64_t c = p[i];
    if (c < 0x80) { i++; continue; }
    uint64_t len, cp, min;
    if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; min = 0x80; }
    else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; min = 0x800; }
    else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; min = 0x10000; }
    else return false;
    if (len > n - i) return false;
    for (uint64_t k = 1; k < len; k++) {
      uint64_t d = p[i + k];
      if ((d & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (d & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

static bool rd_u8(Rd *r, uint64_t *v) {
  if (r->o + 1 > r->n) return false;
  *v = r->d[r->o++];
  return true;
}

static bool rd_u32(Rd *r, uint64_t *v) {
  if (r->o + 4 > r->n) return false;
  const uint8_t *p = r->d + r->o;
  *v = (uint64_t)p[0] | ((uint64_t)p[1] << 8) | ((uint64_t)p[2] << 16) | ((uint64_t)p[3] << 24);
  r->o += 4;
  return true;
}

/* A Borsh String: u32 length then UTF-8 bytes. */
static bool rd_str(Rd *r, Str *s) {
  uint64_t len;
  if (!rd_u32(r, &len) || len > r->n - r->o) return false;
  s->p = r->d + r->o;
  s->len = len;
  r->o += len;
  return utf8_ok(s->p, len);
}

/* Byte writer into a fixed buffer (sizes are bounded by the argument limits above). */
typedef struct {
  uint8_t *b;
  uint64_t o;
} Wr;

static void wr_bytes(Wr *w, const void *p, uint64_t n) {
  if (n) zx_memcpy(w->b + w->o, p, n);
  w->o += n;
}
static void wr_u8(Wr *w, uint64_t v) { w->b[w->o++] = (uint8_t)v; }
static void wr_u32(Wr *w, uint64_t v) {
  for (int i = 0; i < 4; i++) w->b[w->o++] = (uint8_t)(v >> (8 * i));
}
static void wr_u64(Wr *w, uint64_t v) {
  for (int i = 0; i < 8; i++) w->b[w->o++] = (uint8_t)(v >> (8 * i));
}
static void wr_str(Wr *w, const Str *s) {
  wr_u32(w, s->len);
  wr_bytes(w, s->p, s->len);
}

/* sol_invoke_signed_c over the entrypoint's own account infos (module comment). */
static uint64_t invoke(const ZxInput *in, const SolPubkey *program, SolAccountMeta *metas, uint64_t nmetas, const SolBytes *data,
                       const SolSignerSeeds *signer) {
  SolInstruction ix = {(SolPubkey *)program, metas, nmetas, (uint8_t *)data->addr, data->len};
  return sol_invoke_signed_c(&ix, in->accounts, in->accounts_len, signer, signer ? 1 : 0);
}

/* System CreateAccount of `space` bytes owned by `owner`, funded with `lamports` by `payer`; PDA seeds when `signer`. */
typedef struct {
  const SolAccountInfo *payer;
  const SolAccountInfo *account;
  uint64_t space;
  uint64_t lamports;
  const SolPubkey *owner;
} Create;

static uint64_t create_account(const ZxInput *in, const Create *c, const SolSignerSeeds *signer) {
  uint8_t data[52];
  Wr w = {data, 0};
  wr_u32(&w, 0);
  wr_u64(&w, c->lamports);
  wr_u64(&w, c->space);
  wr_bytes(&w, c->owner, 32);
  const SolPubkey system = ZX_SYSTEM_PROGRAM_ID;
  SolAccountMeta metas[2] = {{c->payer->key, true, true}, {c->account->key, true, true}};
  SolBytes d = {data, 52};
  return invoke(in, &system, metas, 2, &d, signer);
}

#endif /* SATI_REGISTRY_COMMON_H */
