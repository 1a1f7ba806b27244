/*
 * The embedded chain's stand-in for SATI, the 0x01 agent registry (docs/chain.md "SATI"). It
 * accepts SATI's own `initialize` and `register_agent` (Anchor discriminators, SATI's account
 * order, Borsh arguments) and leaves the accounts and Token-2022 state SATI leaves, so the code
 * that reads SATI on mainnet reads this program the same way. It exists so the embedded default
 * runs offline; on a cluster the real SATI is used and this program is not deployed.
 *
 * Every PDA derives from the running program id: the program is loaded at the configured SATI id
 * (mainnet's by default) and nothing in it names that id.
 */
#include "zerox1.h"
#include "sati_registry.h"
#include "registry_common.h"

/* ---------------------------------------------------------------------------------------------
 * initialize: authority (signer, writable), registry_config (PDA ["registry"]), group_mint, System
 * [, Token-2022]. An existing group_mint must already be a TokenGroup whose update authority is
 * the registry PDA (how SATI's group exists on a cluster). An empty group_mint (a fresh keypair
 * that signs) is created here when Token-2022 is passed as a fifth account: GroupPointer to
 * itself, InitializeMint2 (0 decimals, mint authority the registry PDA), InitializeGroup with the
 * registry PDA as update authority and no size limit. */

#define GROUP_MINT_SPACE (T22_TLV_START + POINTER_TLV)

static uint64_t create_group_mint(const ZxInput *in, const SolAccountInfo *authority, const SolAccountInfo *group,
                                  const SolAccountInfo *registry, const SolSignerSeeds *registry_signer) {
  const SolPubkey t22 = ZX_TOKEN_2022_PROGRAM_ID;
  Create c = {authority, group, GROUP_MINT_SPACE, zx_rent_exempt(GROUP_MINT_SPACE + GROUP_TLV), &t22};
  uint64_t rc = create_account(in, &c, NULL);
  if (rc != 0) return rc;

  uint8_t buf[96];
  Wr w = {buf, 0};
  SolAccountMeta one[1] = {{group->key, true, false}};
  wr_u8(&w, 40); /* GroupPointerExtension */
  wr_u8(&w, 0);  /* Initialize */
  wr_bytes(&w, registry->key, 32);
  wr_bytes(&w, group->key, 32);
  SolBytes d = {buf, w.o};
  if ((rc = invoke(in, &t22, one, 1, &d, NULL)) != 0) return rc;

  w.o = 0;
  wr_u8(&w, 20); /* InitializeMint2 */
  wr_u8(&w, 0);  /* decimals */
  wr_bytes(&w, registry->key, 32);
  wr_u8(&w, 0); /* no freeze authority */
  d.len = w.o;
  if ((rc = invoke(in, &t22, one, 1, &d, NULL)) != 0) return rc;

  w.o = 0;
  wr_bytes(&w, DISC_GROUP_INITIALIZE, 8);
  wr_bytes(&w, registry->key, 32);
  wr_u64(&w, ~0ULL);
  d.len = w.o;
  SolAccountMeta metas[3] = {{group->key, true, false}, {group->key, false, false}, {registry->key, false, true}};
  return invoke(in, &t22, metas, 3, &d, registry_signer);
}

/* The group mint is a Token-2022 TokenGroup naming itself, whose update authority is `registry`. */
static bool is_registry_group(const SolAccountInfo *group, const SolPubkey *registry) {
  const SolPubkey t22 = ZX_TOKEN_2022_PROGRAM_ID;
  if (!zx_key_eq(group->owner, &t22)) return false;
  uint64_t len = 0;
  const uint8_t *g = zx_t22_extension(group, EXT_TOKEN_GROUP, &len);
  return g != NULL && len >= 80 && zx_key_eq((const SolPubkey *)g, registry) && zx_key_eq((const SolPubkey *)(g + 32), group->key);
}

