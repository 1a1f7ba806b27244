/*
 * The Solana runtime as the programs see it: freestanding integer types, the C ABI structs,
 * syscall declarations, return codes, well-known program ids and the parse of the loader's
 * SBPF v0 input buffer. Included through zerox1.h.
 */
#ifndef ZX_RUNTIME_H
#define ZX_RUNTIME_H

typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef _Bool bool;
#define true 1
#define false 0
#define NULL ((void *)0)

_Static_assert(sizeof(uint64_t) == 8, "uint64_t");
_Static_assert(sizeof(void *) == 8, "64-bit pointers");

/* ---- Runtime types (Solana C ABI) ---- */
typedef struct { uint8_t x[32]; } SolPubkey;

typedef struct {
  SolPubkey *key;
  uint64_t *lamports;
  uint64_t data_len;
  uint8_t *data;
  SolPubkey *owner;
  uint64_t rent_epoch;
  bool is_signer;
  bool is_writable;
  bool executable;
} SolAccountInfo;

typedef struct { const uint8_t *addr; uint64_t len; } SolBytes;
typedef struct { const uint8_t *addr; uint64_t len; } SolSignerSeed;
typedef struct { const SolSignerSeed *addr; uint64_t len; } SolSignerSeeds;
typedef struct { SolPubkey *pubkey; bool is_writable; bool is_signer; } SolAccountMeta;
typedef struct {
  SolPubkey *program_id;
  SolAccountMeta *accounts;
  uint64_t account_len;
  uint8_t *data;
  uint64_t data_len;
} SolInstruction;

typedef struct {
  uint64_t slot;
  int64_t epoch_start_timestamp;
  uint64_t epoch;
  uint64_t leader_schedule_epoch;
  int64_t unix_timestamp;
} SolClock;

/* ---- Syscalls (names checked against the runtime's list by the link step) ---- */
void sol_log_(const char *message, uint64_t len);
void sol_log_64_(uint64_t a, uint64_t b, uint64_t c, uint64_t d, uint64_t e);
void sol_log_pubkey(const SolPubkey *key);
void sol_log_compute_units_(void);
void sol_log_data(const SolBytes *data, uint64_t count);
uint64_t sol_keccak256(const SolBytes *bytes, uint64_t count, uint8_t *result);
uint64_t sol_sha256(const SolBytes *bytes, uint64_t count, uint8_t *result);
uint64_t sol_invoke_signed_c(const SolInstruction *ix, const SolAccountInfo *infos, uint64_t infos_len,
                             const SolSignerSeeds *seeds, uint64_t seeds_len);
uint64_t sol_create_program_address(const SolSignerSeed *seeds, uint64_t seeds_len, const SolPubkey *program_id,
                                    SolPubkey *out);
uint64_t sol_try_find_program_address(const SolSignerSeed *seeds, uint64_t seeds_len, const SolPubkey *program_id,
                                      SolPubkey *out, uint8_t *bump);
uint64_t sol_get_clock_sysvar(SolClock *clock);
void sol_memcpy_(void *dst, const void *src, uint64_t n);
void sol_memset_(void *dst, uint8_t c, uint64_t n);
void sol_memcmp_(const void *a, const void *b, uint64_t n, int32_t *result);
void sol_set_return_data(const uint8_t *data, uint64_t len);
void sol_panic_(const char *file, uint64_t len, uint64_t line, uint64_t column);

#define zx_memcpy(d, s, n) sol_memcpy_((d), (s), (n))
#define zx_memset(d, c, n) sol_memset_((d), (c), (n))
#define zx_log(lit) sol_log_((lit), sizeof(lit) - 1)

static inline bool zx_memeq(const void *a, const void *b, uint64_t n) {
  int32_t r = 0;
  sol_memcmp_(a, b, n, &r);
  return r == 0;
}

static inline bool zx_key_eq(const SolPubkey *a, const SolPubkey *b) {
  const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;
  return x[0] == y[0] && x[1] == y[1] && x[2] == y[2] && x[3] == y[3];
}

/* ---- Return codes ---- */
#define ZX_SUCCESS 0ULL
#define ZX_BUILTIN(x) ((uint64_t)(x) << 32)
#define ZX_ERROR_INVALID_ARGUMENT ZX_BUILTIN(3)
#define ZX_ERROR_INVALID_INSTRUCTION_DATA ZX_BUILTIN(4)
#define ZX_ERROR_NOT_ENOUGH_ACCOUNT_KEYS ZX_BUILTIN(11)
/* Custom errors are returned as their u32 code (never 0): programs/README.md "Errors". */

