// POST /api/ingest/log handling: bad bodies get 400 naming the problem (413 over the
// cap); a good log goes through the real observatory's upload path (archive validation against
// its signer registry, stored envelopes) and is stored, idempotently; the indexer's check then
// marks the matching batch verified. Real observatory on PGlite.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildEnvelope } from '../protocol/envelope';
import { encodeCanonical } from '../protocol/cbor';
import { publicKeyFromSeed, keccak256 } from '../protocol/crypto';
import { encodeFeedback } from '../protocol/payloads';
import { buildBatchFromLog } from '../protocol/batch-build';
import { batchHash, encodeBatch } from '../protocol/batch';
import { toHex } from '../protocol/hex';
import { MsgType } from '../protocol/types';
import { checkBatch } from '../indexer/verify';
import { startObservatory, type Observatory } from './observatory';
import { ingestEpochLog, parseLogUploadBody } from './log-upload';
import { MAX_UPLOAD_BYTES } from './upload';
import { makeBackend, quietLogger, type TestBackend } from './testing';

const seedA = new Uint8Array(32).fill(21);
const seedB = new Uint8Array(32).fill(22);
const A = publicKeyFromSeed(seedA);
const B = publicKeyFromSeed(seedB);
const C = new Uint8Array(32).fill(0x33);
const conv = new Uint8Array(16).fill(4);
const t0 = 1_700_000_000_000_000n;
let nonce = 1n;
const env = (from: Uint8Array, key: Uint8Array, to: Uint8Array, msgType: number = MsgType.DELIVER, payload: Uint8Array = Uint8Array.of(1)) =>
  buildEnvelope({ msgType, sender: from, recipient: to, timestamp: t0 + nonce * 1000n, nonce: nonce++, conversationId: conv, payload }, key);
const body = (agent: Uint8Array, epoch: bigint, envs: Uint8Array[]) => encodeCanonical([agent, epoch, envs]);