static uint64_t initialize(const ZxInput *in) {
  REQUIRE(in->accounts_len >= 4, SATI_REGISTRY_ERR_NOT_ENOUGH_ACCOUNTS);
  REQUIRE(in->data_len == 8, SATI_REGISTRY_ERR_INVALID_INSTRUCTION);
  const SolAccountInfo *authority = &in->accounts[0];
  const SolAccountInfo *registry = &in->accounts[1];
  const SolAccountInfo *group = &in->accounts[2];
  const SolAccountInfo *system = &in->accounts[3];
  REQUIRE(authority->is_signer, SATI_REGISTRY_ERR_MISSING_SIGNATURE);
  REQUIRE(authority->is_writable && registry->is_writable && group->is_writable, SATI_REGISTRY_ERR_NOT_WRITABLE);
  const SolPubkey sys = ZX_SYSTEM_PROGRAM_ID, t22 = ZX_TOKEN_2022_PROGRAM_ID;
  REQUIRE(zx_key_eq(system->key, &sys), SATI_REGISTRY_ERR_WRONG_PROGRAM);
  SolPubkey expected;
  uint8_t bump;
  SolSignerSeed seeds[2] = {ZX_SEED(SATI_REGISTRY_SEED_REGISTRY), {&bump, 1}};
  REQUIRE(zx_find_pda(seeds, 1, in->program_id, &expected, &bump) && zx_key_eq(registry->key, &expected), SATI_REGISTRY_ERR_WRONG_PDA);
  REQUIRE(zx_is_system_empty(registry), SATI_REGISTRY_ERR_ALREADY_INITIALIZED);
  SolSignerSeeds signer = {seeds, 2};

  uint64_t rc;
  if (zx_is_system_empty(group)) {
    REQUIRE(in->accounts_len >= 5, SATI_REGISTRY_ERR_NOT_ENOUGH_ACCOUNTS);
    REQUIRE(zx_key_eq(in->accounts[4].key, &t22), SATI_REGISTRY_ERR_WRONG_PROGRAM);
    REQUIRE(group->is_signer, SATI_REGISTRY_ERR_MISSING_SIGNATURE);
    if ((rc = create_group_mint(in, authority, group, registry, &signer)) != 0) return rc;
  }
  REQUIRE(is_registry_group(group, registry->key), SATI_REGISTRY_ERR_WRONG_GROUP_MINT);

  Create c = {authority, registry, sizeof(sati_registry_RegistryConfig), zx_rent_exempt(sizeof(sati_registry_RegistryConfig)), in->program_id};
  if ((rc = create_account(in, &c, &signer)) != 0) return rc;
  sati_registry_RegistryConfig *cfg = (sati_registry_RegistryConfig *)registry->data;
  cfg->discriminator = SATI_REGISTRY_REGISTRY_CONFIG_DISC;
  cfg->group_mint = *group->key;
  cfg->authority = *authority->key;
  cfg->total_agents = 0;
  cfg->bump = bump;
  return ZX_SUCCESS;
}

/* ---------------------------------------------------------------------------------------------
 * register_agent: accounts payer, owner, registry_config, group_mint, agent_mint, owner's
 * Token-2022 ATA, Token-2022, agent_index (PDA for total_agents + 1), ATA program, System. */

enum {
  ACC_PAYER, ACC_OWNER, ACC_REGISTRY, ACC_GROUP, ACC_MINT, ACC_ATA, ACC_T22, ACC_INDEX, ACC_ATA_PROGRAM, ACC_SYSTEM, N_ACCOUNTS
};

typedef struct {
  Str name;
  Str symbol;
  Str uri;
  uint64_t nfields;
  /* The Borsh bytes of the entries (re-read when the fields are written). */
  const uint8_t *fields;
  uint64_t fields_len;
  uint64_t fields_bytes; /* sum of key + value lengths */
  bool non_transferable;
} Args;

