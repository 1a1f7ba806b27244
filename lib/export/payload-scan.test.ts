/**
 * The hand-written payload scanner (payload-scan.ts) against lib/protocol's strict decoders
 * (rows.ts decodePayloadInto): on every payload of played deals, on boundary values, and on
 * thousands of mutated payloads, whenever the scanner answers, its kind and every field equal
 * the decoder's; it answers for the real payloads (else the export would gain nothing).
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRng } from '../agents/rng';
import { toHex } from '../protocol/hex';
import { encodeNeg1, encodeNegCommit, encodeNegReveal } from '../protocol/neg1';
import { encodeFeedback, encodeNotarizeBid } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import { makeDeals } from './deals-testing';
import { BYTE_FIELDS, KIND_FIELDS, KIND_NAMES, KIND_UNSURE, P, PayloadScan } from './payload-scan';
import { decodePayloadInto, PAYLOAD_FIELDS } from './rows';

const scanner = new PayloadScan();
const vals: unknown[] = [];

/** Compares the scanner with the decoder on one payload, placed at an offset inside a larger buffer. */
function check(t: number, payload: Uint8Array): boolean {
  const buf = new Uint8Array(payload.length + 7).fill(0xee);
  buf.set(payload, 3);
  const kind = scanner.scan(t, buf, 3, 3 + payload.length);
  const want = decodePayloadInto(t, payload, vals);
  if (kind === KIND_UNSURE) return false;
  const ctx = `type ${t} payload ${toHex(payload)}`;
  assert.equal(KIND_NAMES[kind], want, ctx);
  const filled = new Set(KIND_FIELDS[kind]);
  for (let i = 0; i < PAYLOAD_FIELDS.length; i++) {
    const v = vals[i];
    if (!filled.has(i)) {
      assert.equal(v, null, `${ctx}: ${PAYLOAD_FIELDS[i]} unset`);
      continue;
    }
    if (BYTE_FIELDS.has(i)) {
      assert.equal(
        toHex(buf.subarray(scanner.off[i], scanner.off[i] + scanner.len[i])),
        toHex(v as Uint8Array),
        `${ctx}: ${PAYLOAD_FIELDS[i]}`,
      );
    } else if (i === P.dispute) {
      assert.equal(scanner.num[i] === 1, v, ctx);
    } else {
      assert.equal(String(scanner.num[i]), String(v), `${ctx}: ${PAYLOAD_FIELDS[i]}`);
    }
  }
  return true;
}

const neg1 = (bid: bigint, deadline = 0n, round = 0, metadata = new Uint8Array(0), tsh = new Uint8Array(0)) =>
  encodeNeg1({
    bidValue: bid,
    tokenMint: new Uint8Array(32).fill(1),
    serviceHash: new Uint8Array(32).fill(2),
    round,
    deadline,
    decayBps: 1000,
    maxRounds: 20,
    verification: { tier: 2, testSuiteHash: tsh },
    reason: 6,
    metadata,
  });

test('the scanner answers as the strict decoders on the payloads of played deals', () => {
  const fx = makeDeals({ deals: 300, seed: 5 });
  const unanswered = fx.items.filter((it) => !check(it.envelope.msgType, it.envelope.payload));
  // Everything but the deal with the 2^70 price (bignums: the decoder's call) is answered.
  assert.ok(unanswered.length < 5, `${unanswered.length} of ${fx.items.length} left to the decoder`);
  for (const it of unanswered) assert.equal(toHex(it.envelope.conversationId), toHex(fx.bigPriceConversation));
});