describe('epoch log upload', () => {
  let backend: TestBackend;
  let obs: Observatory;
  const upload = (b: Uint8Array) => ingestEpochLog(b, { ingest: (x) => obs.ingestUpload(x), store: obs.store });
  const log = [
    env(A, seedA, B),
    env(B, seedB, A),
    env(B, seedB, new Uint8Array(32), MsgType.FEEDBACK, encodeFeedback({ conversationId: conv, targetAgent: A, score: 50, outcome: 2, isDispute: false, role: 0 })),
  ];

  before(async () => {
    backend = await makeBackend('pglite');
    obs = await startObservatory({ config: backend.config, logger: quietLogger });
    await obs.registry.register(A, A);
    await obs.registry.register(B, B);
  });
  after(async () => {
    await obs?.stop();
    await backend?.cleanup();
  });

  test('bad bodies: 400 naming the problem, 413 over the cap', () => {
    const err = (b: Uint8Array) => {
      const r = parseLogUploadBody(b);
      assert.equal(r.ok, false);
      return r.ok ? '' : `${r.status} ${r.message}`;
    };
    assert.match(err(new Uint8Array(0)), /^400 empty body/);
    assert.match(err(encodeCanonical([A, 1n])), /^400 body is not a CBOR array of 3 items/);
    assert.match(err(encodeCanonical([A.slice(1), 1n, [log[0].bytes]])), /^400 agent_id \(item 0\) must be a 32-byte byte string/);
    assert.match(err(encodeCanonical([A, A, [log[0].bytes]])), /^400 epoch \(item 1\) must be an unsigned integer/);
    assert.match(err(Uint8Array.from([...encodeCanonical([A, 1n, []]).slice(0, 35), 0x18, 0x05, 0x80])), /^400 epoch \(item 1\).*non-canonical/);
    assert.match(err(encodeCanonical([A, 1n, log[0].bytes])), /^400 envelopes \(item 2\): body is not a CBOR array/);
    assert.match(err(encodeCanonical([A, 1n, [1n]])), /^400 envelope 0 is not a byte string/);
    assert.match(err(encodeCanonical([A, 1n, []])), /^400 envelopes \(item 2\) is empty/);
    assert.match(err(Uint8Array.from([...body(A, 1n, [log[0].bytes]), 0x00])), /^400 envelopes \(item 2\): malformed CBOR/);
    assert.match(err(new Uint8Array(MAX_UPLOAD_BYTES + 1)), /^413 /);
    const ok = parseLogUploadBody(body(A, 7n, log.map((x) => x.bytes)));
    assert.ok(ok.ok);
    assert.deepEqual([toHex(ok.value.agent), ok.value.epoch, ok.value.envelopes.length], [toHex(A), 7n, 3]);
  });

  test('envelopes that break the log: 400 naming the envelope', async () => {
    const stranger = env(B, seedB, C);
    const forged = env(A, seedB, B); // signed with B's key
    const cases: [Uint8Array[], RegExp][] = [
      [[log[0].bytes, Uint8Array.of(1, 2, 3)], /^envelope 1 does not decode/],
      [[log[0].bytes, stranger.bytes], /^envelope 1 does not involve the agent/],
      [[log[0].bytes, log[1].bytes, log[0].bytes], /^envelope 2 repeats envelope 0/],
      [[forged.bytes, log[1].bytes], /^envelope 0 failed archive validation: signature/],
    ];
    for (const [envs, re] of cases) {
      const r = await upload(body(A, 1n, envs));
      assert.equal(r.status, 400);
      assert.match((r.body as { error: string }).error, re);
    }
    assert.deepEqual(await obs.store.epochLog(A, 1n), [], 'nothing stored for a rejected log');
  });

  test('a good log is ingested and stored; re-upload is a no-op; the matching batch verifies', async () => {
    const r = await upload(body(A, 2n, log.map((x) => x.bytes)));
    const batch = buildBatchFromLog({ agentId: A, epochNumber: 2n, slotStart: 0n, slotEnd: 0n, envelopes: log.map((x) => x.envelope) });
    assert.deepEqual(r, { status: 200, body: { agent: toHex(A), epoch: '2', entries: 3, logMerkleRoot: toHex(batch.logMerkleRoot), stored: 'saved' } });
    for (const x of log) assert.ok(await obs.store.getEnvelope(x.id), 'the envelopes went through ingest');
    assert.deepEqual((await obs.store.epochLog(A, 2n)).map((e) => toHex(e.id)), log.map((x) => toHex(x.id)));
    assert.equal(((await upload(body(A, 2n, log.map((x) => x.bytes)))).body as { stored?: string }).stored, 'unchanged');

    const row = { agentId: A, epoch: 2n, batchHash: keccak256(encodeBatch(batch)), root: batch.logMerkleRoot, slot: 1n };
    await obs.store.upsertBatch(row);
    assert.equal(await checkBatch(obs.store, row), 'verified');
    const other = await upload(body(A, 2n, log.slice(0, 2).map((x) => x.bytes)));
    assert.equal(other.status, 409);
    assert.match((other.body as { error: string }).error, /already verified/);
  });

  test('the batch as a fourth item: checked against the log, served only when its hash is on chain', async () => {
    const envs = log.map((x) => x.bytes);
    const batch = buildBatchFromLog({ agentId: A, epochNumber: 3n, slotStart: 0n, slotEnd: 0n, envelopes: log.map((x) => x.envelope) });
    const withBatch = (b: Uint8Array) => encodeCanonical([A, 3n, envs, b]);
    const bad = async (b: Uint8Array, re: RegExp) => {
      const r = await upload(b);
      assert.equal(r.status, 400);
      assert.match((r.body as { error: string }).error, re);
    };
    await bad(withBatch(Uint8Array.of(1, 2)), /^batch \(item 3\) does not decode/);
    await bad(withBatch(encodeBatch({ ...batch, epochNumber: 4n })), /^batch \(item 3\) is not of this agent and epoch/);
    await bad(withBatch(encodeBatch({ ...batch, logMerkleRoot: new Uint8Array(32) })), /^batch \(item 3\) does not carry the merkle root of this log/);
    await bad(Uint8Array.from([...withBatch(encodeBatch(batch)), 0]), /trailing bytes after batch/);

    const cheat = { ...batch, messageCount: batch.messageCount + 1n };
    assert.equal((await upload(withBatch(encodeBatch(batch)))).status, 200);
    assert.equal((await upload(withBatch(encodeBatch(cheat)))).status, 200);
    assert.equal(await obs.store.onChainBatchUpload(A, 3n), null, 'no batch on chain yet: nothing served');
    await obs.store.upsertBatch({ agentId: A, epoch: 3n, batchHash: batchHash(cheat), root: cheat.logMerkleRoot, slot: 2n });
    assert.equal(toHex((await obs.store.onChainBatchUpload(A, 3n))!), toHex(encodeBatch(cheat)), 'the upload whose hash the chain recorded');
  });
});
