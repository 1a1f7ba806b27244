/*
 * Bounded canonical CBOR reader (docs/protocol.md §1), for the subset the protocol uses:
 * unsigned/negative integers, bignum tags 2/3 (int128 only), byte strings, definite arrays,
 * booleans. Everything else is rejected: non-shortest heads, indefinite lengths, floats,
 * other simple values and tags, reads past the end.
 *
 * Portable: compiles for SBPF (freestanding, no libc, no globals, <= 5 arguments, no signed
 * division) and for the host test harness. The includer provides uint8_t/uint64_t/uint32_t.
 * Every reader returns 0 on success and non-zero on any malformed or out-of-range input;
 * it never reads outside [p, p + len).
 */
#ifndef ZX_CBOR_H
#define ZX_CBOR_H

#define ZXC_ANY 0xffffffffffffffffULL
/* Readers are inlined so that the cursor stays in registers in the scanning loops (CU cost). */
#define ZXC_INLINE static inline __attribute__((always_inline))

typedef struct {
  const uint8_t *p;
  uint64_t len;
  uint64_t pos;
} zx_cbor;

/** Two's-complement int128 as two 64-bit halves. */
typedef struct {
  uint64_t lo;
  uint64_t hi;
} zx_i128;

static inline void zxc_init(zx_cbor *c, const uint8_t *p, uint64_t len) {
  c->p = p;
  c->len = len;
  c->pos = 0;
}

/* Reads one head: *major 0..7 and its argument. Major 7 is only false/true (argument 0/1). */
ZXC_INLINE int zxc_head(zx_cbor *c, uint64_t *major, uint64_t *val) {
  if (c->pos >= c->len) return 1;
  uint8_t b = c->p[c->pos];
  c->pos += 1;
  uint64_t mt = (uint64_t)(b >> 5);
  uint64_t ai = (uint64_t)(b & 31);
  *major = mt;
  if (ai < 24) {
    if (mt == 7) {
      if (ai != 20 && ai != 21) return 1;
      *val = ai - 20;
      return 0;
    }
    *val = ai;
    return 0;
  }
  if (ai > 27 || mt == 7) return 1;
  const uint8_t *q = c->p + c->pos;
  uint64_t left = c->len - c->pos;
  uint64_t v;
  if (ai == 24) {
    if (left < 1) return 1;
    v = q[0];
    if (v < 24) return 1; /* shortest form */
    c->pos += 1;
  } else if (ai == 25) {
    if (left < 2) return 1;
    v = ((uint64_t)q[0] << 8) | q[1];
    if (v <= 0xff) return 1;
    c->pos += 2;
  } else if (ai == 26) {
    if (left < 4) return 1;
    v = ((uint64_t)q[0] << 24) | ((uint64_t)q[1] << 16) | ((uint64_t)q[2] << 8) | q[3];
    if (v <= 0xffff) return 1;
    c->pos += 4;
  } else {
    if (left < 8) return 1;
    v = ((uint64_t)q[0] << 56) | ((uint64_t)q[1] << 48) | ((uint64_t)q[2] << 40) | ((uint64_t)q[3] << 32) |
        ((uint64_t)q[4] << 24) | ((uint64_t)q[5] << 16) | ((uint64_t)q[6] << 8) | q[7];
    if (v <= 0xffffffffULL) return 1;
    c->pos += 8;
  }
  *val = v;
  return 0;
}

/* Unsigned integer (major 0) <= max. */
ZXC_INLINE int zxc_uint(zx_cbor *c, uint64_t max, uint64_t *out) {
  uint64_t mt, v;
  if (zxc_head(c, &mt, &v) || mt != 0 || v > max) return 1;
  *out = v;
  return 0;
}

/* Byte string; want = exact length or ZXC_ANY; max bounds the length when want is ZXC_ANY. */
ZXC_INLINE int zxc_bstr(zx_cbor *c, uint64_t want, uint64_t max, const uint8_t **ptr, uint64_t *n) {
  uint64_t mt, v;
  if (zxc_head(c, &mt, &v) || mt != 2) return 1;
  if (want != ZXC_ANY && v != want) return 1;
  if (v > max || v > c->len - c->pos) return 1;
  *ptr = c->p + c->pos;
  *n = v;
  c->pos += v;
  return 0;
}

