// GET /api/agents/{id}/batches over a real store (PGlite in memory): one agent's batches newest
// epoch first in pages that neither repeat nor skip, each once with its verdict, the authoritative
// fold after it (as lib/protocol foldBatches gives it), its reconciliation and its challenge
// count; `epoch=` reads just the batch the agent page pins; the answer validates against the
// documented schema; bad input is a 400 naming the parameter, and a process without a chain
// answers 503.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { API_ROUTES } from '../../../../../lib/api/routes';
import { buildEnvelope } from '../../../../../lib/protocol/envelope';
import { encodeFeedback } from '../../../../../lib/protocol/payloads';
import { foldBatches } from '../../../../../lib/protocol/reputation';
import { MsgType } from '../../../../../lib/protocol/types';
import { openStore, type Store } from '../../../../../lib/store';
import type { AgentBatchPage } from '../../../../../lib/wire';
import { registerServices, type Services } from '../../../../_lib/services';
import { GET } from './route';

const EPOCH_S = 86_400n;
const id = (b: number) => new Uint8Array(32).fill(b);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const A = id(0x41);
const C = id(0x43);
let store: Store;
let nonce = 0n;
const built: Record<string, { score: number }> = {};

/** A FEEDBACK about A of `score` in `epoch`, stored and logged as A's epoch log. */
async function epochWithFeedback(epoch: bigint, score: number) {
  nonce++;
  const conv = new Uint8Array(16).fill(Number(nonce));
  const payload = encodeFeedback({
    conversationId: conv,
    targetAgent: A,
    score,
    outcome: 2,
    isDispute: false,
    role: 0,
  });
  const b = buildEnvelope(
    {
      msgType: MsgType.FEEDBACK,
      sender: C,
      recipient: A,
      timestamp: epoch * EPOCH_S * 1_000_000n + 1_000_000n,
      nonce,
      conversationId: conv,
      payload,
    },
    new Uint8Array(32).fill(C[0]),
  );
  await store.ingestEnvelopes([
    { id: b.id, envelope: b.envelope, raw: b.bytes, source: 'stream', receivedAt: new Date() },
  ]);
  await store.saveEpochLog(A, epoch, [b.id]);
  built[String(epoch)] = { score };
}

before(async () => {
  store = await openStore({ dataDir: ':memory:', epochSeconds: Number(EPOCH_S) });
  // Epochs 20700..20711: verified except 20703 (mismatch) and 20710 (unverified, no verdict yet).
  for (let e = 20700n; e < 20712n; e++) {
    await epochWithFeedback(e, Number(e % 7n) * 10 - 20);
    await store.upsertBatch({ agentId: A, epoch: e, batchHash: id(0xee), root: id(1), slot: e });
    if (e === 20710n) continue;
    await store.setBatchStatus(A, e, e === 20703n ? 'mismatch' : 'verified', id(1));
  }
  await store.upsertChallenge({
    address: '11111111111111111111111111111112',
    agentId: A,
    epoch: 20708n,
    challenger: C,
    status: 'pending',
    slot: 1n,
    signature: 'sig1',
  });
  registerServices({
    observatory: { store },
    reads: store,
    config: { epochSeconds: Number(EPOCH_S) },
    chain: {},
  } as unknown as Services);
});

after(async () => {
  registerServices(undefined);
  await store.close();
});

