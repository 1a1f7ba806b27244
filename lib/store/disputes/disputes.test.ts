// The dispute desk's store on both backends: DISPUTE envelopes newest first with keyset pages that
// never repeat or skip a row (ties in timestamp included), the open/reviewed filter and counts,
// the evidence read of a conversation, and one current opinion per reviewer (saved, replaced by a
// newer message, unchanged on a resend, an older message refused); only opinions of reviewers the
// deployment names count toward status and counts, the rest are kept and listed as not counted.
import assert from 'node:assert/strict';
import { encodeCanonical } from '../../protocol/cbor';
import { buildEnvelope } from '../../protocol/envelope';
import { toHex } from '../../protocol/hex';
import { MsgType } from '../../protocol/types';
import { testOnEachStore } from '../backends-testing';
import type { IngestItem } from '../types';
import type { DisputeCursor } from './disputes';

const T = 1_790_000_000_000_000n;
const id = (b: number) => new Uint8Array(32).fill(b);
const [BUYER, SELLER, NOTARY] = [id(0x0b), id(0x05), id(0x0e)];
let nonce = 0n;

function env(
  from: Uint8Array,
  to: Uint8Array,
  msgType: number,
  conv: number,
  at: bigint,
  payload: Uint8Array = new Uint8Array([1]),
): IngestItem {
  nonce++;
  const b = buildEnvelope(
    {
      msgType,
      sender: from,
      recipient: to,
      timestamp: at,
      nonce,
      conversationId: new Uint8Array(16).fill(conv),
      payload,
    },
    new Uint8Array(32).fill(from[0]),
  );
  return { id: b.id, envelope: b.envelope, raw: b.bytes, source: 'stream', receivedAt: new Date(Number(at / 1000n)) };
}

// Conversation 1: a deal whose failing verdict the seller disputes (the demo's story).
const deal = [
  env(BUYER, SELLER, MsgType.PROPOSE, 1, T + 1_000n),
  env(SELLER, BUYER, MsgType.ACCEPT, 1, T + 2_000n),
  env(SELLER, BUYER, MsgType.DELIVER, 1, T + 3_000n),
  env(BUYER, NOTARY, MsgType.NOTARIZE_ASSIGN, 1, T + 4_000n),
  env(NOTARY, SELLER, MsgType.VERDICT, 1, T + 5_000n, encodeCanonical([0, -30])),
];
const dispute1 = env(SELLER, NOTARY, MsgType.DISPUTE, 1, T + 6_000n, encodeCanonical([new Uint8Array(16).fill(1), 1]));
// Six more disputes, two of them in the same microsecond (ties broken by id).
const others = [2, 3, 4, 5, 6, 7].map((c) =>
  env(BUYER, NOTARY, MsgType.DISPUTE, c, T + (c === 7 ? 6n : BigInt(c)) * 1_000_000n),
);
const all = [dispute1, ...others];
const newestFirst = [...all].sort((a, b) =>
  a.envelope.timestamp === b.envelope.timestamp
    ? Buffer.compare(Buffer.from(b.id), Buffer.from(a.id))
    : a.envelope.timestamp > b.envelope.timestamp
      ? -1
      : 1,
);