static uint64_t parse_args(const ZxInput *in, Args *a) {
  Rd r = {in->data, in->data_len, 8};
  REQUIRE(rd_str(&r, &a->name) && rd_str(&r, &a->symbol) && rd_str(&r, &a->uri), SATI_REGISTRY_ERR_INVALID_INSTRUCTION);
  REQUIRE(a->name.len <= MAX_NAME, SATI_REGISTRY_ERR_NAME_TOO_LONG);
  REQUIRE(a->symbol.len <= MAX_SYMBOL, SATI_REGISTRY_ERR_SYMBOL_TOO_LONG);
  REQUIRE(a->uri.len <= MAX_URI, SATI_REGISTRY_ERR_URI_TOO_LONG);
  uint64_t opt;
  REQUIRE(rd_u8(&r, &opt) && opt <= 1, SATI_REGISTRY_ERR_INVALID_INSTRUCTION);
  a->nfields = 0;
  a->fields_bytes = 0;
  if (opt == 1) {
    REQUIRE(rd_u32(&r, &a->nfields), SATI_REGISTRY_ERR_INVALID_INSTRUCTION);
    REQUIRE(a->nfields <= MAX_FIELDS, SATI_REGISTRY_ERR_TOO_MANY_FIELDS);
  }
  a->fields = in->data + r.o;
  for (uint64_t i = 0; i < a->nfields; i++) {
    Str k, v;
    REQUIRE(rd_str(&r, &k) && rd_str(&r, &v), SATI_REGISTRY_ERR_INVALID_INSTRUCTION);
    REQUIRE(k.len <= MAX_KEY && v.len <= MAX_VALUE, SATI_REGISTRY_ERR_FIELD_TOO_LONG);
    a->fields_bytes += k.len + v.len;
  }
  a->fields_len = (uint64_t)(in->data + r.o - a->fields);
  uint64_t nt;
  REQUIRE(rd_u8(&r, &nt) && nt <= 1, SATI_REGISTRY_ERR_INVALID_INSTRUCTION);
  a->non_transferable = nt == 1;
  REQUIRE(r.o == r.n, SATI_REGISTRY_ERR_INVALID_INSTRUCTION);
  return 0;
}

/* TokenMetadata TLV value size: update authority, mint, three strings, the field vector. */
static uint64_t metadata_len(const Args *a) {
  return 32 + 32 + (4 + a->name.len) + (4 + a->symbol.len) + (4 + a->uri.len) + 4 + a->nfields * 8 + a->fields_bytes;
}

typedef struct {
  const ZxInput *in;
  const Args *args;
  SolAccountInfo *acc;
  const SolSignerSeeds *registry_signer;
} Reg;

/* Mint extensions that must exist before InitializeMint2: MetadataPointer, GroupMemberPointer, NonTransferable. */
static uint64_t mint_extensions(const Reg *g) {
  const SolPubkey t22 = ZX_TOKEN_2022_PROGRAM_ID;
  SolAccountInfo *acc = g->acc;
  SolAccountMeta one[1] = {{acc[ACC_MINT].key, true, false}};
  uint8_t buf[66];
  Wr w = {buf, 0};
  wr_u8(&w, 39); /* MetadataPointerExtension */
  wr_u8(&w, 0);  /* Initialize: authority = owner, metadata = the mint itself */
  wr_bytes(&w, acc[ACC_OWNER].key, 32);
  wr_bytes(&w, acc[ACC_MINT].key, 32);
  SolBytes d = {buf, w.o};
  uint64_t rc = invoke(g->in, &t22, one, 1, &d, NULL);
  if (rc != 0) return rc;
  w.o = 0;
  wr_u8(&w, 41); /* GroupMemberPointerExtension */
  wr_u8(&w, 0);  /* Initialize: authority = the registry PDA, member = the mint itself */
  wr_bytes(&w, acc[ACC_REGISTRY].key, 32);
  wr_bytes(&w, acc[ACC_MINT].key, 32);
  if ((rc = invoke(g->in, &t22, one, 1, &d, NULL)) != 0) return rc;
  if (g->args->non_transferable) {
    w.o = 0;
    wr_u8(&w, 32); /* InitializeNonTransferableMint */
    d.len = w.o;
    if ((rc = invoke(g->in, &t22, one, 1, &d, NULL)) != 0) return rc;
  }
  w.o = 0;
  wr_u8(&w, 20); /* InitializeMint2: 0 decimals, payer as temporary mint authority, no freeze authority */
  wr_u8(&w, 0);
  wr_bytes(&w, acc[ACC_PAYER].key, 32);
  wr_u8(&w, 0);
  d.len = w.o;
  return invoke(g->in, &t22, one, 1, &d, NULL);
}

