/* Generated from programs/haggle/program.json by programs/tools/gen.ts. Do not edit. */
#ifndef ZX_GEN_HAGGLE_H
#define ZX_GEN_HAGGLE_H
#include "zerox1.h"
#include "ids.h"
#include "constants.h"

/* ---- PDA seeds ---- */
#define HAGGLE_SEED_CONFIG "config"
#define HAGGLE_SEED_NEGOTIATION "negotiation"
#define HAGGLE_SEED_VAULT "vault"

/* ---- Accounts ---- */
/* Config PDA [b"config"]: the escrow mint and the treasury (SPL Token account of that mint) that receives decay and fees. */
#define HAGGLE_HAGGLE_CONFIG_DISC 0x0a7e87ac813925b1ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey admin;
  SolPubkey usdc_mint;
  SolPubkey treasury;
  uint8_t bump;
  uint8_t _pad[7];
} haggle_HaggleConfig;
_Static_assert(sizeof(haggle_HaggleConfig) == 112, "haggle_HaggleConfig size");
_Static_assert(__builtin_offsetof(haggle_HaggleConfig, discriminator) == 0, "haggle_HaggleConfig.discriminator");
_Static_assert(__builtin_offsetof(haggle_HaggleConfig, admin) == 8, "haggle_HaggleConfig.admin");
_Static_assert(__builtin_offsetof(haggle_HaggleConfig, usdc_mint) == 40, "haggle_HaggleConfig.usdc_mint");
_Static_assert(__builtin_offsetof(haggle_HaggleConfig, treasury) == 72, "haggle_HaggleConfig.treasury");
_Static_assert(__builtin_offsetof(haggle_HaggleConfig, bump) == 104, "haggle_HaggleConfig.bump");
_Static_assert(__builtin_offsetof(haggle_HaggleConfig, _pad) == 105, "haggle_HaggleConfig._pad");

/* Negotiation PDA [b"negotiation", buyer, seller, conversation_id (16 bytes)]. status: 1 created, 2 proposed, 3 countered (4 accepted, 5 settled, 6 expired, 7 rejected only in events: the account closes). Sides: 1 buyer, 2 seller. sealed: bit0 buyer committed, bit1 seller committed, bit2 buyer revealed, bit3 seller revealed. */
#define HAGGLE_NEGOTIATION_DISC 0x35d3499231026a4dULL
typedef struct {
  uint64_t discriminator;
  SolPubkey buyer;
  SolPubkey seller;
  SolPubkey vault;
  uint8_t conversation_id[16];
  uint64_t deposit;
  uint64_t escrow;
  uint64_t decayed;
  uint64_t current_offer;
  int64_t created_at;
  int64_t last_action_at;
  int64_t deadline;
  uint32_t response_window;
  uint16_t decay_bps;
  uint16_t min_offer_bps;
  uint16_t protocol_fee_bps;
  uint8_t max_rounds;
  uint8_t round;
  uint8_t status;
  uint8_t joined;
  uint8_t opener;
  uint8_t last_offer_by;
  uint8_t zopa_detection;
  uint8_t sealed;
  uint8_t bump;
  uint8_t vault_bump;
  uint8_t buyer_commitment[32];
  uint8_t seller_commitment[32];
  uint8_t buyer_reservation[16];
  uint8_t seller_reservation[16];
  uint8_t _pad[4];
} haggle_Negotiation;
_Static_assert(sizeof(haggle_Negotiation) == 296, "haggle_Negotiation size");
_Static_assert(__builtin_offsetof(haggle_Negotiation, discriminator) == 0, "haggle_Negotiation.discriminator");
_Static_assert(__builtin_offsetof(haggle_Negotiation, buyer) == 8, "haggle_Negotiation.buyer");
_Static_assert(__builtin_offsetof(haggle_Negotiation, seller) == 40, "haggle_Negotiation.seller");
_Static_assert(__builtin_offsetof(haggle_Negotiation, vault) == 72, "haggle_Negotiation.vault");
_Static_assert(__builtin_offsetof(haggle_Negotiation, conversation_id) == 104, "haggle_Negotiation.conversation_id");
_Static_assert(__builtin_offsetof(haggle_Negotiation, deposit) == 120, "haggle_Negotiation.deposit");
_Static_assert(__builtin_offsetof(haggle_Negotiation, escrow) == 128, "haggle_Negotiation.escrow");
_Static_assert(__builtin_offsetof(haggle_Negotiation, decayed) == 136, "haggle_Negotiation.decayed");
_Static_assert(__builtin_offsetof(haggle_Negotiation, current_offer) == 144, "haggle_Negotiation.current_offer");
_Static_assert(__builtin_offsetof(haggle_Negotiation, created_at) == 152, "haggle_Negotiation.created_at");
_Static_assert(__builtin_offsetof(haggle_Negotiation, last_action_at) == 160, "haggle_Negotiation.last_action_at");
_Static_assert(__builtin_offsetof(haggle_Negotiation, deadline) == 168, "haggle_Negotiation.deadline");
_Static_assert(__builtin_offsetof(haggle_Negotiation, response_window) == 176, "haggle_Negotiation.response_window");
_Static_assert(__builtin_offsetof(haggle_Negotiation, decay_bps) == 180, "haggle_Negotiation.decay_bps");
_Static_assert(__builtin_offsetof(haggle_Negotiation, min_offer_bps) == 182, "haggle_Negotiation.min_offer_bps");
_Static_assert(__builtin_offsetof(haggle_Negotiation, protocol_fee_bps) == 184, "haggle_Negotiation.protocol_fee_bps");
_Static_assert(__builtin_offsetof(haggle_Negotiation, max_rounds) == 186, "haggle_Negotiation.max_rounds");
_Static_assert(__builtin_offsetof(haggle_Negotiation, round) == 187, "haggle_Negotiation.round");
_Static_assert(__builtin_offsetof(haggle_Negotiation, status) == 188, "haggle_Negotiation.status");
_Static_assert(__builtin_offsetof(haggle_Negotiation, joined) == 189, "haggle_Negotiation.joined");
_Static_assert(__builtin_offsetof(haggle_Negotiation, opener) == 190, "haggle_Negotiation.opener");
_Static_assert(__builtin_offsetof(haggle_Negotiation, last_offer_by) == 191, "haggle_Negotiation.last_offer_by");
_Static_assert(__builtin_offsetof(haggle_Negotiation, zopa_detection) == 192, "haggle_Negotiation.zopa_detection");
_Static_assert(__builtin_offsetof(haggle_Negotiation, sealed) == 193, "haggle_Negotiation.sealed");
_Static_assert(__builtin_offsetof(haggle_Negotiation, bump) == 194, "haggle_Negotiation.bump");
_Static_assert(__builtin_offsetof(haggle_Negotiation, vault_bump) == 195, "haggle_Negotiation.vault_bump");
_Static_assert(__builtin_offsetof(haggle_Negotiation, buyer_commitment) == 196, "haggle_Negotiation.buyer_commitment");
_Static_assert(__builtin_offsetof(haggle_Negotiation, seller_commitment) == 228, "haggle_Negotiation.seller_commitment");
_Static_assert(__builtin_offsetof(haggle_Negotiation, buyer_reservation) == 260, "haggle_Negotiation.buyer_reservation");
_Static_assert(__builtin_offsetof(haggle_Negotiation, seller_reservation) == 276, "haggle_Negotiation.seller_reservation");
_Static_assert(__builtin_offsetof(haggle_Negotiation, _pad) == 292, "haggle_Negotiation._pad");

