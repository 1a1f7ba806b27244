/*
 * Host harness for the portable readers (zx_cbor.h, zx_batch.h, zx_merkle.h, zx_ed25519.h).
 * Built and driven by host.test.ts: one command per stdin line, one answer per stdout line.
 *   keccak HEX                          -> hash hex
 *   batch HEX [WANT CONV PEER LO HI]    -> "ok epoch count n_bids n_tasks n_verifiers n_feedback
 *                                           overflow found agent root ohash" | "err"
 *   entry HEX                           -> "ok version msg_type timestamp block_ref nonce payload_len
 *                                           payload_n preimage_end sender recipient conv phash sig" | "err"
 *   neg1 HEX                            -> "ok LO HI" (16 hex digits each) | "err"
 *   merkle LEAF INDEX ROOT SIBLINGS|-   -> "ok" | "bad"
 *   ed IXS PUBKEY SIG|- HEAD|- BODY     -> "ok" | "bad"
 *   judge ENTRY PAYLOAD|- BATCH AGENT ROOT EPOCH -> "STATUS REASON" | "err" (entry does not decode)
 * The keccak here is a small reference (FIPS 202 permutation, Keccak padding) for the host
 * only; on chain the programs call sol_keccak256.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../zx_judge.h"
#include "zx_merkle.h"
#include "zx_ed25519.h"

static const uint64_t RC[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};
static const int ROT[25] = {0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14};

static uint64_t rol(uint64_t x, int n) { return n ? (x << n) | (x >> (64 - n)) : x; }

static void keccak_f(uint64_t s[25]) {
  for (int r = 0; r < 24; r++) {
    uint64_t c[5], b[25];
    for (int x = 0; x < 5; x++) c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
    for (int x = 0; x < 5; x++) {
      uint64_t d = c[(x + 4) % 5] ^ rol(c[(x + 1) % 5], 1);
      for (int y = 0; y < 25; y += 5) s[y + x] ^= d;
    }
    for (int x = 0; x < 5; x++)
      for (int y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rol(s[x + 5 * y], ROT[x + 5 * y]);
    for (int x = 0; x < 5; x++)
      for (int y = 0; y < 25; y += 5) s[y + x] = b[y + x] ^ (~b[y + (x + 1) % 5] & b[y + (x + 2) % 5]);
    s[0] ^= RC[r];
  }
}

/* keccak256 over the concatenation of up to two parts (rate 136, padding 0x01 .. 0x80). */
static void keccak2(const uint8_t *a, uint64_t na, const uint8_t *b, uint64_t nb, uint8_t *out) {
  uint64_t s[25] = {0};
  uint8_t blk[136];
  uint64_t fill = 0, total = na + nb;
  for (uint64_t i = 0; i < total; i++) {
    blk[fill++] = i < na ? a[i] : b[i - na];
    if (fill == 136) {
      for (int j = 0; j < 17; j++) {
        uint64_t w = 0;
        for (int k = 7; k >= 0; k--) w = (w << 8) | blk[j * 8 + k];
        s[j] ^= w;
      }
      keccak_f(s);
      fill = 0;
    }
  }
  memset(blk + fill, 0, 136 - fill);
  blk[fill] ^= 0x01;
  blk[135] ^= 0x80;
  for (int j = 0; j < 17; j++) {
    uint64_t w = 0;
    for (int k = 7; k >= 0; k--) w = (w << 8) | blk[j * 8 + k];
    s[j] ^= w;
  }
  keccak_f(s);
  for (int i = 0; i < 32; i++) out[i] = (uint8_t)(s[i / 8] >> (8 * (i % 8)));
}

static void zx_keccak2(const uint8_t *a, uint64_t na, const uint8_t *b, uint64_t nb, uint8_t *out) {
  keccak2(a, na, b, nb, out);
}