/*
 * TokenMetadata: name, symbol, uri, then each additional field; update authority = owner. Adding
 * a field needs the update authority's signature and the owner need not sign, so with fields the
 * payer holds the authority while they are written and hands it to the owner after.
 */
static uint64_t mint_metadata(const Reg *g) {
  const SolPubkey t22 = ZX_TOKEN_2022_PROGRAM_ID;
  SolAccountInfo *acc = g->acc;
  const Args *a = g->args;
  bool staged = a->nfields > 0 && !zx_key_eq(acc[ACC_OWNER].key, acc[ACC_PAYER].key);
  const SolAccountInfo *first_authority = staged || a->nfields > 0 ? &acc[ACC_PAYER] : &acc[ACC_OWNER];
  uint8_t buf[8 + 4 + MAX_NAME + 4 + MAX_SYMBOL + 4 + MAX_URI];
  Wr w = {buf, 0};
  wr_bytes(&w, DISC_MD_INITIALIZE, 8);
  wr_str(&w, &a->name);
  wr_str(&w, &a->symbol);
  wr_str(&w, &a->uri);
  SolBytes d = {buf, w.o};
  SolAccountMeta init[4] = {
      {acc[ACC_MINT].key, true, false}, {first_authority->key, false, false}, {acc[ACC_MINT].key, false, false}, {acc[ACC_PAYER].key, false, true}};
  uint64_t rc = invoke(g->in, &t22, init, 4, &d, NULL);
  if (rc != 0) return rc;

  SolAccountMeta upd[2] = {{acc[ACC_MINT].key, true, false}, {acc[ACC_PAYER].key, false, true}};
  Rd r = {a->fields, a->fields_len, 0};
  for (uint64_t i = 0; i < a->nfields; i++) {
    Str k, v;
    if (!rd_str(&r, &k) || !rd_str(&r, &v)) return SATI_REGISTRY_ERR_INVALID_INSTRUCTION;
    uint8_t fb[8 + 1 + 4 + MAX_KEY + 4 + MAX_VALUE];
    Wr f = {fb, 0};
    wr_bytes(&f, DISC_MD_UPDATE_FIELD, 8);
    wr_u8(&f, 3); /* Field::Key(String) */
    wr_str(&f, &k);
    wr_str(&f, &v);
    SolBytes fd = {fb, f.o};
    if ((rc = invoke(g->in, &t22, upd, 2, &fd, NULL)) != 0) return rc;
  }
  if (staged) {
    w.o = 0;
    wr_bytes(&w, DISC_MD_UPDATE_AUTHORITY, 8);
    wr_bytes(&w, acc[ACC_OWNER].key, 32);
    d.len = w.o;
    if ((rc = invoke(g->in, &t22, upd, 2, &d, NULL)) != 0) return rc;
  }
  return 0;
}