/* ---- Events (emitted whole with sol_log_data) ---- */
#define HAGGLE_EV_HAGGLE_INITIALIZED_DISC 0x2dc526bb6543534dULL
typedef struct {
  uint64_t discriminator;
  SolPubkey admin;
  SolPubkey usdc_mint;
  SolPubkey treasury;
} haggle_ev_HaggleInitialized;
_Static_assert(sizeof(haggle_ev_HaggleInitialized) == 104, "haggle_ev_HaggleInitialized size");
_Static_assert(__builtin_offsetof(haggle_ev_HaggleInitialized, discriminator) == 0, "haggle_ev_HaggleInitialized.discriminator");
_Static_assert(__builtin_offsetof(haggle_ev_HaggleInitialized, admin) == 8, "haggle_ev_HaggleInitialized.admin");
_Static_assert(__builtin_offsetof(haggle_ev_HaggleInitialized, usdc_mint) == 40, "haggle_ev_HaggleInitialized.usdc_mint");
_Static_assert(__builtin_offsetof(haggle_ev_HaggleInitialized, treasury) == 72, "haggle_ev_HaggleInitialized.treasury");

#define HAGGLE_EV_NEGOTIATION_CREATED_DISC 0x55905033640f4271ULL
typedef struct __attribute__((packed)) {
  uint64_t discriminator;
  SolPubkey negotiation;
  uint8_t conversation_id[16];
  SolPubkey buyer;
  SolPubkey seller;
  uint64_t deposit;
  int64_t deadline;
  int64_t created_at;
  uint32_t response_window;
  uint16_t decay_bps;
  uint16_t min_offer_bps;
  uint16_t protocol_fee_bps;
  uint8_t max_rounds;
  uint8_t zopa_detection;
} haggle_ev_NegotiationCreated;
_Static_assert(sizeof(haggle_ev_NegotiationCreated) == 156, "haggle_ev_NegotiationCreated size");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationCreated, discriminator) == 0, "haggle_ev_NegotiationCreated.discriminator");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationCreated, negotiation) == 8, "haggle_ev_NegotiationCreated.negotiation");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationCreated, conversation_id) == 40, "haggle_ev_NegotiationCreated.conversation_id");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationCreated, buyer) == 56, "haggle_ev_NegotiationCreated.buyer");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationCreated, seller) == 88, "haggle_ev_NegotiationCreated.seller");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationCreated, deposit) == 120, "haggle_ev_NegotiationCreated.deposit");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationCreated, deadline) == 128, "haggle_ev_NegotiationCreated.deadline");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationCreated, created_at) == 136, "haggle_ev_NegotiationCreated.created_at");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationCreated, response_window) == 144, "haggle_ev_NegotiationCreated.response_window");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationCreated, decay_bps) == 148, "haggle_ev_NegotiationCreated.decay_bps");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationCreated, min_offer_bps) == 150, "haggle_ev_NegotiationCreated.min_offer_bps");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationCreated, protocol_fee_bps) == 152, "haggle_ev_NegotiationCreated.protocol_fee_bps");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationCreated, max_rounds) == 154, "haggle_ev_NegotiationCreated.max_rounds");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationCreated, zopa_detection) == 155, "haggle_ev_NegotiationCreated.zopa_detection");

