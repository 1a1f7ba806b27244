/**
 * Every live event type, built by its real producer (lib/observer/events.ts for the mesh
 * events, lib/indexer/json.ts liveEventOf over the real program-log parser for the chain
 * events), matches lib/wire's schema exactly: parsing keeps every field (nothing stripped).
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PublicKey } from '@solana/web3.js';
import { parseEvents } from '../chain/events';
import * as behaviorLog from '../chain/gen/behavior_log';
import * as challenge from '../chain/gen/challenge';
import * as haggle from '../chain/gen/haggle';
import { PROGRAM_IDS } from '../chain/gen/ids';
import * as lease from '../chain/gen/lease';
import * as stakeLock from '../chain/gen/stake_lock';
import { liveEventOf } from '../indexer/json';
import { dropEvents, eventJson, eventsFor } from '../observer/events';
import { buildEnvelope } from '../protocol/envelope';
import { encodeFeedback, encodeNotarizeBid } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import type { IngestItem } from '../store';
import { LIVE_EVENT_TYPES, type LiveEvent, LiveEventSchema, parseStreamFrame, StreamFrameSchema } from './events';
import { sampleEvent } from './testing';

const seed = new Uint8Array(32).fill(3);
const A = new Uint8Array(32).fill(0xaa);
const B = new Uint8Array(32).fill(0xbb);
const conv = new Uint8Array(16).fill(9);

function item(msgType: number, payload: Uint8Array, recipient = B): IngestItem {
  const b = buildEnvelope(
    { msgType, sender: A, recipient, timestamp: 1_700_000_000_000_000n, nonce: 7n, conversationId: conv, payload },
    seed,
  );
  return {
    id: b.id,
    envelope: b.envelope,
    raw: b.bytes,
    source: 'gossip',
    topic: '/0x01/v1/reputation',
    receivedAt: new Date(1_700_000_000_000),
  };
}

/** Parses `e` with the schema and checks nothing was dropped or changed, also after JSON. */
function assertValid(e: LiveEvent): void {
  const r = LiveEventSchema.safeParse(e);
  assert.ok(r.success, `${e.type}: ${r.success ? '' : JSON.stringify(r.error.issues)}`);
  assert.deepEqual(r.data, e, `${e.type}: schema kept every field`);
  const wire = parseStreamFrame(eventJson(e));
  assert.ok(wire.ok, `${e.type} as JSON text`);
  assert.deepEqual(wire.frame, e);
}

function mesh(): LiveEvent[] {
  const reps = new Map();
  const out: LiveEvent[] = [];
  out.push(...eventsFor(item(MsgType.PROPOSE, new Uint8Array([1])), [A, B], reps, 5));
  out.push(
    ...eventsFor(
      item(
        MsgType.FEEDBACK,
        encodeFeedback({ conversationId: conv, targetAgent: B, score: -40, outcome: 0, isDispute: true, role: 1 }),
        new Uint8Array(32),
      ),
      [],
      reps,
      6,
    ),
  );
  out.push(...eventsFor(item(MsgType.NOTARIZE_ASSIGN, new Uint8Array(0)), [], reps, 7));
  out.push(...eventsFor(item(MsgType.VERDICT, new Uint8Array(0)), [], reps, 8));
  out.push(...eventsFor(item(MsgType.DISPUTE, new Uint8Array(0)), [], reps, 9));
  out.push(
    ...eventsFor(
      item(MsgType.NOTARIZE_BID, encodeNotarizeBid({ bidType: 1, conversationId: conv, terms: new Uint8Array(0) })),
      [],
      reps,
      10,
    ),
  );
  out.push(...dropEvents({ signature: 5, rate_limit: 2 }, { signature: 12, rate_limit: 2 }, 11));
  return out;
}

const key = (n: number) => new PublicKey(new Uint8Array(32).fill(n));
const agent = key(0xaa);

/** One transaction's log with the given records of `program`, parsed by the indexer's real parser. */
function logged(program: keyof typeof PROGRAM_IDS, ...records: Uint8Array[]) {
  const id = PROGRAM_IDS[program].toBase58();
  return parseEvents([
    `Program ${id} invoke [1]`,
    ...records.map((r) => `Program data: ${Buffer.from(r).toString('base64')}`),
    `Program ${id} success`,
  ]);
}

