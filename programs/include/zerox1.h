/*
 * zerox1.h: the shared header of the Zerox1 on-chain programs (SBPF v0, upstream clang-19).
 * Every program includes this one file; it pulls in the focused headers:
 *   zx_runtime.h   types, Solana C ABI, syscalls, return codes, well-known ids, input parsing
 *   zx_bytes.h     byte compare and little-endian reads (portable, shared with the host harness)
 *   zx_accounts.h  clock and epochs, events, PDAs, token accounts, identity, account checks
 *   zx_cpi.h       SPL Token and System CPIs
 * Header-only (static inline) so each program is one translation unit plus these files.
 * Upstream BPF limits (no Solana toolchain is used, see programs/README.md): at most 5 arguments
 * per call, no signed division, no mutable globals, no variable-size memcpy builtin (use
 * zx_memcpy), no heap.
 */
#ifndef ZEROX1_H
#define ZEROX1_H

#include "zx_runtime.h"
#include "zx_bytes.h"
#include "zx_accounts.h"
#include "zx_cpi.h"

#endif /* ZEROX1_H */