#define HAGGLE_EV_NEGOTIATION_JOINED_DISC 0x92a67b218143ca05ULL
typedef struct {
  uint64_t discriminator;
  SolPubkey negotiation;
  uint8_t conversation_id[16];
  SolPubkey seller;
  int64_t at;
} haggle_ev_NegotiationJoined;
_Static_assert(sizeof(haggle_ev_NegotiationJoined) == 96, "haggle_ev_NegotiationJoined size");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationJoined, discriminator) == 0, "haggle_ev_NegotiationJoined.discriminator");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationJoined, negotiation) == 8, "haggle_ev_NegotiationJoined.negotiation");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationJoined, conversation_id) == 40, "haggle_ev_NegotiationJoined.conversation_id");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationJoined, seller) == 56, "haggle_ev_NegotiationJoined.seller");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationJoined, at) == 88, "haggle_ev_NegotiationJoined.at");

#define HAGGLE_EV_OFFER_SUBMITTED_DISC 0xb86efe7ac3fd510eULL
typedef struct __attribute__((packed)) {
  uint64_t discriminator;
  SolPubkey negotiation;
  uint8_t conversation_id[16];
  uint64_t amount;
  uint64_t decay;
  uint64_t escrow;
  int64_t at;
  uint8_t side;
  uint8_t round;
  uint8_t status;
  uint8_t metadata[64];
} haggle_ev_OfferSubmitted;
_Static_assert(sizeof(haggle_ev_OfferSubmitted) == 155, "haggle_ev_OfferSubmitted size");
_Static_assert(__builtin_offsetof(haggle_ev_OfferSubmitted, discriminator) == 0, "haggle_ev_OfferSubmitted.discriminator");
_Static_assert(__builtin_offsetof(haggle_ev_OfferSubmitted, negotiation) == 8, "haggle_ev_OfferSubmitted.negotiation");
_Static_assert(__builtin_offsetof(haggle_ev_OfferSubmitted, conversation_id) == 40, "haggle_ev_OfferSubmitted.conversation_id");
_Static_assert(__builtin_offsetof(haggle_ev_OfferSubmitted, amount) == 56, "haggle_ev_OfferSubmitted.amount");
_Static_assert(__builtin_offsetof(haggle_ev_OfferSubmitted, decay) == 64, "haggle_ev_OfferSubmitted.decay");
_Static_assert(__builtin_offsetof(haggle_ev_OfferSubmitted, escrow) == 72, "haggle_ev_OfferSubmitted.escrow");
_Static_assert(__builtin_offsetof(haggle_ev_OfferSubmitted, at) == 80, "haggle_ev_OfferSubmitted.at");
_Static_assert(__builtin_offsetof(haggle_ev_OfferSubmitted, side) == 88, "haggle_ev_OfferSubmitted.side");
_Static_assert(__builtin_offsetof(haggle_ev_OfferSubmitted, round) == 89, "haggle_ev_OfferSubmitted.round");
_Static_assert(__builtin_offsetof(haggle_ev_OfferSubmitted, status) == 90, "haggle_ev_OfferSubmitted.status");
_Static_assert(__builtin_offsetof(haggle_ev_OfferSubmitted, metadata) == 91, "haggle_ev_OfferSubmitted.metadata");

