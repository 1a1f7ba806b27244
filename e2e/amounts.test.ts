/**
 * Exact amounts and gossip↔chain matching on the conversation page, end to end: `npm start`'s
 * launcher (production build) on a Postgres database, Debian Chromium via playwright-core. Two
 * agents' signed NEG1 envelopes are uploaded through the public API (POST /api/ingest/envelopes):
 * one negotiation priced around 1.4e38 (int128), one around 1.5e19 (u64) that also settled on
 * chain (its Haggle events stored as the chain indexer stores them, so the page pairs gossip with
 * chain), with two offers stamped in the same millisecond that the store returns swapped, and one
 * whose on-chain offer really differs. The page must show every amount with all its digits, no
 * "Gossiped and on-chain offers differ" for the swapped pair, and the difference for the real one.
 * Needs TEST_DATABASE_URL. Screenshots go to /tmp/amounts-*.png.
 */

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { base58, formatTokenAmount } from '../components/format';
import { encodeCanonical } from '../lib/protocol/cbor';
import { publicKeyFromSeed } from '../lib/protocol/crypto';
import { buildEnvelope } from '../lib/protocol/envelope';
import { toHex } from '../lib/protocol/hex';
import { encodeNeg1 } from '../lib/protocol/neg1';
import { MsgType } from '../lib/protocol/types';
import { openStore } from '../lib/store';
import type { HaggleEventInput } from '../lib/store/chain';
import { createTestDatabase, skipWithoutPostgres, testPostgresUrl } from '../lib/store/testing';
import { CHROMIUM, CHROMIUM_ARGS, chromiumSkip, type RunningServer, startServer } from './harness';

const skip = chromiumSkip || skipWithoutPostgres();

/** An agent whose id is its signing seed (the store's signer table maps it to the public key). */
const seed = (n: number) => new Uint8Array(32).fill(n);
const BUYER = seed(0x51);
const SELLER = seed(0x52);
const conversation = (n: number) => new Uint8Array(16).fill(n);
const INT128 = conversation(0x41);
const U64 = conversation(0x42);
const DIFFERS = conversation(0x43);

const I128_BASE = 140_000_000_000_000_000_000_000_000_000_000_000_000n;
const INT128_PRICES = [I128_BASE + 123n, I128_BASE + 987_654n, I128_BASE + 400_000n, (1n << 127n) - 1n];
const U64_PRICES = [
  15_223_372_036_854_700_000n,
  15_223_372_036_854_790_000n,
  15_223_372_036_854_750_001n,
  15_223_372_036_854_775_808n,
];

/** Now minus ten minutes, in µs: inside any upload window. */
const T0 = BigInt(Date.now() - 600_000) * 1000n;

interface Msg {
  type: number;
  from: Uint8Array;
  round: number;
  price: bigint;
  at: bigint;
  nonce: bigint;
}

function envelope(conv: Uint8Array, m: Msg): Uint8Array {
  const payload = encodeNeg1({
    bidValue: m.price,
    tokenMint: new Uint8Array(32),
    serviceHash: new Uint8Array(32).fill(9),
    round: m.round,
    deadline: 0n,
    decayBps: 50,
    maxRounds: 10,
    verification: { tier: 1, testSuiteHash: new Uint8Array(0) },
    reason: 0,
    metadata: new Uint8Array(0),
  });
  const to = m.from === BUYER ? SELLER : BUYER;
  return buildEnvelope(
    {
      msgType: m.type,
      sender: m.from,
      recipient: to,
      conversationId: conv,
      nonce: m.nonce,
      timestamp: m.at,
      payload,
      blockRef: 1n,
    },
    m.from,
  ).bytes;
}

/**
 * Four offers in rounds 0..3 and the buyer's ACCEPT of the last. Rounds 1 and 2 share one
 * timestamp, and the buyer's nonce is lower than the seller's, so protocol order (timestamp,
 * nonce) puts round 2 before round 1.
 */
function negotiation(_conv: Uint8Array, prices: bigint[], t: bigint, nonceBase: bigint): Msg[] {
  return [
    { type: MsgType.PROPOSE, from: BUYER, round: 0, price: prices[0], at: t, nonce: nonceBase + 1n },
    { type: MsgType.COUNTER, from: SELLER, round: 1, price: prices[1], at: t + 5_000n, nonce: nonceBase + 50n },
    { type: MsgType.COUNTER, from: BUYER, round: 2, price: prices[2], at: t + 5_000n, nonce: nonceBase + 2n },
    { type: MsgType.COUNTER, from: SELLER, round: 3, price: prices[3], at: t + 9_000n, nonce: nonceBase + 51n },
    { type: MsgType.ACCEPT, from: BUYER, round: 4, price: prices[3], at: t + 12_000n, nonce: nonceBase + 3n },
  ];
}

