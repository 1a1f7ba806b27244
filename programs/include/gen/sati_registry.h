/* Generated from programs/sati_registry/program.json by programs/tools/gen.ts. Do not edit. */
#ifndef ZX_GEN_SATI_REGISTRY_H
#define ZX_GEN_SATI_REGISTRY_H
#include "zerox1.h"
#include "ids.h"
#include "constants.h"

/* ---- PDA seeds ---- */
#define SATI_REGISTRY_SEED_REGISTRY "registry"
#define SATI_REGISTRY_SEED_AGENT_INDEX "agent_index"

/* ---- Accounts ---- */
/* PDA [b"registry"]: SATI's group mint, authority (zeros = immutable), total_agents, bump. 81 bytes. */
#define SATI_REGISTRY_REGISTRY_CONFIG_DISC 0x9cf3e7adf60a7617ULL
typedef struct __attribute__((packed)) {
  uint64_t discriminator;
  SolPubkey group_mint;
  SolPubkey authority;
  uint64_t total_agents;
  uint8_t bump;
} sati_registry_RegistryConfig;
_Static_assert(sizeof(sati_registry_RegistryConfig) == 81, "sati_registry_RegistryConfig size");
_Static_assert(__builtin_offsetof(sati_registry_RegistryConfig, discriminator) == 0, "sati_registry_RegistryConfig.discriminator");
_Static_assert(__builtin_offsetof(sati_registry_RegistryConfig, group_mint) == 8, "sati_registry_RegistryConfig.group_mint");
_Static_assert(__builtin_offsetof(sati_registry_RegistryConfig, authority) == 40, "sati_registry_RegistryConfig.authority");
_Static_assert(__builtin_offsetof(sati_registry_RegistryConfig, total_agents) == 72, "sati_registry_RegistryConfig.total_agents");
_Static_assert(__builtin_offsetof(sati_registry_RegistryConfig, bump) == 80, "sati_registry_RegistryConfig.bump");

/* PDA [b"agent_index", member_number u64 LE]: the agent mint registered as that member. 41 bytes. */
#define SATI_REGISTRY_AGENT_INDEX_DISC 0xb3318db467239af1ULL
typedef struct __attribute__((packed)) {
  uint64_t discriminator;
  SolPubkey mint;
  uint8_t bump;
} sati_registry_AgentIndex;
_Static_assert(sizeof(sati_registry_AgentIndex) == 41, "sati_registry_AgentIndex size");
_Static_assert(__builtin_offsetof(sati_registry_AgentIndex, discriminator) == 0, "sati_registry_AgentIndex.discriminator");
_Static_assert(__builtin_offsetof(sati_registry_AgentIndex, mint) == 8, "sati_registry_AgentIndex.mint");
_Static_assert(__builtin_offsetof(sati_registry_AgentIndex, bump) == 40, "sati_registry_AgentIndex.bump");

/* ---- Events (emitted whole with sol_log_data) ---- */
/* ---- Instructions ---- */
/* ---- Errors (custom program error codes) ---- */
#define SATI_REGISTRY_ERR_INVALID_INSTRUCTION 24576ULL /* unknown discriminator or malformed Borsh arguments */
#define SATI_REGISTRY_ERR_NOT_ENOUGH_ACCOUNTS 24577ULL /* fewer accounts than the instruction needs */
#define SATI_REGISTRY_ERR_MISSING_SIGNATURE 24578ULL /* a required signer did not sign */
#define SATI_REGISTRY_ERR_WRONG_PDA 24579ULL /* registry_config or agent_index is not the expected PDA */
#define SATI_REGISTRY_ERR_ALREADY_INITIALIZED 24580ULL /* the registry already exists */
#define SATI_REGISTRY_ERR_NOT_INITIALIZED 24581ULL /* registry_config is missing or not this program's */
#define SATI_REGISTRY_ERR_WRONG_PROGRAM 24582ULL /* a program account is not the expected program */
#define SATI_REGISTRY_ERR_WRONG_GROUP_MINT 24583ULL /* group_mint is not the registry's TokenGroup mint (update authority = registry PDA) */
#define SATI_REGISTRY_ERR_NAME_TOO_LONG 24584ULL /* name is longer than 32 bytes */
#define SATI_REGISTRY_ERR_SYMBOL_TOO_LONG 24585ULL /* symbol is longer than 10 bytes */
#define SATI_REGISTRY_ERR_URI_TOO_LONG 24586ULL /* uri is longer than 200 bytes */
#define SATI_REGISTRY_ERR_TOO_MANY_FIELDS 24587ULL /* more than 10 additional metadata entries */
#define SATI_REGISTRY_ERR_FIELD_TOO_LONG 24588ULL /* an additional metadata key is longer than 32 or value longer than 200 bytes */
#define SATI_REGISTRY_ERR_MINT_NOT_FRESH 24589ULL /* agent_mint must be a new, empty account */
#define SATI_REGISTRY_ERR_MINT_AUTHORITY_NOT_REMOVED 24590ULL /* the mint authority is still set after registration */
#define SATI_REGISTRY_ERR_NOT_WRITABLE 24591ULL /* an account that must be writable is not */
#define SATI_REGISTRY_ERR_OVERFLOW 24592ULL /* total_agents would overflow */

#endif /* ZX_GEN_SATI_REGISTRY_H */