#define HAGGLE_EV_RESERVATION_COMMITTED_DISC 0xb91ec060d13c6cdfULL
typedef struct __attribute__((packed)) {
  uint64_t discriminator;
  SolPubkey negotiation;
  uint8_t conversation_id[16];
  uint8_t commitment[32];
  uint8_t side;
} haggle_ev_ReservationCommitted;
_Static_assert(sizeof(haggle_ev_ReservationCommitted) == 89, "haggle_ev_ReservationCommitted size");
_Static_assert(__builtin_offsetof(haggle_ev_ReservationCommitted, discriminator) == 0, "haggle_ev_ReservationCommitted.discriminator");
_Static_assert(__builtin_offsetof(haggle_ev_ReservationCommitted, negotiation) == 8, "haggle_ev_ReservationCommitted.negotiation");
_Static_assert(__builtin_offsetof(haggle_ev_ReservationCommitted, conversation_id) == 40, "haggle_ev_ReservationCommitted.conversation_id");
_Static_assert(__builtin_offsetof(haggle_ev_ReservationCommitted, commitment) == 56, "haggle_ev_ReservationCommitted.commitment");
_Static_assert(__builtin_offsetof(haggle_ev_ReservationCommitted, side) == 88, "haggle_ev_ReservationCommitted.side");

#define HAGGLE_EV_RESERVATION_REVEALED_DISC 0xce173a89011806c7ULL
typedef struct __attribute__((packed)) {
  uint64_t discriminator;
  SolPubkey negotiation;
  uint8_t conversation_id[16];
  uint8_t price[16];
  uint8_t side;
  uint8_t both_revealed;
  uint8_t zopa;
} haggle_ev_ReservationRevealed;
_Static_assert(sizeof(haggle_ev_ReservationRevealed) == 75, "haggle_ev_ReservationRevealed size");
_Static_assert(__builtin_offsetof(haggle_ev_ReservationRevealed, discriminator) == 0, "haggle_ev_ReservationRevealed.discriminator");
_Static_assert(__builtin_offsetof(haggle_ev_ReservationRevealed, negotiation) == 8, "haggle_ev_ReservationRevealed.negotiation");
_Static_assert(__builtin_offsetof(haggle_ev_ReservationRevealed, conversation_id) == 40, "haggle_ev_ReservationRevealed.conversation_id");
_Static_assert(__builtin_offsetof(haggle_ev_ReservationRevealed, price) == 56, "haggle_ev_ReservationRevealed.price");
_Static_assert(__builtin_offsetof(haggle_ev_ReservationRevealed, side) == 72, "haggle_ev_ReservationRevealed.side");
_Static_assert(__builtin_offsetof(haggle_ev_ReservationRevealed, both_revealed) == 73, "haggle_ev_ReservationRevealed.both_revealed");
_Static_assert(__builtin_offsetof(haggle_ev_ReservationRevealed, zopa) == 74, "haggle_ev_ReservationRevealed.zopa");

#define HAGGLE_EV_OFFER_ACCEPTED_DISC 0x1408128c73eeee51ULL
typedef struct __attribute__((packed)) {
  uint64_t discriminator;
  SolPubkey negotiation;
  uint8_t conversation_id[16];
  uint64_t amount;
  int64_t at;
  uint8_t side;
  uint8_t round;
} haggle_ev_OfferAccepted;
_Static_assert(sizeof(haggle_ev_OfferAccepted) == 74, "haggle_ev_OfferAccepted size");
_Static_assert(__builtin_offsetof(haggle_ev_OfferAccepted, discriminator) == 0, "haggle_ev_OfferAccepted.discriminator");
_Static_assert(__builtin_offsetof(haggle_ev_OfferAccepted, negotiation) == 8, "haggle_ev_OfferAccepted.negotiation");
_Static_assert(__builtin_offsetof(haggle_ev_OfferAccepted, conversation_id) == 40, "haggle_ev_OfferAccepted.conversation_id");
_Static_assert(__builtin_offsetof(haggle_ev_OfferAccepted, amount) == 56, "haggle_ev_OfferAccepted.amount");
_Static_assert(__builtin_offsetof(haggle_ev_OfferAccepted, at) == 64, "haggle_ev_OfferAccepted.at");
_Static_assert(__builtin_offsetof(haggle_ev_OfferAccepted, side) == 72, "haggle_ev_OfferAccepted.side");
_Static_assert(__builtin_offsetof(haggle_ev_OfferAccepted, round) == 73, "haggle_ev_OfferAccepted.round");