function chain(): LiveEvent[] {
  const evs = [
    ...logged(
      'lease',
      lease.encodeLeasePaidEvent({
        agent,
        payer: key(1),
        amount: 1_000_000n,
        epoch: 3n,
        paidThroughEpoch: 5n,
        epochs: 2,
        prevStatus: 1,
        status: 0,
      }),
      lease.encodeLeaseTickedEvent({ agent, epoch: 9n, paidThroughEpoch: 5n, prevStatus: 1, status: 2 }),
    ),
    ...logged(
      'stakeLock',
      stakeLock.encodeStakeLockedEvent({ agent, owner: key(2), amount: 10n ** 7n, slot: 77n }),
      stakeLock.encodeStakeSlashedEvent({
        agent,
        challengerUsdc: key(3),
        amount: 10n ** 7n,
        reward: 5n * 10n ** 6n,
        toTreasury: 5n * 10n ** 6n,
        slot: 78n,
      }),
    ),
    ...logged(
      'behaviorLog',
      behaviorLog.encodeBatchSubmittedEvent({
        agent,
        signer: key(4),
        batch: key(5),
        epoch: 7n,
        batchHash: new Uint8Array(32).fill(0xcc),
        logMerkleRoot: new Uint8Array(32).fill(0xdd),
        slot: 79n,
        messageCount: 2n ** 64n - 1n,
        bidCount: 0xffff_ffff,
        taskCount: 1,
        verifierCount: 0,
        feedbackCount: 3,
        overflow: 1,
      }),
    ),
    ...logged(
      'challenge',
      challenge.encodeChallengeSubmittedEvent({
        challenge: key(6),
        challenger: key(7),
        agent,
        batch: key(5),
        epoch: 7n,
        leaf: new Uint8Array(32).fill(0xee),
        stake: 10n ** 6n,
        slot: 80n,
        pending: 1,
      }),
      challenge.encodeChallengeResolvedEvent({
        challenge: key(6),
        challenger: key(7),
        agent,
        batch: key(5),
        epoch: 7n,
        slot: 81n,
        stakeReturned: 10n ** 6n,
        stakeToTreasury: 0n,
        pending: 0,
        status: 1,
        reason: 0,
      }),
    ),
  ];
  return evs
    .map((e, i) =>
      liveEventOf(e, { signature: '5'.repeat(87) + i, slot: 1000 + i, at: 20 + i, batchStatus: 'verified' }),
    )
    .filter((e): e is NonNullable<typeof e> => e !== null);
}

/** One event of every Haggle kind, through the same parser and producer as the indexer. */
function haggleEvents(): LiveEvent[] {
  const base = { negotiation: key(0x11), conversationId: conv };
  const evs = logged(
    'haggle',
    haggle.encodeNegotiationCreatedEvent({
      ...base,
      buyer: key(1),
      seller: key(2),
      deposit: 2000n,
      deadline: 1_700_003_600n,
      createdAt: 1_700_000_000n,
      responseWindow: 600,
      decayBps: 50,
      minOfferBps: 0,
      protocolFeeBps: 200,
      maxRounds: 20,
      zopaDetection: 1,
    }),
    haggle.encodeNegotiationJoinedEvent({ ...base, seller: key(2), at: 1_700_000_001n }),
    haggle.encodeReservationCommittedEvent({ ...base, commitment: new Uint8Array(32).fill(0xcc), side: 1 }),
    haggle.encodeReservationRevealedEvent({
      ...base,
      price: new Uint8Array(16).fill(0xff),
      side: 1,
      bothRevealed: 0,
      zopa: 1,
    }),
    haggle.encodeOfferSubmittedEvent({
      ...base,
      amount: 400n,
      decay: 10n,
      escrow: 1990n,
      at: 1_700_000_002n,
      side: 1,
      round: 1,
      status: 2,
      metadata: new Uint8Array(64),
    }),
    haggle.encodeOfferAcceptedEvent({ ...base, amount: 400n, at: 1_700_000_003n, side: 2, round: 1 }),
    haggle.encodeNegotiationSettledEvent({
      ...base,
      buyer: key(1),
      seller: key(2),
      amount: 400n,
      fee: 8n,
      toSeller: 392n,
      refund: 1590n,
      decayed: 10n,
    }),
    haggle.encodeNegotiationRefundedEvent({
      ...base,
      buyer: key(1),
      refund: 1990n,
      decayed: 10n,
      at: 1_700_000_005n,
      status: 7,
      reason: 4,
      side: 2,
    }),
  );
  return evs
    .map((e, i) => liveEventOf(e, { signature: '4'.repeat(87) + i, slot: 2000 + i, at: 40 + i }))
    .filter((e): e is NonNullable<typeof e> => e !== null);
}

