/*
 * Byte helpers shared by every program and by the portable readers (zx_cbor.h, zx_batch.h,
 * zx_merkle.h, zx_ed25519.h), so they are defined once for SBPF and for the host harness.
 *
 * Portable (SBPF and host): no libc, no globals; the includer provides uint8_t/uint64_t
 * (zx_runtime.h on chain, <stdint.h> on the host).
 */
#ifndef ZX_BYTES_H
#define ZX_BYTES_H

/* 1 when the n bytes at a and b are equal. A plain loop: sol_memcmp_ is a syscall the host lacks. */
static inline int zx_bytes_eq(const uint8_t *a, const uint8_t *b, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) {
    if (a[i] != b[i]) return 0;
  }
  return 1;
}

/* Little-endian reads at any alignment (instruction data and sysvars are not aligned). */
static inline uint64_t zx_u16le(const uint8_t *p) { return (uint64_t)p[0] | ((uint64_t)p[1] << 8); }
static inline uint64_t zx_u64le(const uint8_t *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
}

#endif /* ZX_BYTES_H */
