/*
 * Cross-program invocations every program needs: SPL Token Transfer and InitializeAccount3,
 * System CreateAccount funded rent-exempt. Included through zerox1.h.
 */
#ifndef ZX_CPI_H
#define ZX_CPI_H

#include "zx_runtime.h"

/* ---- CPI helpers ---- */
/** Accounts of an SPL Token `Transfer` (a struct: upstream BPF allows at most 5 call arguments). */
typedef struct {
  const SolAccountInfo *token_program;
  const SolAccountInfo *from;
  const SolAccountInfo *to;
  const SolAccountInfo *authority;
} zx_transfer_accounts;

/* SPL Token `Transfer` (tag 3) of `amount`, signed by the authority (and its PDA seeds when `signer`). */
static inline uint64_t zx_transfer(const zx_transfer_accounts *a, uint64_t amount, const SolSignerSeeds *signer) {
  uint8_t data[9];
  data[0] = 3;
  for (int i = 0; i < 8; i++) data[1 + i] = (uint8_t)(amount >> (8 * i));
  SolAccountMeta metas[3] = {{a->from->key, true, false}, {a->to->key, true, false}, {a->authority->key, false, true}};
  SolInstruction ix = {a->token_program->key, metas, 3, data, 9};
  SolAccountInfo infos[4] = {*a->from, *a->to, *a->authority, *a->token_program};
  return sol_invoke_signed_c(&ix, infos, 4, signer, signer ? 1 : 0);
}

/* SPL Token `InitializeAccount3` (tag 18) of `account` for `mint`, owned by `owner`. */
static inline uint64_t zx_init_token_account(const SolAccountInfo *token_program, const SolAccountInfo *account,
                                             const SolAccountInfo *mint, const SolPubkey *owner) {
  uint8_t data[33];
  data[0] = 18;
  zx_memcpy(data + 1, owner, 32);
  SolAccountMeta metas[2] = {{account->key, true, false}, {mint->key, false, false}};
  SolInstruction ix = {token_program->key, metas, 2, data, 33};
  SolAccountInfo infos[3] = {*account, *mint, *token_program};
  return sol_invoke_signed_c(&ix, infos, 3, 0, 0);
}

/* Rent-exempt minimum for `space` bytes with the default rent (3480 lamports/byte-year, 2 years, 128-byte overhead). */
static inline uint64_t zx_rent_exempt(uint64_t space) { return (space + 128) * 3480 * 2; }

/*
 * System `CreateAccount` (tag 0) of `space` bytes owned by `owner`, funded rent-exempt by `payer`;
 * `signer` holds the new account's PDA seeds (with bump). (5 arguments: the BPF call limit.)
 */
static inline uint64_t zx_create_account(const SolAccountInfo *payer, const SolAccountInfo *account, uint64_t space,
                                         const SolPubkey *owner, const SolSignerSeeds *signer) {
  uint8_t data[52];
  uint32_t tag = 0;
  uint64_t lamports = zx_rent_exempt(space);
  zx_memcpy(data, &tag, 4);
  zx_memcpy(data + 4, &lamports, 8);
  zx_memcpy(data + 12, &space, 8);
  zx_memcpy(data + 20, owner, 32);
  SolPubkey system = ZX_SYSTEM_PROGRAM_ID;
  SolAccountMeta metas[2] = {{payer->key, true, true}, {account->key, true, true}};
  SolInstruction ix = {&system, metas, 2, data, 52};
  SolAccountInfo infos[2] = {*payer, *account};
  uint64_t r = sol_invoke_signed_c(&ix, infos, 2, signer, 1);
  /*
   * The runtime updates the serialized length but not the caller's copy of the account info; a
   * later CPI passing the stale length (0) would read as the caller shrinking a foreign account.
   */
  if (r == 0) ((SolAccountInfo *)account)->data_len = space;
  return r;
}

#endif /* ZX_CPI_H */
