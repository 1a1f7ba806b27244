/*
 * Ed25519 signature checks through the Ed25519 native program, by instruction introspection:
 * the transaction carries an Ed25519SigVerify instruction (the runtime rejects the whole
 * transaction if any of its signatures fails), and the program finds, in the Instructions sysvar,
 * one whose public key, signature and message are the expected ones.
 *
 * Instructions sysvar data: u16 count, u16 offset[count], then per instruction
 * u16 n_accounts, n_accounts x (u8 flags, 32-byte key), 32-byte program id, u16 data_len, data;
 * the last 2 bytes are the index of the executing instruction.
 * Ed25519 instruction data: u8 count, u8 padding, count x 14 bytes of u16 offsets
 * (signature, sig ix, public key, pk ix, message, message size, msg ix), then the bytes.
 * Only signatures whose three instruction indexes designate the Ed25519 instruction itself
 * (0xffff or its own index) are considered, so every byte compared is the byte verified.
 *
 * Portable (SBPF and host): the includer provides uint8_t/uint64_t.
 */
#ifndef ZX_ED25519_H
#define ZX_ED25519_H

#include "zx_bytes.h"

/** What the verified signature must be: key, signature (or 0 for any), message = head || body. */
typedef struct {
  const uint8_t *pubkey;    /* 32 */
  const uint8_t *signature; /* 64, or 0 */
  const uint8_t *head;      /* may be 0 when head_len == 0 */
  uint64_t head_len;
  const uint8_t *body;
  uint64_t body_len;
} zx_ed_expect;


static int zx_is_ed25519_program(const uint8_t *id) {
  static const uint8_t ed[32] = {0x03, 0x7d, 0x46, 0xd6, 0x7c, 0x93, 0xfb, 0xbe, 0x12, 0xf9, 0x42,
                                 0x8f, 0x83, 0x8d, 0x40, 0xff, 0x05, 0x70, 0x74, 0x49, 0x27, 0xf4,
                                 0x8a, 0x64, 0xfc, 0xca, 0x70, 0x44, 0x80, 0x00, 0x00, 0x00};
  return zx_bytes_eq(id, ed, 32);
}

/* 1 when one signature of this Ed25519 instruction's data matches x. */
static int zx_ed_data_matches(const uint8_t *d, uint64_t n, uint64_t self, const zx_ed_expect *x) {
  if (n < 2) return 0;
  uint64_t count = d[0];
  if (2 + count * 14 > n) return 0;
  uint64_t msg_len = x->head_len + x->body_len;
  for (uint64_t s = 0; s < count; s++) {
    const uint8_t *o = d + 2 + s * 14;
    uint64_t so = zx_u16le(o), si = zx_u16le(o + 2), po = zx_u16le(o + 4), pi = zx_u16le(o + 6);
    uint64_t mo = zx_u16le(o + 8), ml = zx_u16le(o + 10), mi = zx_u16le(o + 12);
    if ((si != 0xffff && si != self) || (pi != 0xffff && pi != self) || (mi != 0xffff && mi != self)) continue;
    if (so + 64 > n || po + 32 > n || mo + ml > n || ml != msg_len) continue;
    if (!zx_bytes_eq(d + po, x->pubkey, 32)) continue;
    if (x->signature && !zx_bytes_eq(d + so, x->signature, 64)) continue;
    if (x->head_len && !zx_bytes_eq(d + mo, x->head, x->head_len)) continue;
    if (!zx_bytes_eq(d + mo + x->head_len, x->body, x->body_len)) continue;
    return 1;
  }
  return 0;
}

/*
 * 0 when the transaction whose Instructions sysvar data is `ixs` holds an Ed25519 program
 * instruction verifying x; 1 otherwise (also for any malformed sysvar data).
 */
static int zx_ed25519_check(const uint8_t *ixs, uint64_t len, const zx_ed_expect *x) {
  if (len < 4) return 1;
  uint64_t count = zx_u16le(ixs);
  if (2 + count * 2 > len) return 1;
  for (uint64_t i = 0; i < count; i++) {
    uint64_t off = zx_u16le(ixs + 2 + i * 2);
    if (off + 2 > len) return 1;
    uint64_t na = zx_u16le(ixs + off);
    uint64_t p = off + 2 + na * 33;
    if (p + 34 > len) return 1;
    const uint8_t *program = ixs + p;
    uint64_t dl = zx_u16le(ixs + p + 32);
    if (p + 34 + dl > len) return 1;
    if (!zx_is_ed25519_program(program)) continue;
    if (zx_ed_data_matches(ixs + p + 34, dl, i, x)) return 0;
  }
  return 1;
}

#endif