#define HAGGLE_EV_NEGOTIATION_SETTLED_DISC 0x524478297a0ae65cULL
typedef struct {
  uint64_t discriminator;
  SolPubkey negotiation;
  uint8_t conversation_id[16];
  SolPubkey buyer;
  SolPubkey seller;
  uint64_t amount;
  uint64_t fee;
  uint64_t to_seller;
  uint64_t refund;
  uint64_t decayed;
} haggle_ev_NegotiationSettled;
_Static_assert(sizeof(haggle_ev_NegotiationSettled) == 160, "haggle_ev_NegotiationSettled size");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationSettled, discriminator) == 0, "haggle_ev_NegotiationSettled.discriminator");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationSettled, negotiation) == 8, "haggle_ev_NegotiationSettled.negotiation");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationSettled, conversation_id) == 40, "haggle_ev_NegotiationSettled.conversation_id");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationSettled, buyer) == 56, "haggle_ev_NegotiationSettled.buyer");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationSettled, seller) == 88, "haggle_ev_NegotiationSettled.seller");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationSettled, amount) == 120, "haggle_ev_NegotiationSettled.amount");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationSettled, fee) == 128, "haggle_ev_NegotiationSettled.fee");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationSettled, to_seller) == 136, "haggle_ev_NegotiationSettled.to_seller");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationSettled, refund) == 144, "haggle_ev_NegotiationSettled.refund");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationSettled, decayed) == 152, "haggle_ev_NegotiationSettled.decayed");

#define HAGGLE_EV_NEGOTIATION_REFUNDED_DISC 0x06ce8d5648df53feULL
typedef struct __attribute__((packed)) {
  uint64_t discriminator;
  SolPubkey negotiation;
  uint8_t conversation_id[16];
  SolPubkey buyer;
  uint64_t refund;
  uint64_t decayed;
  int64_t at;
  uint8_t status;
  uint8_t reason;
  uint8_t side;
} haggle_ev_NegotiationRefunded;
_Static_assert(sizeof(haggle_ev_NegotiationRefunded) == 115, "haggle_ev_NegotiationRefunded size");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationRefunded, discriminator) == 0, "haggle_ev_NegotiationRefunded.discriminator");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationRefunded, negotiation) == 8, "haggle_ev_NegotiationRefunded.negotiation");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationRefunded, conversation_id) == 40, "haggle_ev_NegotiationRefunded.conversation_id");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationRefunded, buyer) == 56, "haggle_ev_NegotiationRefunded.buyer");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationRefunded, refund) == 88, "haggle_ev_NegotiationRefunded.refund");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationRefunded, decayed) == 96, "haggle_ev_NegotiationRefunded.decayed");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationRefunded, at) == 104, "haggle_ev_NegotiationRefunded.at");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationRefunded, status) == 112, "haggle_ev_NegotiationRefunded.status");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationRefunded, reason) == 113, "haggle_ev_NegotiationRefunded.reason");
_Static_assert(__builtin_offsetof(haggle_ev_NegotiationRefunded, side) == 114, "haggle_ev_NegotiationRefunded.side");

/* ---- Instructions ---- */
/* Creates the Config PDA once: the escrow (USDC) mint and the treasury token account. */
#define HAGGLE_IX_INITIALIZE 0
#define HAGGLE_INITIALIZE_NACCOUNTS 5
#define HAGGLE_INITIALIZE_ACC_ADMIN 0
#define HAGGLE_INITIALIZE_ACC_CONFIG 1
#define HAGGLE_INITIALIZE_ACC_USDC_MINT 2
#define HAGGLE_INITIALIZE_ACC_TREASURY 3
#define HAGGLE_INITIALIZE_ACC_SYSTEM_PROGRAM 4
typedef struct {
  uint8_t tag;
} haggle_initialize_ix;
_Static_assert(sizeof(haggle_initialize_ix) == 1, "haggle_initialize_ix size");
_Static_assert(__builtin_offsetof(haggle_initialize_ix, tag) == 0, "haggle_initialize_ix.tag");