const schema = API_ROUTES.find((r) => r.path === '/api/agents/{id}/batches')!.ok;
async function get(agent: string, query = '') {
  const res = await GET(new Request(`http://localhost/api/agents/${agent}/batches${query}`), {
    params: Promise.resolve({ id: agent }),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

test('pages newest first, each batch once, with the fold after it, its reconciliation and its challenges', async () => {
  const seen: AgentBatchPage['rows'] = [];
  let before: string | null = '';
  for (let i = 0; i < 10 && before !== null; i++) {
    const r = await get(hex(A), `?limit=5${before ? `&before=${before}` : ''}`);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const page = schema.parse(r.body) as AgentBatchPage;
    seen.push(...page.rows);
    before = page.next;
  }
  assert.deepEqual(
    seen.map((r) => r.epoch),
    Array.from({ length: 12 }, (_, i) => String(20711 - i)),
    'every epoch once, newest first',
  );
  const byEpoch = new Map(seen.map((r) => [r.epoch, r]));
  assert.equal(byEpoch.get('20703')!.after, null, 'a mismatch is not folded');
  assert.equal(byEpoch.get('20710')!.after, null, 'nor an unverified batch');
  assert.match(byEpoch.get('20710')!.reconciliation.unknownReason ?? '', /no uploaded log has been checked/);
  assert.equal(byEpoch.get('20708')!.challenges, 1);
  assert.equal(byEpoch.get('20707')!.challenges, 0);
  // The fold after 20711: every verified batch before it, as foldBatches folds them.
  const verified = seen
    .filter((r) => r.status === 'verified')
    .map((r) => BigInt(r.epoch))
    .sort((a, b) => (a < b ? -1 : 1));
  const batches = verified.map((e) => ({
    epochNumber: e,
    disputes: 0n,
    feedbackEvents: [
      {
        conversationId: new Uint8Array(16),
        fromAgent: C,
        score: built[String(e)].score,
        outcome: 2,
        role: 0,
        slot: 0n,
        satiAttestationHash: new Uint8Array(32),
      },
    ],
  }));
  const want = foldBatches({ batches: batches as never, fromEpoch: 20700n, toEpoch: 20711n });
  assert.equal(byEpoch.get('20711')!.after?.reliabilityScore, want.reliabilityScore.toString());
  assert.equal(byEpoch.get('20711')!.after?.folded, verified.length);
  // Verified with its log: the reconciliation figures are there (one FEEDBACK, seen on the stream, logged).
  assert.deepEqual(byEpoch.get('20711')!.reconciliation, {
    logEntries: 1,
    seen: 1,
    seenNotLogged: 0,
    loggedNotSeen: 0,
    unknownReason: null,
  });
});

test(
  "epoch= reads just the batch of that epoch (the agent page's linked " +
    'one), the row the pages give; none for an epoch without a batch',
  async () => {
    const r = await get(hex(A), '?epoch=20708');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const page = schema.parse(r.body) as AgentBatchPage;
    const paged = schema.parse((await get(hex(A), '?limit=100')).body) as AgentBatchPage;
    assert.deepEqual(page, { agent: hex(A), rows: paged.rows.filter((x) => x.epoch === '20708'), next: null });
    assert.equal(page.rows[0].challenges, 1);
    const none = schema.parse((await get(hex(A), '?epoch=999')).body) as AgentBatchPage;
    assert.deepEqual(none.rows, []);
  },
);

test('bad input is a 400 naming the parameter; without a chain a 503', async () => {
  for (const [q, name] of [
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?before=-1', 'before'],
    ['?before=x', 'before'],
    ['?sort=epoch', 'sort'],
    ['?epoch=', 'epoch'],
    ['?epoch=1,2', 'epoch'],
    ['?epoch=-1', 'epoch'],
    ['?epoch=1234567890123456789', 'epoch'],
    ['?epoch=20708&before=20709', 'epoch'],
  ] as const) {
    const r = await get(hex(A), q);
    assert.equal(r.status, 400, q);
    assert.match((r.body as { error: string }).error, new RegExp(name), q);
  }
  const bad = await get('not-an-agent');
  assert.equal(bad.status, 400);
  assert.match((bad.body as { error: string }).error, /"id"/);
  registerServices(undefined);
  registerServices({
    observatory: { store },
    reads: store,
    config: { epochSeconds: Number(EPOCH_S) },
  } as unknown as Services);
  const none = await get(hex(A));
  assert.equal(none.status, 503);
});