testOnEachStore(
  'disputes: newest first, keyset pages, open/reviewed, evidence, one current opinion per reviewer',
  async (store) => {
    await store.ingestEnvelopes([...deal, dispute1, ...others]);

    // Every page of 3 in order, none repeated or skipped.
    const seen: string[] = [];
    let before: DisputeCursor | undefined;
    for (let i = 0; i < 5; i++) {
      const page = await store.listDisputes({ limit: 3, before });
      seen.push(...page.disputes.map((d) => toHex(d.id)));
      if (!page.next) break;
      before = page.next;
    }
    assert.deepEqual(
      seen,
      newestFirst.map((x) => toHex(x.id)),
    );
    assert.deepEqual(await store.disputeCounts(), { total: 7, open: 7, reviewed: 0 });

    const d = await store.getDispute(dispute1.id);
    assert.ok(d);
    assert.equal(toHex(d.sender), toHex(SELLER));
    assert.equal(toHex(d.recipient), toHex(NOTARY));
    assert.equal(d.timestampUs, T + 6_000n);
    assert.deepEqual(d.opinions, { total: 0, upheld: 0, rejected: 0, unclear: 0, uncounted: 0 });
    assert.equal(await store.getDispute(deal[0].id), null, 'a PROPOSE is not a dispute');

    const verdicts = await store.conversationPayloads(new Uint8Array(16).fill(1), [
      MsgType.VERDICT,
      MsgType.NOTARIZE_ASSIGN,
    ]);
    assert.deepEqual(
      verdicts.map((v) => v.msgType),
      [MsgType.NOTARIZE_ASSIGN, MsgType.VERDICT],
    );

    // Opinions: reviewer A upholds, then changes their mind with a newer message; B is unclear.
    const A = id(0xa1);
    const B = id(0xb2);
    const at = (s: number) => new Date(Date.UTC(2026, 10, 27, 22, 0, s));
    const op = (
      reviewer: Uint8Array,
      opinion: 'upheld' | 'rejected' | 'unclear',
      when: Date,
      sig: number,
      counted = true,
      dispute = dispute1.id,
    ) => ({
      disputeId: dispute,
      reviewer,
      opinion,
      note: `${opinion} at ${when.toISOString()}`,
      message: `m ${opinion} ${when.toISOString()}`,
      signature: new Uint8Array(64).fill(sig),
      signedAt: when,
      counted,
    });
    assert.equal(await store.saveDisputeOpinion(op(A, 'upheld', at(1), 1)), 'saved');
    assert.equal(
      await store.saveDisputeOpinion(op(A, 'upheld', at(1), 1)),
      'unchanged',
      'the same signed message again',
    );
    assert.equal(await store.saveDisputeOpinion(op(A, 'rejected', at(5), 2)), 'replaced');
    assert.equal(
      await store.saveDisputeOpinion(op(A, 'upheld', at(3), 3)),
      'older',
      'an earlier message never overwrites a later one',
    );
    assert.equal(await store.saveDisputeOpinion(op(B, 'unclear', at(2), 4)), 'saved');

    const ops = await store.disputeOpinions(dispute1.id);
    assert.deepEqual(
      ops.map((o) => [toHex(o.reviewer), o.opinion, o.signedAt.toISOString()]),
      [
        [toHex(B), 'unclear', at(2).toISOString()],
        [toHex(A), 'rejected', at(5).toISOString()],
      ],
    );
    assert.deepEqual(ops[1].signature, new Uint8Array(64).fill(2));
    assert.deepEqual((await store.getDispute(dispute1.id))!.opinions, {
      total: 2,
      upheld: 0,
      rejected: 1,
      unclear: 1,
      uncounted: 0,
    });

    assert.deepEqual(await store.disputeCounts(), { total: 7, open: 6, reviewed: 1 });
    const reviewed = await store.listDisputes({ status: 'reviewed' });
    assert.deepEqual(
      reviewed.disputes.map((x) => toHex(x.id)),
      [toHex(dispute1.id)],
    );
    assert.equal(reviewed.next, null);
    const open = await store.listDisputes({ status: 'open', limit: 200 });
    assert.deepEqual(
      open.disputes.map((x) => toHex(x.id)),
      newestFirst.filter((x) => x !== dispute1).map((x) => toHex(x.id)),
    );
    await assert.rejects(store.listDisputes({ limit: 0 }), RangeError);

    // Strangers' opinions are kept and listed, but move no status and no count: twenty of them on
    // an open dispute leave it open and the totals as they were.
    const open2 = others[0].id;
    for (let i = 0; i < 20; i++)
      assert.equal(
        await store.saveDisputeOpinion(op(id(0x30 + i), 'upheld', at(10 + i), 0x30 + i, false, open2)),
        'saved',
      );
    assert.deepEqual((await store.getDispute(open2))!.opinions, {
      total: 0,
      upheld: 0,
      rejected: 0,
      unclear: 0,
      uncounted: 20,
    });
    assert.deepEqual(await store.disputeCounts(), { total: 7, open: 6, reviewed: 1 });
    assert.ok(
      (await store.listDisputes({ status: 'open', limit: 200 })).disputes.some((x) => toHex(x.id) === toHex(open2)),
    );
    assert.equal((await store.disputeOpinions(open2)).filter((o) => !o.counted).length, 20);

    // The deployment's list decides at each start: naming one stranger counts them, dropping B un-counts B.
    const stranger = id(0x30);
    assert.equal(await store.setDisputeReviewers([A, stranger]), 2);
    assert.deepEqual((await store.getDispute(open2))!.opinions, {
      total: 1,
      upheld: 1,
      rejected: 0,
      unclear: 0,
      uncounted: 19,
    });
    assert.deepEqual((await store.getDispute(dispute1.id))!.opinions, {
      total: 1,
      upheld: 0,
      rejected: 1,
      unclear: 0,
      uncounted: 1,
    });
    assert.deepEqual(await store.disputeCounts(), { total: 7, open: 5, reviewed: 2 });
    assert.equal(await store.setDisputeReviewers([A, stranger]), 0, 'nothing to change the second time');
  },
  { dbPrefix: 'zx_disputes' },
);