/* The buyer opens a negotiation with a seller for a 0x01 conversation and deposits the escrow into the negotiation's vault. */
#define HAGGLE_IX_CREATE_NEGOTIATION 1
#define HAGGLE_CREATE_NEGOTIATION_NACCOUNTS 9
#define HAGGLE_CREATE_NEGOTIATION_ACC_BUYER 0
#define HAGGLE_CREATE_NEGOTIATION_ACC_CONFIG 1
#define HAGGLE_CREATE_NEGOTIATION_ACC_SELLER 2
#define HAGGLE_CREATE_NEGOTIATION_ACC_NEGOTIATION 3
#define HAGGLE_CREATE_NEGOTIATION_ACC_VAULT 4
#define HAGGLE_CREATE_NEGOTIATION_ACC_BUYER_USDC 5
#define HAGGLE_CREATE_NEGOTIATION_ACC_USDC_MINT 6
#define HAGGLE_CREATE_NEGOTIATION_ACC_TOKEN_PROGRAM 7
#define HAGGLE_CREATE_NEGOTIATION_ACC_SYSTEM_PROGRAM 8
typedef struct __attribute__((packed)) {
  uint8_t tag;
  uint8_t conversation_id[16];
  uint64_t deposit;
  int64_t deadline;
  uint32_t response_window;
  uint16_t decay_bps;
  uint16_t min_offer_bps;
  uint16_t protocol_fee_bps;
  uint8_t max_rounds;
  uint8_t zopa_detection;
} haggle_create_negotiation_ix;
_Static_assert(sizeof(haggle_create_negotiation_ix) == 45, "haggle_create_negotiation_ix size");
_Static_assert(__builtin_offsetof(haggle_create_negotiation_ix, tag) == 0, "haggle_create_negotiation_ix.tag");
_Static_assert(__builtin_offsetof(haggle_create_negotiation_ix, conversation_id) == 1, "haggle_create_negotiation_ix.conversation_id");
_Static_assert(__builtin_offsetof(haggle_create_negotiation_ix, deposit) == 17, "haggle_create_negotiation_ix.deposit");
_Static_assert(__builtin_offsetof(haggle_create_negotiation_ix, deadline) == 25, "haggle_create_negotiation_ix.deadline");
_Static_assert(__builtin_offsetof(haggle_create_negotiation_ix, response_window) == 33, "haggle_create_negotiation_ix.response_window");
_Static_assert(__builtin_offsetof(haggle_create_negotiation_ix, decay_bps) == 37, "haggle_create_negotiation_ix.decay_bps");
_Static_assert(__builtin_offsetof(haggle_create_negotiation_ix, min_offer_bps) == 39, "haggle_create_negotiation_ix.min_offer_bps");
_Static_assert(__builtin_offsetof(haggle_create_negotiation_ix, protocol_fee_bps) == 41, "haggle_create_negotiation_ix.protocol_fee_bps");
_Static_assert(__builtin_offsetof(haggle_create_negotiation_ix, max_rounds) == 43, "haggle_create_negotiation_ix.max_rounds");
_Static_assert(__builtin_offsetof(haggle_create_negotiation_ix, zopa_detection) == 44, "haggle_create_negotiation_ix.zopa_detection");

/* The seller joins the negotiation; offers are possible from then on. */
#define HAGGLE_IX_ACCEPT_NEGOTIATION 2
#define HAGGLE_ACCEPT_NEGOTIATION_NACCOUNTS 2
#define HAGGLE_ACCEPT_NEGOTIATION_ACC_SELLER 0
#define HAGGLE_ACCEPT_NEGOTIATION_ACC_NEGOTIATION 1
typedef struct {
  uint8_t tag;
} haggle_accept_negotiation_ix;
_Static_assert(sizeof(haggle_accept_negotiation_ix) == 1, "haggle_accept_negotiation_ix size");
_Static_assert(__builtin_offsetof(haggle_accept_negotiation_ix, tag) == 0, "haggle_accept_negotiation_ix.tag");

/* An offer by the side whose turn it is; the round's decay moves from the vault to the treasury. */
#define HAGGLE_IX_SUBMIT_OFFER 3
#define HAGGLE_SUBMIT_OFFER_NACCOUNTS 6
#define HAGGLE_SUBMIT_OFFER_ACC_PARTY 0
#define HAGGLE_SUBMIT_OFFER_ACC_CONFIG 1
#define HAGGLE_SUBMIT_OFFER_ACC_NEGOTIATION 2
#define HAGGLE_SUBMIT_OFFER_ACC_VAULT 3
#define HAGGLE_SUBMIT_OFFER_ACC_TREASURY 4
#define HAGGLE_SUBMIT_OFFER_ACC_TOKEN_PROGRAM 5
typedef struct __attribute__((packed)) {
  uint8_t tag;
  uint64_t amount;
  uint8_t metadata[64];
} haggle_submit_offer_ix;
_Static_assert(sizeof(haggle_submit_offer_ix) == 73, "haggle_submit_offer_ix size");
_Static_assert(__builtin_offsetof(haggle_submit_offer_ix, tag) == 0, "haggle_submit_offer_ix.tag");
_Static_assert(__builtin_offsetof(haggle_submit_offer_ix, amount) == 1, "haggle_submit_offer_ix.amount");
_Static_assert(__builtin_offsetof(haggle_submit_offer_ix, metadata) == 9, "haggle_submit_offer_ix.metadata");