describe('live events from the real producers match lib/wire', () => {
  test('mesh events (lib/observer): every type, every field', () => {
    const evs = mesh();
    assert.deepEqual([...new Set(evs.map((e) => e.type))].sort(), [
      'agent_joined',
      'dispute_raised',
      'drop',
      'message',
      'notary_assigned',
      'reputation_update',
      'verdict_issued',
    ]);
    for (const e of evs) assertValid(e);
    const bid = evs.find((e) => e.type === 'message' && e.data.msgType === MsgType.NOTARIZE_BID);
    assert.equal(bid?.type === 'message' && bid.data.bidType, 1);
  });

  test("the observer's drop events carry count and total per reason", () => {
    const drops = mesh().filter((e) => e.type === 'drop');
    assert.deepEqual(drops, [
      { type: 'drop', at: 11, data: { reason: 'signature', count: 5, total: 12 } },
      { type: 'drop', at: 11, data: { reason: 'rate_limit', count: 2, total: 2 } },
    ]);
    assert.equal(eventJson(drops[0]), '{"type":"drop","at":11,"data":{"reason":"signature","count":5,"total":12}}');
  });

  test('chain events (lib/indexer over the program-log parser): every type, every field', () => {
    const evs = chain();
    assert.deepEqual(
      evs.map((e) => e.type),
      [
        'lease_paid',
        'agent_deactivated',
        'stake_locked',
        'stake_slashed',
        'batch_submitted',
        'challenge_submitted',
        'challenge_resolved',
      ],
    );
    for (const e of evs) assertValid(e);
    const batch = evs.find((e) => e.type === 'batch_submitted');
    assert.equal(batch?.type === 'batch_submitted' && batch.data.messageCount, '18446744073709551615');
    assert.equal(batch?.type === 'batch_submitted' && batch.data.agentHex, 'aa'.repeat(32));
    const resolved = evs.find((e) => e.type === 'challenge_resolved');
    assert.equal(resolved?.type === 'challenge_resolved' && resolved.data.statusName, 'upheld');
  });

  test('haggle events (lib/indexer over the program-log parser): every type, every field', () => {
    const evs = haggleEvents();
    assert.deepEqual(
      evs.map((e) => e.type),
      [
        'haggle_created',
        'haggle_joined',
        'haggle_committed',
        'haggle_revealed',
        'haggle_offer',
        'haggle_accepted',
        'haggle_settled',
        'haggle_refunded',
      ],
    );
    for (const e of evs) assertValid(e);
    const refunded = evs.find((e) => e.type === 'haggle_refunded');
    assert.equal(refunded?.type === 'haggle_refunded' && refunded.data.reasonName, 'no ZOPA');
    assert.equal(refunded?.type === 'haggle_refunded' && refunded.data.statusName, 'rejected');
    const offer = evs.find((e) => e.type === 'haggle_offer');
    assert.equal(offer?.type === 'haggle_offer' && offer.data.conversationId, '09'.repeat(16));
    assert.equal(offer?.type === 'haggle_offer' && offer.data.statusName, 'proposed');
    const revealed = evs.find((e) => e.type === 'haggle_revealed');
    assert.equal(revealed?.type === 'haggle_revealed' && revealed.data.price, 'ff'.repeat(16));
    // A haggle event missing its negotiation is refused.
    const { negotiation: _n, ...rest } = evs[0].data as Record<string, unknown>;
    assert.equal(parseStreamFrame(JSON.stringify({ ...evs[0], data: rest })).ok, false);
  });

  test('together the producers cover every LiveEvent type', () => {
    assert.deepEqual(new Set([...mesh(), ...chain(), ...haggleEvents()].map((e) => e.type)), new Set(LIVE_EVENT_TYPES));
  });

  test('the consumer fixtures are valid too', () => {
    for (const t of LIVE_EVENT_TYPES) assertValid(sampleEvent(t));
  });
});

describe('schema rejections and stream frames', () => {
  test('bad fields are rejected with the path named', () => {
    const ok = sampleEvent('message');
    const bad = (data: object) => parseStreamFrame(JSON.stringify({ ...ok, data: { ...ok.data, ...data } }));
    assert.deepEqual(bad({ id: 'AB'.repeat(32) }), {
      ok: false,
      error: 'data.id: must be 64 lowercase hex characters (32 bytes)',
    });
    assert.equal(bad({ nonce: 7 }).ok, false);
    assert.equal(bad({ nonce: '-1' }).ok, false);
    assert.equal(bad({ timestamp: '18446744073709551616' }).ok, false);
    assert.equal(bad({ source: 'carrier-pigeon' }).ok, false);
    assert.equal(parseStreamFrame(JSON.stringify({ type: 'drop', at: 1, data: { reason: 'signature' } })).ok, false);
    assert.deepEqual(parseStreamFrame(JSON.stringify({ type: 'teleport', at: 1, data: {} })).ok, false);
    assert.deepEqual(parseStreamFrame('{'), { ok: false, error: 'frame is not JSON' });
    assert.deepEqual(parseStreamFrame(new Uint8Array(2)), { ok: false, error: 'frame is not text' });
  });

  test('the control frames of /api/stream', () => {
    assert.deepEqual(parseStreamFrame('{"type":"hello","at":1,"data":{}}'), {
      ok: true,
      frame: { type: 'hello', at: 1, data: {} },
    });
    assert.deepEqual(parseStreamFrame('{"type":"lagged","at":2,"data":{"dropped":40}}'), {
      ok: true,
      frame: { type: 'lagged', at: 2, data: { dropped: 40 } },
    });
    assert.ok(!StreamFrameSchema.safeParse({ type: 'lagged', at: 2, data: { dropped: -1 } }).success);
  });
});