/* TokenGroupMember (the registry PDA signs as the group's update authority), the owner's ATA, 1 token, no mint authority. */
static uint64_t membership_and_supply(const Reg *g) {
  const SolPubkey t22 = ZX_TOKEN_2022_PROGRAM_ID, ata_program = ZX_ATA_PROGRAM_ID;
  SolAccountInfo *acc = g->acc;
  uint8_t buf[16];
  Wr w = {buf, 0};
  wr_bytes(&w, DISC_GROUP_INITIALIZE_MEMBER, 8);
  SolBytes d = {buf, w.o};
  SolAccountMeta member[5] = {{acc[ACC_MINT].key, true, false}, {acc[ACC_MINT].key, false, false}, {acc[ACC_PAYER].key, false, true},
                              {acc[ACC_GROUP].key, true, false}, {acc[ACC_REGISTRY].key, false, true}};
  uint64_t rc = invoke(g->in, &t22, member, 5, &d, g->registry_signer);
  if (rc != 0) return rc;

  w.o = 0;
  wr_u8(&w, 0); /* associated token account: Create */
  d.len = w.o;
  SolAccountMeta ata[6] = {{acc[ACC_PAYER].key, true, true}, {acc[ACC_ATA].key, true, false}, {acc[ACC_OWNER].key, false, false},
                           {acc[ACC_MINT].key, false, false}, {acc[ACC_SYSTEM].key, false, false}, {acc[ACC_T22].key, false, false}};
  if ((rc = invoke(g->in, &ata_program, ata, 6, &d, NULL)) != 0) return rc;

  w.o = 0;
  wr_u8(&w, 7); /* MintTo 1 */
  wr_u64(&w, 1);
  d.len = w.o;
  SolAccountMeta mint_to[3] = {{acc[ACC_MINT].key, true, false}, {acc[ACC_ATA].key, true, false}, {acc[ACC_PAYER].key, false, true}};
  if ((rc = invoke(g->in, &t22, mint_to, 3, &d, NULL)) != 0) return rc;

  w.o = 0;
  wr_u8(&w, 6); /* SetAuthority MintTokens → none */
  wr_u8(&w, 0);
  wr_u8(&w, 0);
  d.len = w.o;
  SolAccountMeta set[2] = {{acc[ACC_MINT].key, true, false}, {acc[ACC_PAYER].key, false, true}};
  if ((rc = invoke(g->in, &t22, set, 2, &d, NULL)) != 0) return rc;
  /* COption tag of the mint authority (offset 0) must now read None. */
  REQUIRE(acc[ACC_MINT].data_len >= 82 && acc[ACC_MINT].data[0] == 0, SATI_REGISTRY_ERR_MINT_AUTHORITY_NOT_REMOVED);
  return 0;
}

/* AgentRegistered {mint, owner, member_number, name, uri, non_transferable} as one sol_log_data record. */
static void emit_registered(const Reg *g, uint64_t member_number) {
  uint8_t buf[8 + 32 + 32 + 8 + 4 + MAX_NAME + 4 + MAX_URI + 1];
  Wr w = {buf, 0};
  wr_bytes(&w, DISC_AGENT_REGISTERED, 8);
  wr_bytes(&w, g->acc[ACC_MINT].key, 32);
  wr_bytes(&w, g->acc[ACC_OWNER].key, 32);
  wr_u64(&w, member_number);
  wr_str(&w, &g->args->name);
  wr_str(&w, &g->args->uri);
  wr_u8(&w, g->args->non_transferable ? 1 : 0);
  zx_emit(buf, w.o);
}