test('boundary values: heads of every width, 2^53, negative prices, bignums, metadata', () => {
  const answered: boolean[] = [];
  const ints = [
    0n,
    23n,
    24n,
    255n,
    256n,
    65535n,
    65536n,
    2n ** 32n - 1n,
    2n ** 32n,
    2n ** 53n - 2n,
    2n ** 53n - 1n,
    2n ** 53n,
    2n ** 64n - 1n,
    2n ** 70n,
  ];
  for (const v of ints) {
    for (const bid of [v, -v, -v - 1n]) answered.push(check(MsgType.PROPOSE, neg1(bid)));
    answered.push(check(MsgType.COUNTER, neg1(1n, v < 2n ** 64n ? v : 0n)));
    if (v < 2n ** 53n) answered.push(check(MsgType.ACCEPT, neg1(1n, 0n, Number(v))));
    answered.push(check(MsgType.REJECT, encodeNegReveal({ price: v, salt: new Uint8Array(32).fill(9) })));
  }
  for (const m of [0, 1, 23, 24, 64])
    answered.push(check(MsgType.PROPOSE, neg1(5n, 0n, 0, new Uint8Array(m).fill(3), new Uint8Array(32).fill(4))));
  answered.push(check(MsgType.PROPOSE, encodeNegCommit(new Uint8Array(32).fill(7))));
  for (const score of [-100, 0, 100]) {
    answered.push(
      check(
        MsgType.FEEDBACK,
        encodeFeedback({
          conversationId: new Uint8Array(16),
          targetAgent: new Uint8Array(32).fill(5),
          score,
          outcome: 2,
          isDispute: true,
          role: 1,
        }),
      ),
    );
  }
  // Every value of each FEEDBACK flag byte and of NOTARIZE_BID's bid_type byte.
  const fb = encodeFeedback({
    conversationId: new Uint8Array(16),
    targetAgent: new Uint8Array(32).fill(5),
    score: 1,
    outcome: 0,
    isDispute: false,
    role: 0,
  });
  const nb = encodeNotarizeBid({ bidType: 0, conversationId: new Uint8Array(16), terms: new Uint8Array(3) });
  for (let v = 0; v < 256; v++) {
    for (const i of [48, 49, 50, 51]) {
      const q = Uint8Array.from(fb);
      q[i] = v;
      check(MsgType.FEEDBACK, q);
    }
    const q = Uint8Array.from(nb);
    q[0] = v;
    check(MsgType.NOTARIZE_BID, q);
  }
  for (const n of [0, 16, 17, 51, 53]) {
    check(MsgType.FEEDBACK, new Uint8Array(n));
    check(MsgType.NOTARIZE_BID, new Uint8Array(n));
  }
  answered.push(
    check(
      MsgType.NOTARIZE_BID,
      encodeNotarizeBid({ bidType: 1, conversationId: new Uint8Array(16), terms: new Uint8Array(0) }),
    ),
  );
  answered.push(
    check(
      MsgType.NOTARIZE_BID,
      encodeNotarizeBid({ bidType: 0, conversationId: new Uint8Array(16), terms: new Uint8Array(300).fill(8) }),
    ),
  );
  assert.ok(
    answered.filter(Boolean).length > answered.length * 0.7,
    'most boundary payloads are answered by the scanner',
  );
});

test('mutated payloads: the scanner never disagrees with the decoders', () => {
  const rng = createRng(42);
  const fx = makeDeals({ deals: 60, seed: 6 });
  const samples = [
    ...fx.items.map((i) => [i.envelope.msgType, i.envelope.payload] as const),
    [MsgType.PROPOSE, neg1(2n ** 40n, 2n ** 33n, 7, new Uint8Array(30))] as const,
  ];
  let answered = 0;
  let total = 0;
  for (let k = 0; k < 20_000; k++) {
    const [t0, base] = samples[rng.int(0, samples.length - 1)];
    let p = Uint8Array.from(base);
    let t: number = t0;
    switch (rng.int(0, 5)) {
      case 0:
        p[rng.int(0, Math.max(0, p.length - 1))] ^= 1 << rng.int(0, 7);
        break; // a bit flip anywhere
      case 1:
        p[rng.int(0, Math.max(0, p.length - 1))] = rng.int(0, 255);
        break;
      case 2:
        p = p.subarray(0, rng.int(0, p.length));
        break; // truncated
      case 3: {
        const q = new Uint8Array(p.length + 1);
        q.set(p);
        q[p.length] = rng.int(0, 255);
        p = q;
        break;
      } // a trailing byte
      case 4:
        t = rng.int(0, 14);
        break; // the same bytes under another type
      default: {
        // a head made one step wider (never canonical)
        const i = rng.int(4, Math.max(4, p.length - 1));
        const ai = p[i] & 31;
        if (i < p.length && ai < 24) {
          const q = new Uint8Array(p.length + 1);
          q.set(p.subarray(0, i));
          q[i] = (p[i] & 0xe0) | 24;
          q[i + 1] = ai;
          q.set(p.subarray(i + 1), i + 2);
          p = q;
        }
      }
    }
    total++;
    if (check(t, p)) answered++;
  }
  assert.ok(answered > total / 2, `${answered} of ${total} answered`);
});