/* hex -> freshly allocated bytes; "-" is empty. Exits on bad hex (caller bug, not hostile input). */
static uint8_t *unhex(const char *h, uint64_t *n) {
  if (strcmp(h, "-") == 0) h = "";
  size_t l = strlen(h);
  if (l % 2) {
    fprintf(stderr, "odd hex\n");
    exit(2);
  }
  uint8_t *b = malloc(l / 2 + 1);
  for (size_t i = 0; i < l / 2; i++) {
    unsigned v;
    if (sscanf(h + 2 * i, "%2x", &v) != 1) {
      fprintf(stderr, "bad hex\n");
      exit(2);
    }
    b[i] = (uint8_t)v;
  }
  *n = l / 2;
  return b;
}

static void phex(const uint8_t *b, uint64_t n) {
  for (uint64_t i = 0; i < n; i++) printf("%02x", b[i]);
}

static char *tok(char **s) {
  char *t = strsep(s, " \n");
  while (t && *t == 0) t = strsep(s, " \n");
  return t;
}

static void cmd_batch(char *rest) {
  uint64_t n, nc = 0, np = 0;
  uint8_t *buf = unhex(tok(&rest), &n);
  zx_needle nd;
  zx_batch_info bi;
  uint8_t zero[32] = {0};
  nd.want = 0;
  nd.conv = zero;
  nd.peer = zero;
  nd.bid.lo = nd.bid.hi = 0;
  uint8_t *conv = 0, *peer = 0;
  char *w = tok(&rest);
  if (w) {
    nd.want = strtoull(w, 0, 10);
    conv = unhex(tok(&rest), &nc);
    peer = unhex(tok(&rest), &np);
    nd.conv = conv;
    nd.peer = peer;
    nd.bid.lo = strtoull(tok(&rest), 0, 16);
    nd.bid.hi = strtoull(tok(&rest), 0, 16);
  }
  /* exact-size copy so that any over-read is caught by the sanitizer */
  uint8_t *exact = malloc(n ? n : 1);
  memcpy(exact, buf, n);
  if (zx_batch_scan(exact, n, &nd, &bi)) {
    printf("err\n");
  } else {
    printf("ok %llu %llu %llu %llu %llu %llu %u %llu ", (unsigned long long)bi.epoch,
           (unsigned long long)bi.message_count, (unsigned long long)bi.n_bids, (unsigned long long)bi.n_tasks,
           (unsigned long long)bi.n_verifiers, (unsigned long long)bi.n_feedback, bi.overflow,
           (unsigned long long)bi.found);
    phex(bi.agent, 32);
    printf(" ");
    phex(bi.root, 32);
    printf(" ");
    phex(bi.overflow_hash, 32);
    printf("\n");
  }
  free(exact);
  free(buf);
  free(conv);
  free(peer);
}

static void cmd_entry(char *rest) {
  uint64_t n;
  uint8_t *buf = unhex(tok(&rest), &n);
  uint8_t *exact = malloc(n ? n : 1);
  memcpy(exact, buf, n);
  zx_entry e;
  if (zx_entry_read(exact, n, &e)) {
    printf("err\n");
  } else {
    printf("ok %llu %llu %llu %llu %llu %llu %llu %llu ", (unsigned long long)e.version,
           (unsigned long long)e.msg_type, (unsigned long long)e.timestamp, (unsigned long long)e.block_ref,
           (unsigned long long)e.nonce, (unsigned long long)e.payload_len, (unsigned long long)e.payload_n,
           (unsigned long long)e.preimage_end);
    phex(e.sender, 32);
    printf(" ");
    phex(e.recipient, 32);
    printf(" ");
    phex(e.conv, 16);
    printf(" ");
    phex(e.payload_hash, 32);
    printf(" ");
    phex(e.signature, 64);
    printf("\n");
  }
  free(exact);
  free(buf);
}