static uint64_t register_agent(const ZxInput *in) {
  REQUIRE(in->accounts_len >= N_ACCOUNTS, SATI_REGISTRY_ERR_NOT_ENOUGH_ACCOUNTS);
  SolAccountInfo *acc = (SolAccountInfo *)in->accounts;
  Args args;
  uint64_t rc = parse_args(in, &args);
  if (rc != 0) return rc;

  REQUIRE(acc[ACC_PAYER].is_signer && acc[ACC_MINT].is_signer, SATI_REGISTRY_ERR_MISSING_SIGNATURE);
  REQUIRE(acc[ACC_PAYER].is_writable && acc[ACC_REGISTRY].is_writable && acc[ACC_GROUP].is_writable && acc[ACC_MINT].is_writable &&
              acc[ACC_ATA].is_writable && acc[ACC_INDEX].is_writable,
          SATI_REGISTRY_ERR_NOT_WRITABLE);
  const SolPubkey sys = ZX_SYSTEM_PROGRAM_ID, t22 = ZX_TOKEN_2022_PROGRAM_ID, ata_program = ZX_ATA_PROGRAM_ID;
  REQUIRE(zx_key_eq(acc[ACC_T22].key, &t22) && zx_key_eq(acc[ACC_ATA_PROGRAM].key, &ata_program) && zx_key_eq(acc[ACC_SYSTEM].key, &sys),
          SATI_REGISTRY_ERR_WRONG_PROGRAM);
  const uint8_t disc[8] = {23, 118, 10, 246, 173, 231, 243, 156};
  REQUIRE(zx_is_account(&acc[ACC_REGISTRY], in->program_id, disc, sizeof(sati_registry_RegistryConfig)), SATI_REGISTRY_ERR_NOT_INITIALIZED);
  sati_registry_RegistryConfig *cfg = (sati_registry_RegistryConfig *)acc[ACC_REGISTRY].data;
  uint8_t bump = cfg->bump;
  SolSignerSeed rseeds[2] = {ZX_SEED(SATI_REGISTRY_SEED_REGISTRY), {&bump, 1}};
  REQUIRE(zx_check_pda(acc[ACC_REGISTRY].key, rseeds, 2, in->program_id), SATI_REGISTRY_ERR_WRONG_PDA);
  REQUIRE(zx_key_eq(acc[ACC_GROUP].key, &cfg->group_mint), SATI_REGISTRY_ERR_WRONG_GROUP_MINT);
  REQUIRE(zx_is_system_empty(&acc[ACC_MINT]), SATI_REGISTRY_ERR_MINT_NOT_FRESH);
  REQUIRE(cfg->total_agents < ~0ULL, SATI_REGISTRY_ERR_OVERFLOW);
  uint64_t member_number = cfg->total_agents + 1;
  uint8_t number_le[8], ibump;
  for (int i = 0; i < 8; i++) number_le[i] = (uint8_t)(member_number >> (8 * i));
  SolSignerSeed iseeds[3] = {ZX_SEED(SATI_REGISTRY_SEED_AGENT_INDEX), {number_le, 8}, {&ibump, 1}};
  SolPubkey index_key;
  REQUIRE(zx_find_pda(iseeds, 2, in->program_id, &index_key, &ibump) && zx_key_eq(acc[ACC_INDEX].key, &index_key), SATI_REGISTRY_ERR_WRONG_PDA);

  /* The mint: fixed extensions now; rent for the final size (metadata and membership grow it). */
  uint64_t space = T22_TLV_START + 2 * POINTER_TLV + (args.non_transferable ? 4 : 0);
  uint64_t final_space = space + 4 + metadata_len(&args) + MEMBER_TLV;
  Create c = {&acc[ACC_PAYER], &acc[ACC_MINT], space, zx_rent_exempt(final_space), &t22};
  if ((rc = create_account(in, &c, NULL)) != 0) return rc;
  SolSignerSeeds registry_signer = {rseeds, 2};
  Reg g = {in, &args, acc, &registry_signer};
  if ((rc = mint_extensions(&g)) != 0) return rc;
  if ((rc = mint_metadata(&g)) != 0) return rc;
  if ((rc = membership_and_supply(&g)) != 0) return rc;

  cfg->total_agents = member_number;
  SolSignerSeeds index_signer = {iseeds, 3};
  Create ic = {&acc[ACC_PAYER], &acc[ACC_INDEX], sizeof(sati_registry_AgentIndex), zx_rent_exempt(sizeof(sati_registry_AgentIndex)), in->program_id};
  if ((rc = create_account(in, &ic, &index_signer)) != 0) return rc;
  sati_registry_AgentIndex *ix = (sati_registry_AgentIndex *)acc[ACC_INDEX].data;
  ix->discriminator = SATI_REGISTRY_AGENT_INDEX_DISC;
  ix->mint = *acc[ACC_MINT].key;
  ix->bump = ibump;
  emit_registered(&g, member_number);
  return ZX_SUCCESS;
}

uint64_t entrypoint(const uint8_t *input) {
  ZxInput in;
  if (!zx_deserialize(input, &in)) return SATI_REGISTRY_ERR_NOT_ENOUGH_ACCOUNTS;
  if (in.data_len < 8) return SATI_REGISTRY_ERR_INVALID_INSTRUCTION;
  if (zx_bytes_eq(in.data, DISC_REGISTER_AGENT, 8)) return register_agent(&in);
  if (zx_bytes_eq(in.data, DISC_INITIALIZE, 8)) return initialize(&in);
  return SATI_REGISTRY_ERR_INVALID_INSTRUCTION;
}