/*
 * Byte string of exactly n bytes (n < 256); returns its address in *ptr. The canonical head of a
 * given length is unique, so it is compared as bytes (0x40|n, or 0x58 n).
 */
ZXC_INLINE int zxc_fixed(zx_cbor *c, uint64_t n, const uint8_t **ptr) {
  uint64_t pos = c->pos, left = c->len - pos;
  const uint8_t *q = c->p + pos;
  if (n < 24) {
    if (left < 1 + n || q[0] != (uint8_t)(0x40 | n)) return 1;
    *ptr = q + 1;
    c->pos = pos + 1 + n;
    return 0;
  }
  if (left < 2 + n || q[0] != 0x58 || q[1] != (uint8_t)n) return 1;
  *ptr = q + 2;
  c->pos = pos + 2 + n;
  return 0;
}

/* Array head; want = exact count or ZXC_ANY; the count must be <= max. */
ZXC_INLINE int zxc_array(zx_cbor *c, uint64_t want, uint64_t max, uint64_t *n) {
  uint64_t mt, v;
  if (zxc_head(c, &mt, &v) || mt != 4) return 1;
  if (want != ZXC_ANY && v != want) return 1;
  if (v > max) return 1;
  *n = v;
  return 0;
}

/* Array of exactly n < 24 items: the canonical head is the single byte 0x80|n. */
ZXC_INLINE int zxc_tuple(zx_cbor *c, uint64_t n) {
  if (c->pos >= c->len || c->p[c->pos] != (uint8_t)(0x80 | n)) return 1;
  c->pos += 1;
  return 0;
}

ZXC_INLINE int zxc_bool(zx_cbor *c, uint8_t *out) {
  uint64_t mt, v;
  if (zxc_head(c, &mt, &v) || mt != 7) return 1;
  *out = (uint8_t)v;
  return 0;
}

/* Small signed integer in [-neg_max, pos_max] (both bounds < 2^63), as two's complement. */
ZXC_INLINE int zxc_small_int(zx_cbor *c, uint64_t neg_max, uint64_t pos_max, uint64_t *out) {
  uint64_t mt, v;
  if (zxc_head(c, &mt, &v)) return 1;
  if (mt == 0) {
    if (v > pos_max) return 1;
    *out = v;
    return 0;
  }
  if (mt == 1) {
    if (v >= neg_max) return 1; /* value = -1 - v >= -neg_max */
    *out = ~v;
    return 0;
  }
  return 1;
}

/*
 * Integer in the int128 range: major 0/1 inside 64 bits, bignum tag 2/3 with a byte string of
 * 9..16 bytes (no leading zero, so strictly outside 64 bits), magnitude < 2^127.
 */
ZXC_INLINE int zxc_int128(zx_cbor *c, zx_i128 *out) {
  uint64_t mt, v;
  if (zxc_head(c, &mt, &v)) return 1;
  if (mt == 0) {
    out->lo = v;
    out->hi = 0;
    return 0;
  }
  if (mt == 1) {
    out->lo = ~v;
    out->hi = ~0ULL;
    return 0;
  }
  if (mt != 6 || (v != 2 && v != 3)) return 1;
  const uint8_t *b;
  uint64_t n;
  if (zxc_bstr(c, ZXC_ANY, 16, &b, &n)) return 1;
  if (n < 9 || b[0] == 0) return 1;
  if (n == 16 && (b[0] & 0x80)) return 1;
  uint64_t hi = 0, lo = 0;
  uint64_t k = n - 8;
  for (uint64_t i = 0; i < k; i++) hi = (hi << 8) | b[i];
  for (uint64_t i = k; i < n; i++) lo = (lo << 8) | b[i];
  if (v == 3) {
    hi = ~hi;
    lo = ~lo;
  }
  out->lo = lo;
  out->hi = hi;
  return 0;
}

#endif
