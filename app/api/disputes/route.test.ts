// The dispute desk's routes over a real store (PGlite in memory): the list and one dispute with its
// evidence in the documented shapes; an opinion signed with a real Ed25519 key is stored, and a
// tampered, stale, future, misdirected, malformed or unsigned one is a 4xx with a sentence, never
// a 500. The browser's check (lib/verify/dispute-opinion.ts) agrees with the server on each. A
// signed review counts once in any spelling; only reviewers the deployment names move a dispute.

import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ed25519 } from '@noble/curves/ed25519.js';
import bs58 from 'bs58';
import { API_ROUTES } from '../../../lib/api/routes';
import { encodeCanonical } from '../../../lib/protocol/cbor';
import { buildEnvelope } from '../../../lib/protocol/envelope';
import { toHex } from '../../../lib/protocol/hex';
import { MsgType } from '../../../lib/protocol/types';
import { openStore, type Store } from '../../../lib/store';
import { checkDisputeOpinion } from '../../../lib/verify/dispute-opinion';
import {
  type DisputeDetailView,
  type DisputeListView,
  type DisputeOpinionResult,
  disputeReviewMessage,
} from '../../../lib/wire/disputes';
import { registerServices, type Services } from '../../_lib/services';
import { POST as postOpinion } from './[id]/opinions/route';
import { GET as detail } from './[id]/route';
import { GET as list } from './route';

const T = BigInt(Date.now()) * 1000n - 60_000_000n;
const id = (b: number) => new Uint8Array(32).fill(b);
const [BUYER, SELLER, NOTARY] = [id(0x0b), id(0x05), id(0x0e)];
const CONV = new Uint8Array(16).fill(9);
let nonce = 0n;
let store: Store;

function env(from: Uint8Array, to: Uint8Array, msgType: number, payload: Uint8Array = new Uint8Array([1])) {
  nonce++;
  const b = buildEnvelope(
    { msgType, sender: from, recipient: to, timestamp: T + nonce * 1000n, nonce, conversationId: CONV, payload },
    new Uint8Array(32).fill(from[0]),
  );
  return { id: b.id, envelope: b.envelope, raw: b.bytes, source: 'stream' as const, receivedAt: new Date() };
}
const evidence = [
  env(BUYER, SELLER, MsgType.PROPOSE),
  env(SELLER, BUYER, MsgType.ACCEPT),
  env(SELLER, BUYER, MsgType.DELIVER),
  env(BUYER, NOTARY, MsgType.NOTARIZE_ASSIGN, encodeCanonical([BUYER, SELLER, 5n])),
  env(NOTARY, SELLER, MsgType.VERDICT, encodeCanonical([0, -20])),
];
const dispute = env(SELLER, NOTARY, MsgType.DISPUTE, encodeCanonical([CONV, 1]));
const D = toHex(dispute.id);

const secret = ed25519.utils.randomSecretKey();
const reviewer = bs58.encode(ed25519.getPublicKey(secret));
const sign = (message: string, key = secret) => toHex(ed25519.sign(new TextEncoder().encode(message), key));
const review = (opinion: 'upheld' | 'rejected' | 'unclear', note: string, at = new Date(), dispute = D) =>
  disputeReviewMessage({ dispute, opinion, note, at: at.toISOString() });

before(async () => {
  store = await openStore({ dataDir: ':memory:' });
  await store.ingestEnvelopes([...evidence, dispute]);
  registerServices({
    observatory: { store },
    reads: store,
    config: {},
    disputeReviewers: [reviewer],
  } as unknown as Services);
});
after(async () => {
  registerServices(undefined);
  await store.close();
});

