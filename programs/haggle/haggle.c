/*
 * Haggle: on-chain settlement of a 0x01 alternating-offers negotiation (NEG1, docs/protocol.md §8).
 * The buyer escrows USDC in a vault owned by the Negotiation PDA [b"negotiation", buyer, seller,
 * conversation_id], keyed by the gossiped conversation so the observatory can join both. Every
 * offer burns decay_bps of the escrow to the treasury (the Rubinstein discount made real); an
 * accepted offer pays the seller minus a protocol fee and returns the rest to the buyer.
 *
 * This file: the entrypoint, initialize, create_negotiation, accept_negotiation. Offers are in
 * offers.c, the sealed reservations in sealed.c, the refunds in refund.c.
 */
#include "haggle_common.h"

static uint64_t initialize(const ZxInput *in) {
  REQUIRE(in->accounts_len >= HAGGLE_INITIALIZE_NACCOUNTS, HAGGLE_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(haggle_initialize_ix), HAGGLE_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *admin = &in->accounts[HAGGLE_INITIALIZE_ACC_ADMIN];
  const SolAccountInfo *config = &in->accounts[HAGGLE_INITIALIZE_ACC_CONFIG];
  const SolAccountInfo *mint = &in->accounts[HAGGLE_INITIALIZE_ACC_USDC_MINT];
  const SolAccountInfo *treasury = &in->accounts[HAGGLE_INITIALIZE_ACC_TREASURY];
  const SolAccountInfo *system = &in->accounts[HAGGLE_INITIALIZE_ACC_SYSTEM_PROGRAM];

  REQUIRE(admin->is_signer, HAGGLE_ERR_MISSING_SIGNATURE);
  REQUIRE(config->is_writable, HAGGLE_ERR_NOT_WRITABLE);
  const SolPubkey sys = ZX_SYSTEM_PROGRAM_ID, token = ZX_TOKEN_PROGRAM_ID;
  REQUIRE(zx_key_eq(system->key, &sys), HAGGLE_ERR_WRONG_PROGRAM);
  SolPubkey expected;
  uint8_t bump;
  SolSignerSeed seeds[2] = {ZX_SEED(HAGGLE_SEED_CONFIG), {&bump, 1}};
  REQUIRE(zx_find_pda(seeds, 1, in->program_id, &expected, &bump) && zx_key_eq(config->key, &expected), HAGGLE_ERR_WRONG_PDA);
  REQUIRE(zx_is_system_empty(config), HAGGLE_ERR_ALREADY_INITIALIZED);
  /* An initialized SPL Token mint (82 bytes, is_initialized at 45). */
  REQUIRE(zx_key_eq(mint->owner, &token) && mint->data_len == 82 && mint->data[45] == 1, HAGGLE_ERR_WRONG_MINT);
  const ZxTokenAccountHead *t = zx_token_account(treasury, &token);
  REQUIRE(t != NULL && zx_key_eq(&t->mint, mint->key), HAGGLE_ERR_WRONG_TREASURY);

  SolSignerSeeds signer = {seeds, 2};
  uint64_t rc = zx_create_account(admin, config, sizeof(haggle_HaggleConfig), in->program_id, &signer);
  if (rc != 0) return rc;
  haggle_HaggleConfig *c = (haggle_HaggleConfig *)config->data;
  c->discriminator = HAGGLE_HAGGLE_CONFIG_DISC;
  c->admin = *admin->key;
  c->usdc_mint = *mint->key;
  c->treasury = *treasury->key;
  c->bump = bump;
  haggle_ev_HaggleInitialized ev = {HAGGLE_EV_HAGGLE_INITIALIZED_DISC, *admin->key, *mint->key, *treasury->key};
  zx_emit(&ev, sizeof ev);
  return ZX_SUCCESS;
}

/* The ranges of programs/README.md "Haggle", relative to the current unix time. */
static bool params_ok(const haggle_create_negotiation_ix *a, int64_t now) {
  return a->max_rounds >= 1 && a->max_rounds <= MAX_ROUNDS_MAX && a->decay_bps <= DECAY_BPS_MAX &&
         a->response_window >= WINDOW_MIN && a->response_window <= WINDOW_MAX && a->deadline >= now + DEADLINE_MIN &&
         a->deadline <= now + DEADLINE_MAX && a->min_offer_bps <= BPS && a->protocol_fee_bps <= FEE_BPS_MAX &&
         a->zopa_detection <= 1;
}

/* Creates the vault at its PDA as an SPL Token account of the mint whose owner is the Negotiation PDA. */
static uint64_t create_vault(const ZxInput *in, const SolAccountInfo *buyer, const SolAccountInfo *vault,
                             const SolAccountInfo *negotiation, uint8_t *vault_bump) {
  const SolAccountInfo *mint = &in->accounts[HAGGLE_CREATE_NEGOTIATION_ACC_USDC_MINT];
  const SolAccountInfo *token_program = &in->accounts[HAGGLE_CREATE_NEGOTIATION_ACC_TOKEN_PROGRAM];
  SolPubkey expected;
  SolSignerSeed seeds[3] = {ZX_SEED(HAGGLE_SEED_VAULT), {negotiation->key->x, 32}, {vault_bump, 1}};
  REQUIRE(zx_find_pda(seeds, 2, in->program_id, &expected, vault_bump) && zx_key_eq(vault->key, &expected), HAGGLE_ERR_WRONG_PDA);
  SolSignerSeeds signer = {seeds, 3};
  uint64_t rc = zx_create_account(buyer, vault, ZX_TOKEN_ACCOUNT_LEN, token_program->key, &signer);
  if (rc != 0) return rc;
  return zx_init_token_account(token_program, vault, mint, negotiation->key);
}

static uint64_t create_negotiation(const ZxInput *in) {
  REQUIRE(in->accounts_len >= HAGGLE_CREATE_NEGOTIATION_NACCOUNTS, HAGGLE_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(haggle_create_negotiation_ix), HAGGLE_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *buyer = &in->accounts[HAGGLE_CREATE_NEGOTIATION_ACC_BUYER];
  const SolAccountInfo *config = &in->accounts[HAGGLE_CREATE_NEGOTIATION_ACC_CONFIG];
  const SolAccountInfo *seller = &in->accounts[HAGGLE_CREATE_NEGOTIATION_ACC_SELLER];
  const SolAccountInfo *negotiation = &in->accounts[HAGGLE_CREATE_NEGOTIATION_ACC_NEGOTIATION];
  const SolAccountInfo *vault = &in->accounts[HAGGLE_CREATE_NEGOTIATION_ACC_VAULT];
  const SolAccountInfo *buyer_usdc = &in->accounts[HAGGLE_CREATE_NEGOTIATION_ACC_BUYER_USDC];
  const SolAccountInfo *mint = &in->accounts[HAGGLE_CREATE_NEGOTIATION_ACC_USDC_MINT];
  const SolAccountInfo *token_program = &in->accounts[HAGGLE_CREATE_NEGOTIATION_ACC_TOKEN_PROGRAM];
  const SolAccountInfo *system = &in->accounts[HAGGLE_CREATE_NEGOTIATION_ACC_SYSTEM_PROGRAM];
  const haggle_create_negotiation_ix *args = (const haggle_create_negotiation_ix *)in->data;

  REQUIRE(buyer->is_signer, HAGGLE_ERR_MISSING_SIGNATURE);
  REQUIRE(negotiation->is_writable && vault->is_writable && buyer_usdc->is_writable, HAGGLE_ERR_NOT_WRITABLE);
  const haggle_HaggleConfig *cfg = hg_config(config, in->program_id);
  REQUIRE(cfg != NULL, HAGGLE_ERR_NOT_INITIALIZED);
  const SolPubkey sys = ZX_SYSTEM_PROGRAM_ID, token = ZX_TOKEN_PROGRAM_ID;
  REQUIRE(zx_key_eq(token_program->key, &token) && zx_key_eq(system->key, &sys), HAGGLE_ERR_WRONG_PROGRAM);
  REQUIRE(!zx_key_eq(buyer->key, seller->key), HAGGLE_ERR_SAME_PARTY);
  SolClock clock = zx_clock();
  REQUIRE(params_ok(args, clock.unix_timestamp), HAGGLE_ERR_INVALID_PARAMETERS);
  REQUIRE(args->deposit > 0, HAGGLE_ERR_ZERO_DEPOSIT);
  REQUIRE(zx_key_eq(mint->key, &cfg->usdc_mint), HAGGLE_ERR_WRONG_MINT);
  const ZxTokenAccountHead *src = zx_token_account(buyer_usdc, &token);
  REQUIRE(src != NULL && zx_key_eq(&src->mint, &cfg->usdc_mint), HAGGLE_ERR_WRONG_MINT);
  REQUIRE(src->amount >= args->deposit, HAGGLE_ERR_INSUFFICIENT_USDC);

  uint8_t conv[16];
  zx_memcpy(conv, args->conversation_id, 16);
  HgNegSeeds seeds;
  hg_neg_seeds(&seeds, buyer->key, seller->key, conv, 0);
  SolPubkey expected;
  REQUIRE(zx_find_pda(seeds.s, 4, in->program_id, &expected, &seeds.bump) && zx_key_eq(negotiation->key, &expected),
          HAGGLE_ERR_WRONG_PDA);
  REQUIRE(zx_is_system_empty(negotiation), HAGGLE_ERR_ALREADY_EXISTS);
  SolSignerSeeds signer = {seeds.s, 5};
  uint64_t rc = zx_create_account(buyer, negotiation, sizeof(haggle_Negotiation), in->program_id, &signer);
  if (rc != 0) return rc;
  uint8_t vault_bump;
  rc = create_vault(in, buyer, vault, negotiation, &vault_bump);
  if (rc != 0) return rc;
  rc = zx_transfer(&(zx_transfer_accounts){token_program, buyer_usdc, vault, buyer}, args->deposit, NULL);
  if (rc != 0) return rc;

  haggle_Negotiation *n = (haggle_Negotiation *)negotiation->data;
  n->discriminator = HAGGLE_NEGOTIATION_DISC;
  n->buyer = *buyer->key;
  n->seller = *seller->key;
  n->vault = *vault->key;
  zx_memcpy(n->conversation_id, conv, 16);
  n->deposit = n->escrow = args->deposit;
  n->created_at = n->last_action_at = clock.unix_timestamp;
  n->deadline = args->deadline;
  n->response_window = args->response_window;
  n->decay_bps = args->decay_bps;
  n->min_offer_bps = args->min_offer_bps;
  n->protocol_fee_bps = args->protocol_fee_bps;
  n->max_rounds = args->max_rounds;
  n->zopa_detection = args->zopa_detection;
  n->status = ST_CREATED;
  n->bump = seeds.bump;
  n->vault_bump = vault_bump;

  haggle_ev_NegotiationCreated ev;
  ev.discriminator = HAGGLE_EV_NEGOTIATION_CREATED_DISC;
  ev.negotiation = *negotiation->key;
  zx_memcpy(ev.conversation_id, conv, 16);
  ev.buyer = n->buyer;
  ev.seller = n->seller;
  ev.deposit = n->deposit;
  ev.deadline = n->deadline;
  ev.created_at = n->created_at;
  ev.response_window = n->response_window;
  ev.decay_bps = n->decay_bps;
  ev.min_offer_bps = n->min_offer_bps;
  ev.protocol_fee_bps = n->protocol_fee_bps;
  ev.max_rounds = n->max_rounds;
  ev.zopa_detection = n->zopa_detection;
  zx_emit(&ev, sizeof ev);
  return ZX_SUCCESS;
}

static uint64_t accept_negotiation(const ZxInput *in) {
  REQUIRE(in->accounts_len >= HAGGLE_ACCEPT_NEGOTIATION_NACCOUNTS, HAGGLE_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == sizeof(haggle_accept_negotiation_ix), HAGGLE_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *seller = &in->accounts[HAGGLE_ACCEPT_NEGOTIATION_ACC_SELLER];
  const SolAccountInfo *negotiation = &in->accounts[HAGGLE_ACCEPT_NEGOTIATION_ACC_NEGOTIATION];
  haggle_Negotiation *n;
  uint64_t rc = hg_open(negotiation, in->program_id, &n);
  if (rc != 0) return rc;
  REQUIRE(hg_side(n, seller) == SIDE_SELLER, HAGGLE_ERR_NOT_SELLER);
  REQUIRE(!n->joined, HAGGLE_ERR_ALREADY_JOINED);
  SolClock clock = zx_clock();
  rc = hg_check_live(n, clock.unix_timestamp);
  if (rc != 0) return rc;
  n->joined = 1;
  n->last_action_at = clock.unix_timestamp;
  haggle_ev_NegotiationJoined ev;
  ev.discriminator = HAGGLE_EV_NEGOTIATION_JOINED_DISC;
  ev.negotiation = *negotiation->key;
  zx_memcpy(ev.conversation_id, n->conversation_id, 16);
  ev.seller = n->seller;
  ev.at = clock.unix_timestamp;
  zx_emit(&ev, sizeof ev);
  return ZX_SUCCESS;
}

uint64_t entrypoint(const uint8_t *input) {
  ZxInput in;
  if (!zx_deserialize(input, &in)) return HAGGLE_ERR_NOT_ENOUGH_ACCOUNTS;
  if (in.data_len < 1) return HAGGLE_ERR_INVALID_INSTRUCTION;
  switch (in.data[0]) {
    case HAGGLE_IX_INITIALIZE: return initialize(&in);
    case HAGGLE_IX_CREATE_NEGOTIATION: return create_negotiation(&in);
    case HAGGLE_IX_ACCEPT_NEGOTIATION: return accept_negotiation(&in);
    case HAGGLE_IX_SUBMIT_OFFER: return hg_submit_offer(&in);
    case HAGGLE_IX_COMMIT_RESERVATION: return hg_commit_reservation(&in);
    case HAGGLE_IX_REVEAL_RESERVATION: return hg_reveal_reservation(&in);
    case HAGGLE_IX_ACCEPT_OFFER: return hg_accept_offer(&in);
    case HAGGLE_IX_REJECT: return hg_reject(&in);
    case HAGGLE_IX_EXPIRE: return hg_expire(&in);
    default: return HAGGLE_ERR_INVALID_INSTRUCTION;
  }
}
