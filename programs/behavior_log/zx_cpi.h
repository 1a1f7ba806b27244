/*
 * CPI helpers of behavior_log and challenge that keep to the 5-argument limit of upstream BPF.
 * Needs zerox1.h first.
 */
#ifndef ZX_CPI_H
#define ZX_CPI_H

/*
 * System CreateAccount of `space` bytes owned by `owner`, rent-exempt, paid by `payer`;
 * `signer` holds the new account's PDA seeds (with bump). Updates account->data_len.
 */
static uint64_t zx_create_pda(const SolAccountInfo *payer, const SolAccountInfo *account, uint64_t space,
                              const SolPubkey *owner, const SolSignerSeeds *signer) {
  uint8_t data[52];
  uint64_t lamports = zx_rent_exempt(space);
  for (int i = 0; i < 4; i++) data[i] = 0;
  zx_memcpy(data + 4, &lamports, 8);
  zx_memcpy(data + 12, &space, 8);
  zx_memcpy(data + 20, owner, 32);
  SolPubkey system = ZX_SYSTEM_PROGRAM_ID;
  SolAccountMeta metas[2] = {{payer->key, true, true}, {account->key, true, true}};
  SolInstruction ix = {&system, metas, 2, data, 52};
  SolAccountInfo infos[2] = {*payer, *account};
  uint64_t r = sol_invoke_signed_c(&ix, infos, 2, signer, 1);
  /*
   * The runtime updated the serialized length but not the caller's copy of the account info; a
   * later CPI passing the stale length (0) would read as the caller shrinking a foreign account.
   */
  if (r == 0) ((SolAccountInfo *)account)->data_len = space;
  return r;
}

/** Accounts of an SPL Token Transfer. */
typedef struct {
  const SolAccountInfo *token_program;
  const SolAccountInfo *from;
  const SolAccountInfo *to;
  const SolAccountInfo *authority;
} zx_transfer_accounts;

/* SPL Token Transfer (tag 3) of `amount`, signed by the authority (with PDA seeds when `signer`). */
static uint64_t zx_transfer(const zx_transfer_accounts *a, uint64_t amount, const SolSignerSeeds *signer) {
  uint8_t data[9];
  data[0] = 3;
  for (int i = 0; i < 8; i++) data[1 + i] = (uint8_t)(amount >> (8 * i));
  SolAccountMeta metas[3] = {{a->from->key, true, false}, {a->to->key, true, false}, {a->authority->key, false, true}};
  SolInstruction ix = {a->token_program->key, metas, 3, data, 9};
  SolAccountInfo infos[4] = {*a->from, *a->to, *a->authority, *a->token_program};
  return sol_invoke_signed_c(&ix, infos, 4, signer, signer ? 1 : 0);
}

/* SPL Token InitializeAccount3 (tag 18) of `account` for `mint`, owned by `owner`. */
static uint64_t zx_init_token_account(const SolAccountInfo *token_program, const SolAccountInfo *account,
                                      const SolAccountInfo *mint, const SolPubkey *owner) {
  uint8_t data[33];
  data[0] = 18;
  zx_memcpy(data + 1, owner, 32);
  SolAccountMeta metas[2] = {{account->key, true, false}, {mint->key, false, false}};
  SolInstruction ix = {token_program->key, metas, 2, data, 33};
  SolAccountInfo infos[3] = {*account, *mint, *token_program};
  return sol_invoke_signed_c(&ix, infos, 3, 0, 0);
}

#endif