const schemaOf = (path: string, method = 'get') => API_ROUTES.find((r) => r.path === path && r.method === method)!.ok;
const getJson = async (res: Response) => ({ status: res.status, body: (await res.json()) as unknown });
const post = async (body: unknown, disputeId = D) =>
  getJson(
    await postOpinion(
      new Request(`http://localhost/api/disputes/${disputeId}/opinions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
      { params: Promise.resolve({ id: disputeId }) },
    ),
  );
const errorOf = (r: { body: unknown }) => (r.body as { error: string }).error;

test('every route file here has a documented row', () => {
  const dir = fileURLToPath(new URL('.', import.meta.url));
  const files = (function walk(d: string): string[] {
    return readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(d, e.name)) : e.name === 'route.ts' ? [join(d, e.name)] : [],
    );
  })(dir);
  const paths = files
    .map(
      (f) =>
        `/api/disputes${relative(dir, f)
          .replace(/\/?route\.ts$/, '')
          .replace(/\[(\w+)\]/g, '{$1}')
          .replace(/^(.)/, '/$1')}`,
    )
    .sort();
  assert.deepEqual(paths, ['/api/disputes', '/api/disputes/{id}', '/api/disputes/{id}/opinions']);
});

test('list and detail: the dispute, its evidence in order, notary and verdict', async () => {
  const l = await getJson(await list(new Request('http://localhost/api/disputes')));
  assert.equal(l.status, 200, JSON.stringify(l.body));
  const v = schemaOf('/api/disputes').parse(l.body) as DisputeListView;
  assert.deepEqual(v.counts, { total: 1, open: 1, reviewed: 0 });
  assert.equal(v.reviewersNamed, 1);
  assert.deepEqual(
    v.disputes.map((d) => [d.id, d.disputer, d.recipient, d.status]),
    [[D, toHex(SELLER), toHex(NOTARY), 'open']],
  );
  const d = await getJson(
    await detail(new Request(`http://localhost/api/disputes/${D}`), { params: Promise.resolve({ id: D }) }),
  );
  assert.equal(d.status, 200, JSON.stringify(d.body));
  const dv = schemaOf('/api/disputes/{id}').parse(d.body) as DisputeDetailView;
  assert.deepEqual(
    dv.conversation?.envelopes.map((e) => e.id),
    [...evidence, dispute].map((e) => toHex(e.id)),
  );
  assert.equal(dv.notary, toHex(NOTARY));
  assert.deepEqual(dv.verdict, { envelopeId: toHex(evidence[4].id), passed: false, score: -20 });
  assert.equal(dv.receipt.url, `/api/conversations/${toHex(CONV)}/receipt`);
  const missing = await getJson(
    await detail(new Request(`http://localhost/api/disputes/${toHex(evidence[0].id)}`), {
      params: Promise.resolve({ id: toHex(evidence[0].id) }),
    }),
  );
  assert.equal(missing.status, 404);
  const bad = await getJson(
    await detail(new Request('http://localhost/api/disputes/xyz'), { params: Promise.resolve({ id: 'xyz' }) }),
  );
  assert.equal(bad.status, 400);
  assert.match(errorOf(bad), /"id"/);
  for (const [q, name] of [
    ['?limit=0', 'limit'],
    ['?status=closed', 'status'],
    ['?before=abc', 'before'],
    ['?x=1', 'x'],
  ] as const) {
    const r = await getJson(await list(new Request(`http://localhost/api/disputes${q}`)));
    assert.equal(r.status, 400, q);
    assert.match(errorOf(r), new RegExp(`"${name}"`));
  }
});