/** The Haggle events of a negotiation mirrored on chain with `amounts` as its offers, settled at the last. */
function haggleEvents(conv: Uint8Array, address: string, amounts: bigint[], slot0: bigint): HaggleEventInput[] {
  const deposit = 18_000_000_000_000_000_000n;
  let slot = slot0;
  let escrow = deposit;
  const ev = (kind: HaggleEventInput['kind'], over: Partial<HaggleEventInput> = {}): HaggleEventInput => ({
    signature: `${address.slice(0, 8)}sig${slot}`,
    index: 0,
    slot: slot++,
    at: new Date(Number(T0 / 1000n)),
    negotiation: address,
    conversationId: conv,
    kind,
    side: null,
    round: null,
    amount: null,
    decay: null,
    escrow: null,
    status: null,
    data: null,
    ...over,
  });
  const out: HaggleEventInput[] = [
    ev('created', {
      status: 'created',
      amount: deposit,
      escrow: deposit,
      created: {
        buyer: base58(toHex(BUYER)),
        seller: base58(toHex(SELLER)),
        deposit,
        deadline: 0n,
        responseWindow: 60,
        decayBps: 50,
        minOfferBps: 0,
        protocolFeeBps: 200,
        maxRounds: 10,
        zopaDetection: false,
      },
    }),
    ev('joined', { status: 'created', set: { joined: true } }),
  ];
  amounts.forEach((amount, i) => {
    const decay = (escrow * 50n) / 10_000n;
    escrow -= decay;
    const round = i + 1;
    out.push(
      ev('offer', {
        side: round % 2 ? 1 : 2,
        round,
        amount,
        decay,
        escrow,
        status: round === 1 ? 'proposed' : 'countered',
        set: { rounds: round, currentOffer: amount, lastOfferBy: round % 2 ? 1 : 2, escrow },
      }),
    );
  });
  const amount = amounts[amounts.length - 1];
  const fee = (amount * 200n) / 10_000n;
  out.push(ev('accepted', { status: 'accepted', side: 1, round: amounts.length, amount }));
  out.push(
    ev('settled', {
      status: 'settled',
      amount,
      escrow: 0n,
      set: {
        amount,
        fee,
        toSeller: amount - fee,
        refund: escrow - amount,
        decayed: deposit - escrow,
        escrow: 0n,
        closed: true,
      },
    }),
  );
  return out;
}