/* Seals a reservation price: SHA-256(price as 16-byte big-endian two's complement || 32-byte salt), as a NEGC payload. */
#define HAGGLE_IX_COMMIT_RESERVATION 4
#define HAGGLE_COMMIT_RESERVATION_NACCOUNTS 2
#define HAGGLE_COMMIT_RESERVATION_ACC_PARTY 0
#define HAGGLE_COMMIT_RESERVATION_ACC_NEGOTIATION 1
typedef struct {
  uint8_t tag;
  uint8_t commitment[32];
} haggle_commit_reservation_ix;
_Static_assert(sizeof(haggle_commit_reservation_ix) == 33, "haggle_commit_reservation_ix size");
_Static_assert(__builtin_offsetof(haggle_commit_reservation_ix, tag) == 0, "haggle_commit_reservation_ix.tag");
_Static_assert(__builtin_offsetof(haggle_commit_reservation_ix, commitment) == 1, "haggle_commit_reservation_ix.commitment");

/* Opens the commitment (as a NEGR payload) once both sides committed; both revealed with buyer max < seller min ends the negotiation with a refund. */
#define HAGGLE_IX_REVEAL_RESERVATION 5
#define HAGGLE_REVEAL_RESERVATION_NACCOUNTS 6
#define HAGGLE_REVEAL_RESERVATION_ACC_PARTY 0
#define HAGGLE_REVEAL_RESERVATION_ACC_NEGOTIATION 1
#define HAGGLE_REVEAL_RESERVATION_ACC_VAULT 2
#define HAGGLE_REVEAL_RESERVATION_ACC_BUYER 3
#define HAGGLE_REVEAL_RESERVATION_ACC_BUYER_USDC 4
#define HAGGLE_REVEAL_RESERVATION_ACC_TOKEN_PROGRAM 5
typedef struct {
  uint8_t tag;
  uint8_t price[16];
  uint8_t salt[32];
} haggle_reveal_reservation_ix;
_Static_assert(sizeof(haggle_reveal_reservation_ix) == 49, "haggle_reveal_reservation_ix size");
_Static_assert(__builtin_offsetof(haggle_reveal_reservation_ix, tag) == 0, "haggle_reveal_reservation_ix.tag");
_Static_assert(__builtin_offsetof(haggle_reveal_reservation_ix, price) == 1, "haggle_reveal_reservation_ix.price");
_Static_assert(__builtin_offsetof(haggle_reveal_reservation_ix, salt) == 17, "haggle_reveal_reservation_ix.salt");

/* The other side accepts the standing offer: amount minus fee to the seller, fee to the treasury, the rest of the escrow and all rent to the buyer; closes the negotiation. */
#define HAGGLE_IX_ACCEPT_OFFER 6
#define HAGGLE_ACCEPT_OFFER_NACCOUNTS 9
#define HAGGLE_ACCEPT_OFFER_ACC_PARTY 0
#define HAGGLE_ACCEPT_OFFER_ACC_CONFIG 1
#define HAGGLE_ACCEPT_OFFER_ACC_NEGOTIATION 2
#define HAGGLE_ACCEPT_OFFER_ACC_VAULT 3
#define HAGGLE_ACCEPT_OFFER_ACC_BUYER 4
#define HAGGLE_ACCEPT_OFFER_ACC_BUYER_USDC 5
#define HAGGLE_ACCEPT_OFFER_ACC_SELLER_USDC 6
#define HAGGLE_ACCEPT_OFFER_ACC_TREASURY 7
#define HAGGLE_ACCEPT_OFFER_ACC_TOKEN_PROGRAM 8
typedef struct {
  uint8_t tag;
} haggle_accept_offer_ix;
_Static_assert(sizeof(haggle_accept_offer_ix) == 1, "haggle_accept_offer_ix size");
_Static_assert(__builtin_offsetof(haggle_accept_offer_ix, tag) == 0, "haggle_accept_offer_ix.tag");

/* Either side ends the negotiation; the escrow left after decay and all rent go back to the buyer. */
#define HAGGLE_IX_REJECT 7
#define HAGGLE_REJECT_NACCOUNTS 6
#define HAGGLE_REJECT_ACC_PARTY 0
#define HAGGLE_REJECT_ACC_NEGOTIATION 1
#define HAGGLE_REJECT_ACC_VAULT 2
#define HAGGLE_REJECT_ACC_BUYER 3
#define HAGGLE_REJECT_ACC_BUYER_USDC 4
#define HAGGLE_REJECT_ACC_TOKEN_PROGRAM 5
typedef struct {
  uint8_t tag;
} haggle_reject_ix;
_Static_assert(sizeof(haggle_reject_ix) == 1, "haggle_reject_ix size");
_Static_assert(__builtin_offsetof(haggle_reject_ix, tag) == 0, "haggle_reject_ix.tag");

