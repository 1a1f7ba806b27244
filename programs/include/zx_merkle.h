/*
 * Merkle inclusion (docs/protocol.md §5): leaf = keccak256(log entry CBOR), node =
 * keccak256(left || right), leaf row right-padded with zero hashes to a power of two, proof =
 * (leaf index, siblings from the leaf row upward).
 *
 * Portable (SBPF and host). The includer defines, anywhere in the translation unit:
 *   static void zx_keccak2(const uint8_t *a, uint64_t na, const uint8_t *b, uint64_t nb, uint8_t *out);
 * keccak256 of a || b (sol_keccak256 with two slices on chain, a reference on the host).
 */
#ifndef ZX_MERKLE_H
#define ZX_MERKLE_H

static void zx_keccak2(const uint8_t *a, uint64_t na, const uint8_t *b, uint64_t nb, uint8_t *out);

/*
 * 0 when the leaf at `index` with `depth` siblings (32 bytes each, leaf row upward) hashes up to
 * `root`. The index must fit the depth (index < 2^depth); depth 0 means root == leaf.
 * A leaf is the hash of a log entry of more than 64 bytes, so an internal node (the hash of
 * exactly 64 bytes) can never be passed off as a leaf.
 */
static int zx_merkle_verify(const uint8_t *leaf, uint64_t index, const uint8_t *siblings, uint64_t depth,
                            const uint8_t *root) {
  uint8_t h[32];
  if (depth > 63 || (index >> depth) != 0) return 1;
  for (uint64_t i = 0; i < 32; i++) h[i] = leaf[i];
  for (uint64_t d = 0; d < depth; d++) {
    const uint8_t *s = siblings + d * 32;
    if ((index >> d) & 1) zx_keccak2(s, 32, h, 32, h);
    else zx_keccak2(h, 32, s, 32, h);
  }
  for (uint64_t i = 0; i < 32; i++) {
    if (h[i] != root[i]) return 1;
  }
  return 0;
}

#endif