describe('exact amounts and round matching on the conversation page', { skip, timeout: 900_000 }, () => {
  let srv: RunningServer | undefined;
  let db: { url: string; drop(): Promise<void> } | undefined;
  let browser: Browser | undefined;
  before(async () => {
    db = await createTestDatabase(testPostgresUrl()!, 'zx_e2e_amounts');
    const store = await openStore({ databaseUrl: db.url });
    try {
      for (const a of [BUYER, SELLER]) await store.registerSignerKey({ agentId: a, publicKey: publicKeyFromSeed(a) });
      await store.applyHaggleEvents(haggleEvents(U64, 'HaggLeU64Negotiation1111111111111111111111', U64_PRICES, 100n));
      // The same gossip, but the seller's round-1 offer on chain is one unit higher.
      await store.applyHaggleEvents(
        haggleEvents(
          DIFFERS,
          'HaggLeDiffersNegotiation111111111111111111',
          [U64_PRICES[0], U64_PRICES[1] + 1n, U64_PRICES[2], U64_PRICES[3]],
          200n,
        ),
      );
    } finally {
      await store.close();
    }
    srv = await startServer(() => ({ DATABASE_URL: db!.url, DEMO_AGENTS: '0', CHAIN: 'off' }));
    const items = [
      ...negotiation(INT128, INT128_PRICES, T0, 0n).map((m) => envelope(INT128, m)),
      ...negotiation(U64, U64_PRICES, T0 + 100_000n, 10n).map((m) => envelope(U64, m)),
      ...negotiation(DIFFERS, U64_PRICES, T0 + 200_000n, 20n).map((m) => envelope(DIFFERS, m)),
    ];
    const res = await fetch(`${srv.base}/api/ingest/envelopes`, {
      method: 'POST',
      headers: { 'content-type': 'application/cbor' },
      body: Buffer.from(encodeCanonical(items)),
    });
    const body = (await res.json()) as { results: { ok: boolean; reason?: string; detail?: string }[] };
    assert.equal(res.status, 200, JSON.stringify(body));
    assert.deepEqual(
      body.results.filter((r) => !r.ok),
      [],
      'every envelope stored',
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close().catch(() => undefined);
    await srv?.stop();
    await db?.drop();
  });

  async function open(conv: Uint8Array): Promise<Page> {
    const page = await browser!.newPage({ viewport: { width: 1300, height: 1000 } });
    await page.goto(`${srv!.base}/conversations/${toHex(conv)}`);
    await page.getByTestId('flight-recorder').waitFor({ timeout: 30_000 });
    return page;
  }

  test('int128 prices (around 1.4e38 and the maximum) show every digit, in the messages and the chart', async () => {
    const page = await open(INT128);
    try {
      const messages = await page.getByTestId('conversation-messages').innerText();
      for (const p of INT128_PRICES)
        assert.ok(
          messages.includes(`${formatTokenAmount(p)} · round`),
          `${p} exact in the messages table:\n${messages}`,
        );
      assert.ok(messages.includes('170,141,183,460,469,231,731,687,303,715,884,105,727 units'));
      const chart = page.getByTestId('flight-chart');
      const svg = await chart.innerHTML();
      for (const p of INT128_PRICES)
        assert.ok(svg.includes(formatTokenAmount(p)), `${p} exact in the chart's tooltips`);
      const ticks = await chart.locator('[data-tick]').evaluateAll((gs) => gs.map((g) => g.getAttribute('data-tick')!));
      assert.ok(ticks.length >= 3, 'a labelled price axis');
      assert.ok(
        BigInt(ticks[0]) <= INT128_PRICES[0] && BigInt(ticks[ticks.length - 1]) >= INT128_PRICES[3],
        `the axis covers the offers: ${ticks.join(' ')}`,
      );
      const tickText = await chart.locator('[data-tick] text').allTextContents();
      assert.ok(
        tickText.every((l) => l.trim() !== '' && !l.includes('—') && !l.includes('NaN')),
        tickText.join(' | '),
      );
      await page.screenshot({ path: '/tmp/amounts-int128.png', fullPage: true });
    } finally {
      await page.close();
    }
  });

  test(
    'u64 prices settled on chain: exact to the last of 6 ' +
      'decimals, and no "offers differ" for same-millisecond offers',
    async () => {
      const page = await open(U64);
      try {
        const messages = await page.getByTestId('conversation-messages').innerText();
        assert.ok(messages.includes('15,223,372,036,854.775808 USDC · round 3'), messages);
        assert.ok(!messages.includes('15,223,372,036,854.776'), 'not rounded through a float');
        // Protocol order put round 2 before round 1 (same millisecond, lower nonce).
        const rounds = [...messages.matchAll(/· round (\d)/g)].map((m) => Number(m[1]));
        assert.deepEqual(rounds, [0, 2, 1, 3, 4], 'the store returned the same-millisecond offers swapped');
        const section = page.getByTestId('onchain-negotiation');
        const text = await section.innerText();
        assert.ok(!text.includes('offers differ'), text);
        assert.match(
          await page.getByTestId('haggle-differences').innerText(),
          /Every on-chain offer matches the gossiped NEG1 offer/,
        );
        const rows = await page
          .locator('[data-testid=haggle-rounds] tbody tr')
          .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-round'), tr.getAttribute('data-match')]));
        // Numbered by NEG1 round (from 0), as the messages above; the chain's count is in the tooltip.
        assert.deepEqual(rows, [
          ['0', 'same'],
          ['1', 'same'],
          ['2', 'same'],
          ['3', 'same'],
        ]);
        assert.match(
          await page.getByTestId('haggle-settlement').innerText(),
          /settled at 15,223,372,036,854\.775808 USDC/,
        );
        await page.screenshot({ path: '/tmp/amounts-u64.png', fullPage: true });
      } finally {
        await page.close();
      }
    },
  );

  test("an on-chain offer that really differs from its round's gossip is reported at that round", async () => {
    const page = await open(DIFFERS);
    try {
      assert.match(
        await page.getByTestId('haggle-differences').innerText(),
        /Gossiped and on-chain offers differ: 1 difference\b/,
      );
      const rows = await page
        .locator('[data-testid=haggle-rounds] tbody tr')
        .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-round'), tr.getAttribute('data-match')]));
      assert.deepEqual(rows, [
        ['0', 'same'],
        ['1', 'differs'],
        ['2', 'same'],
        ['3', 'same'],
      ]);
    } finally {
      await page.close();
    }
  });
});