static void cmd_neg1(char *rest) {
  uint64_t n;
  uint8_t *buf = unhex(tok(&rest), &n);
  uint8_t *exact = malloc(n ? n : 1);
  memcpy(exact, buf, n);
  zx_i128 v;
  if (zx_neg1_bid(exact, n, &v)) printf("err\n");
  else printf("ok %016llx %016llx\n", (unsigned long long)v.lo, (unsigned long long)v.hi);
  free(exact);
  free(buf);
}

static void cmd_merkle(char *rest) {
  uint64_t nl, nr, ns;
  uint8_t *leaf = unhex(tok(&rest), &nl);
  uint64_t index = strtoull(tok(&rest), 0, 10);
  uint8_t *root = unhex(tok(&rest), &nr);
  uint8_t *sib = unhex(tok(&rest), &ns);
  printf("%s\n", zx_merkle_verify(leaf, index, sib, ns / 32, root) ? "bad" : "ok");
  free(leaf);
  free(root);
  free(sib);
}

static void cmd_ed(char *rest) {
  uint64_t n, npk, nsig, nh, nb;
  uint8_t *ixs = unhex(tok(&rest), &n);
  uint8_t *pk = unhex(tok(&rest), &npk);
  uint8_t *sig = unhex(tok(&rest), &nsig);
  uint8_t *head = unhex(tok(&rest), &nh);
  uint8_t *body = unhex(tok(&rest), &nb);
  uint8_t *exact = malloc(n ? n : 1);
  memcpy(exact, ixs, n);
  zx_ed_expect x = {pk, nsig ? sig : 0, head, nh, body, nb};
  printf("%s\n", zx_ed25519_check(exact, n, &x) ? "bad" : "ok");
  free(exact);
  free(ixs);
  free(pk);
  free(sig);
  free(head);
  free(body);
}

static void cmd_judge(char *rest) {
  uint64_t ne, np, nb, na, nr;
  uint8_t *entry = unhex(tok(&rest), &ne);
  uint8_t *payload = unhex(tok(&rest), &np);
  uint8_t *batch = unhex(tok(&rest), &nb);
  uint8_t *agent = unhex(tok(&rest), &na);
  uint8_t *root = unhex(tok(&rest), &nr);
  uint64_t epoch = strtoull(tok(&rest), 0, 10);
  uint8_t *exact = malloc(nb ? nb : 1);
  memcpy(exact, batch, nb);
  zx_entry e;
  if (zx_entry_read(entry, ne, &e)) {
    printf("err\n");
  } else {
    zx_commit cm = {agent, root, epoch};
    zx_judge_in j = {&e, np ? payload : e.payload, np ? np : e.payload_n, exact, nb, &cm};
    uint64_t reason;
    uint64_t v = zx_judge(&j, &reason);
    printf("%llu %llu\n", (unsigned long long)v, (unsigned long long)reason);
  }
  free(entry);
  free(payload);
  free(batch);
  free(exact);
  free(agent);
  free(root);
}

int main(void) {
  char *line = 0;
  size_t cap = 0;
  while (getline(&line, &cap, stdin) > 0) {
    char *rest = line;
    char *cmd = tok(&rest);
    if (!cmd) continue;
    if (strcmp(cmd, "keccak") == 0) {
      uint64_t n;
      uint8_t h[32];
      uint8_t *b = unhex(tok(&rest), &n);
      keccak2(b, n, 0, 0, h);
      phex(h, 32);
      printf("\n");
      free(b);
    } else if (strcmp(cmd, "batch") == 0) cmd_batch(rest);
    else if (strcmp(cmd, "entry") == 0) cmd_entry(rest);
    else if (strcmp(cmd, "neg1") == 0) cmd_neg1(rest);
    else if (strcmp(cmd, "merkle") == 0) cmd_merkle(rest);
    else if (strcmp(cmd, "ed") == 0) cmd_ed(rest);
    else if (strcmp(cmd, "judge") == 0) cmd_judge(rest);
    else {
      fprintf(stderr, "unknown command %s\n", cmd);
      return 2;
    }
    fflush(stdout);
  }
  free(line);
  return 0;
}