/* Anyone, after the deadline or a missed response window: refunds the buyer and closes the negotiation. */
#define HAGGLE_IX_EXPIRE 8
#define HAGGLE_EXPIRE_NACCOUNTS 5
#define HAGGLE_EXPIRE_ACC_NEGOTIATION 0
#define HAGGLE_EXPIRE_ACC_VAULT 1
#define HAGGLE_EXPIRE_ACC_BUYER 2
#define HAGGLE_EXPIRE_ACC_BUYER_USDC 3
#define HAGGLE_EXPIRE_ACC_TOKEN_PROGRAM 4
typedef struct {
  uint8_t tag;
} haggle_expire_ix;
_Static_assert(sizeof(haggle_expire_ix) == 1, "haggle_expire_ix size");
_Static_assert(__builtin_offsetof(haggle_expire_ix, tag) == 0, "haggle_expire_ix.tag");

/* ---- Errors (custom program error codes) ---- */
#define HAGGLE_ERR_INVALID_INSTRUCTION 20480ULL /* unknown tag or wrong instruction data length */
#define HAGGLE_ERR_NOT_ENOUGH_ACCOUNTS 20481ULL /* fewer accounts than the instruction needs */
#define HAGGLE_ERR_MISSING_SIGNATURE 20482ULL /* a required signer did not sign */
#define HAGGLE_ERR_WRONG_PDA 20483ULL /* an account is not the expected PDA of this program */
#define HAGGLE_ERR_ALREADY_INITIALIZED 20484ULL /* the config already exists */
#define HAGGLE_ERR_NOT_INITIALIZED 20485ULL /* the config account is missing or not this program's */
#define HAGGLE_ERR_WRONG_PROGRAM 20486ULL /* a program account is not the expected program */
#define HAGGLE_ERR_WRONG_MINT 20487ULL /* a token account or mint is not the configured USDC mint */
#define HAGGLE_ERR_WRONG_TREASURY 20488ULL /* treasury is not the configured treasury */
#define HAGGLE_ERR_WRONG_VAULT 20489ULL /* the vault is not this negotiation's vault */
#define HAGGLE_ERR_WRONG_TOKEN_OWNER 20490ULL /* a payout token account is not owned by the buyer or seller */
#define HAGGLE_ERR_NOT_WRITABLE 20491ULL /* an account that must be writable is not */
#define HAGGLE_ERR_INVALID_PARAMETERS 20492ULL /* max_rounds, decay_bps, response_window, deadline, min_offer_bps, protocol_fee_bps or zopa_detection out of range */
#define HAGGLE_ERR_ZERO_DEPOSIT 20493ULL /* the escrow deposit is zero */
#define HAGGLE_ERR_INSUFFICIENT_USDC 20494ULL /* the buyer's USDC account holds less than the deposit */
#define HAGGLE_ERR_SAME_PARTY 20495ULL /* buyer and seller are the same key */
#define HAGGLE_ERR_ALREADY_EXISTS 20496ULL /* a negotiation for this buyer, seller and conversation exists */
#define HAGGLE_ERR_NO_NEGOTIATION 20497ULL /* the negotiation account does not exist or is not this program's (closed, settled) */
#define HAGGLE_ERR_NOT_SELLER 20498ULL /* only the seller may accept the negotiation */
#define HAGGLE_ERR_ALREADY_JOINED 20499ULL /* the seller already accepted the negotiation */
#define HAGGLE_ERR_NOT_JOINED 20500ULL /* the seller has not accepted the negotiation yet */
#define HAGGLE_ERR_NOT_PARTY 20501ULL /* the signer is neither the buyer nor the seller */
#define HAGGLE_ERR_WRONG_SIDE 20502ULL /* it is the other side's turn */
#define HAGGLE_ERR_OFFER_BELOW_MINIMUM 20503ULL /* offer below min_offer_bps of the deposit */
#define HAGGLE_ERR_OFFER_ABOVE_ESCROW 20504ULL /* offer above the escrow left after this round's decay */
#define HAGGLE_ERR_DEADLINE_PASSED 20505ULL /* the global deadline has passed */
#define HAGGLE_ERR_RESPONSE_WINDOW_MISSED 20506ULL /* the response window since the last action has passed */
#define HAGGLE_ERR_MAX_ROUNDS_REACHED 20507ULL /* max_rounds offers were made */
#define HAGGLE_ERR_NO_OFFER 20508ULL /* there is no standing offer to accept */
#define HAGGLE_ERR_ZOPA_DISABLED 20509ULL /* the negotiation was created without zopa_detection */
#define HAGGLE_ERR_ALREADY_COMMITTED 20510ULL /* this side already committed a reservation */
#define HAGGLE_ERR_NOT_BOTH_COMMITTED 20511ULL /* both sides must commit before either reveals */
#define HAGGLE_ERR_ALREADY_REVEALED 20512ULL /* this side already revealed */
#define HAGGLE_ERR_REVEAL_MISMATCH 20513ULL /* SHA-256(price || salt) is not the committed value */
#define HAGGLE_ERR_NOT_EXPIRED 20514ULL /* neither the deadline nor the response window has passed */

#endif /* ZX_GEN_HAGGLE_H */