test(
  'a signed opinion is stored and re-verifies; tampered, stale, ' +
    'future, misdirected and malformed ones are 4xx sentences',
  async () => {
    const message = review('upheld', 'The deliverable matched the spec; the notary misread it.');
    const good = await post({ reviewer, message, signature: sign(message) });
    assert.equal(good.status, 200, JSON.stringify(good.body));
    const res = schemaOf('/api/disputes/{id}/opinions', 'post').parse(good.body) as DisputeOpinionResult;
    assert.equal(res.stored, 'saved');
    assert.deepEqual(checkDisputeOpinion(D, res.opinion).ok, true, 'the browser check agrees');
    assert.equal(res.opinion.counted, true, 'the reviewer is named by the deployment');
    // A signed review counts once: the same signature again, in any spelling, is refused.
    const bytes = Buffer.from(sign(message), 'hex');
    for (const again of [sign(message), bs58.encode(bytes), bytes.toString('base64')]) {
      const r = await post({ reviewer, message, signature: again });
      assert.equal(r.status, 409, again);
      assert.match(errorOf(r), /recorded already/);
    }
    for (const respelt of [sign(message).toUpperCase(), bytes.toString('base64url'), ` ${bs58.encode(bytes)}`])
      assert.equal((await post({ reviewer, message, signature: respelt })).status, 400, respelt);

    // Tampered: the text changed after signing (opinion flipped), or the signature flipped.
    const flipped = message.replace('opinion: upheld', 'opinion: rejected');
    const t1 = await post({ reviewer, message: flipped, signature: sign(message) });
    assert.equal(t1.status, 403, JSON.stringify(t1.body));
    assert.match(errorOf(t1), /signature does not verify/);
    const sig = Buffer.from(sign(message), 'hex');
    sig[5] ^= 1;
    assert.equal((await post({ reviewer, message, signature: sig.toString('hex') })).status, 403);
    assert.equal(
      checkDisputeOpinion(D, {
        reviewer,
        opinion: 'upheld',
        note: res.opinion.note,
        message,
        signature: sig.toString('hex'),
      }).ok,
      false,
      'the browser says ✗ too',
    );
    const other = ed25519.utils.randomSecretKey();
    assert.equal(
      (await post({ reviewer, message, signature: sign(message, other) })).status,
      403,
      'signed by another key',
    );

    const stale = review('rejected', 'old', new Date(Date.now() - 11 * 60_000));
    const s = await post({ reviewer, message: stale, signature: sign(stale) });
    assert.equal(s.status, 400);
    assert.match(errorOf(s), /more than 10 minutes ago/);
    const future = review('rejected', 'later', new Date(Date.now() + 5 * 60_000));
    assert.match(
      errorOf(await post({ reviewer, message: future, signature: sign(future) })),
      /ahead of this server's clock/,
    );
    const elsewhere = review('rejected', 'x', new Date(), toHex(evidence[0].id));
    const e = await post({ reviewer, message: elsewhere, signature: sign(elsewhere) });
    assert.equal(e.status, 400);
    assert.match(errorOf(e), /not [0-9a-f]{64} \(the dispute in the URL\)/);
    const notDispute = await post({ reviewer, message: elsewhere, signature: sign(elsewhere) }, toHex(evidence[0].id));
    assert.equal(notDispute.status, 404);
    const twoLines = `${review('unclear', 'a')}\nnote: b`;
    assert.match(errorOf(await post({ reviewer, message: twoLines, signature: sign(twoLines) })), /5 lines/);
    const longNote = review('unclear', 'x'.repeat(501));
    assert.match(errorOf(await post({ reviewer, message: longNote, signature: sign(longNote) })), /at most 500/);
    for (const [body, what] of [
      ['not json', /body must be JSON/],
      [{ reviewer, message }, /"signature"/],
      [{ reviewer: 'nope', message, signature: sign(message) }, /"reviewer"/],
      [{ reviewer, message, signature: 'abc' }, /"signature"/],
      [{ reviewer, message, signature: sign(message), extra: 1 }, /"extra"/],
    ] as const) {
      const r = await post(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(errorOf(r), what);
    }

    // A newer opinion replaces the reviewer's; an older message replayed later is refused.
    const newer = review('rejected', 'On a second reading the delivery missed two tests.', new Date(Date.now() + 1000));
    const r2 = await post({ reviewer, message: newer, signature: sign(newer) });
    assert.equal((r2.body as DisputeOpinionResult).stored, 'replaced');
    const replay = await post({ reviewer, message, signature: sign(message) });
    assert.equal(replay.status, 409);
    const d = schemaOf('/api/disputes/{id}').parse(
      (
        await getJson(
          await detail(new Request(`http://localhost/api/disputes/${D}`), { params: Promise.resolve({ id: D }) }),
        )
      ).body,
    ) as DisputeDetailView;
    assert.deepEqual(
      d.opinions.map((o) => [o.reviewer, o.opinion]),
      [[reviewer, 'rejected']],
    );
    assert.deepEqual(d.dispute.opinions, { total: 1, upheld: 0, rejected: 1, unclear: 0, uncounted: 0 });
    assert.equal(d.dispute.status, 'reviewed');
  },
);

test(
  'opinions from reviewers the deployment does not name ' + 'are kept and shown, but move no status and no count',
  async () => {
    const open = env(BUYER, NOTARY, MsgType.DISPUTE, encodeCanonical([CONV, 1]));
    await store.ingestEnvelopes([open]);
    const O = toHex(open.id);
    const listed = async () =>
      schemaOf('/api/disputes').parse(
        (await getJson(await list(new Request('http://localhost/api/disputes?status=open')))).body,
      ) as DisputeListView;
    const before = await listed();
    assert.ok(before.disputes.some((x) => x.id === O));
    // Twenty fresh keys, each with a valid signed opinion.
    for (let i = 0; i < 20; i++) {
      const key = ed25519.utils.randomSecretKey();
      const message = review('upheld', `stranger ${i}`, new Date(), O);
      const r = await post(
        { reviewer: bs58.encode(ed25519.getPublicKey(key)), message, signature: sign(message, key) },
        O,
      );
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const res = schemaOf('/api/disputes/{id}/opinions', 'post').parse(r.body) as DisputeOpinionResult;
      assert.equal(res.opinion.counted, false);
      assert.equal(res.opinion.notCounted, 'not counted: reviewer not named by this deployment');
    }
    const after = await listed();
    assert.deepEqual(after.counts, before.counts, 'the open/reviewed totals did not move');
    const row = after.disputes.find((x) => x.id === O);
    assert.ok(row, 'still in the open queue');
    assert.deepEqual(
      [row.status, row.opinions],
      ['open', { total: 0, upheld: 0, rejected: 0, unclear: 0, uncounted: 20 }],
    );
    const d = schemaOf('/api/disputes/{id}').parse(
      (
        await getJson(
          await detail(new Request(`http://localhost/api/disputes/${O}`), { params: Promise.resolve({ id: O }) }),
        )
      ).body,
    ) as DisputeDetailView;
    assert.equal(d.opinions.length, 20, 'every opinion is kept and shown');
    assert.ok(d.opinions.every((o) => !o.counted));
    // The named reviewer's opinion does count.
    const message = review('rejected', 'named', new Date(), O);
    assert.equal((await post({ reviewer, message, signature: sign(message) }, O)).status, 200);
    const counted = await listed();
    assert.ok(!counted.disputes.some((x) => x.id === O), 'left the open queue');
    assert.equal(counted.counts.reviewed, before.counts.reviewed + 1);
  },
);