/* ---- Well-known ids ---- */
/* 11111111111111111111111111111111 */
#define ZX_SYSTEM_PROGRAM_ID {{0}}
/* TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA */
#define ZX_TOKEN_PROGRAM_ID {{0x06, 0xdd, 0xf6, 0xe1, 0xd7, 0x65, 0xa1, 0x93, 0xd9, 0xcb, 0xe1, 0x46, 0xce, 0xeb, 0x79, 0xac, \
                              0x1c, 0xb4, 0x85, 0xed, 0x5f, 0x5b, 0x37, 0x91, 0x3a, 0x8c, 0xf5, 0x85, 0x7e, 0xff, 0x00, 0xa9}}
/* TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb */
#define ZX_TOKEN_2022_PROGRAM_ID {{0x06, 0xdd, 0xf6, 0xe1, 0xee, 0x75, 0x8f, 0xde, 0x18, 0x42, 0x5d, 0xbc, 0xe4, 0x6c, 0xcd, 0xda, \
                                   0xb6, 0x1a, 0xfc, 0x4d, 0x83, 0xb9, 0x0d, 0x27, 0xfe, 0xbd, 0xf9, 0x28, 0xd8, 0xa1, 0x8b, 0xfc}}
/* Sysvar1nstructions1111111111111111111111111 */
#define ZX_INSTRUCTIONS_SYSVAR_ID {{0x06, 0xa7, 0xd5, 0x17, 0x18, 0x7b, 0xd1, 0x66, 0x35, 0xda, 0xd4, 0x04, 0x55, 0xfd, 0xc2, 0xc0, \
                                    0xc1, 0x24, 0xc6, 0x8f, 0x21, 0x56, 0x75, 0xa5, 0xdb, 0xba, 0xcb, 0x5f, 0x08, 0x00, 0x00, 0x00}}
/* Ed25519SigVerify111111111111111111111111111 */
#define ZX_ED25519_PROGRAM_ID {{0x03, 0x7d, 0x46, 0xd6, 0x7c, 0x93, 0xfb, 0xbe, 0x12, 0xf9, 0x42, 0x8f, 0x83, 0x8d, 0x40, 0xff, \
                                0x05, 0x70, 0x74, 0x49, 0x27, 0xf4, 0x8a, 0x64, 0xfc, 0xca, 0x70, 0x44, 0x80, 0x00, 0x00, 0x00}}

/* ---- Entrypoint input (SBPF v0 aligned serialization) ---- */
/* A program needing more defines it before including zerox1.h (each program is its own translation unit). */
#ifndef ZX_MAX_ACCOUNTS
#define ZX_MAX_ACCOUNTS 16
#endif
#define ZX_MAX_PERMITTED_DATA_INCREASE (1024 * 10)

typedef struct {
  SolAccountInfo accounts[ZX_MAX_ACCOUNTS];
  uint64_t accounts_len;
  const uint8_t *data;
  uint64_t data_len;
  const SolPubkey *program_id;
} ZxInput;

/* Parses the loader's input buffer. Returns false on more than ZX_MAX_ACCOUNTS accounts. */
static inline bool zx_deserialize(const uint8_t *input, ZxInput *out) {
  uint64_t n = *(const uint64_t *)input;
  input += 8;
  if (n > ZX_MAX_ACCOUNTS) return false;
  out->accounts_len = n;
  for (uint64_t i = 0; i < n; i++) {
    uint8_t dup = *input;
    input += 1;
    if (dup == 0xff) {
      SolAccountInfo *a = &out->accounts[i];
      a->is_signer = *input != 0; input += 1;
      a->is_writable = *input != 0; input += 1;
      a->executable = *input != 0; input += 1;
      input += 4; /* original data length padding */
      a->key = (SolPubkey *)input; input += 32;
      a->owner = (SolPubkey *)input; input += 32;
      a->lamports = (uint64_t *)input; input += 8;
      a->data_len = *(const uint64_t *)input; input += 8;
      a->data = (uint8_t *)input;
      input += a->data_len + ZX_MAX_PERMITTED_DATA_INCREASE;
      input = (const uint8_t *)(((uint64_t)input + 7) & ~7ULL);
      a->rent_epoch = *(const uint64_t *)input; input += 8;
    } else {
      out->accounts[i] = out->accounts[dup];
      input += 7;
    }
  }
  out->data_len = *(const uint64_t *)input;
  input += 8;
  out->data = input;
  input += out->data_len;
  out->program_id = (const SolPubkey *)input;
  return true;
}

#endif /* ZX_RUNTIME_H */
