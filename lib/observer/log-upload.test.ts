// POST /api/ingest/log handling: bad bodies get 400 naming the problem (413 over the
// cap); a log counts only when the agent signed it (a key the signer registry allows for it) or
// its root is the on-chain root, so nobody else can replace an honest agent's log or change its
// batch's verdict; a good log goes through the real observatory's upload path (archive
// validation, the epoch's time window) and is stored; the indexer's check then marks the
// matching batch verified. Real observatory on PGlite.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { checkBatch } from '../indexer/verify';
import { batchHash, encodeBatch } from '../protocol/batch';
import { buildBatchFromLog } from '../protocol/batch-build';
import { encodeCanonical } from '../protocol/cbor';
import { ed25519Sign, keccak256, publicKeyFromSeed } from '../protocol/crypto';
import { buildEnvelope } from '../protocol/envelope';
import { encodeSignedLogUpload, epochLogStatement, logRootOfBytes } from '../protocol/epoch-log';
import { toHex } from '../protocol/hex';
import { encodeFeedback } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import { epochLogWindowUs, ingestEpochLog, logUploadDeps, parseLogUploadBody } from './log-upload';
import { type Observatory, startObservatory } from './observatory';
import { makeBackend, quietLogger, type TestBackend } from './testing';
import { MAX_UPLOAD_BYTES } from './upload';

const seedA = new Uint8Array(32).fill(21);
const seedB = new Uint8Array(32).fill(22);
const seedA2 = new Uint8Array(32).fill(23); // a second (delegate) key of agent A
const A = publicKeyFromSeed(seedA);
const B = publicKeyFromSeed(seedB);
const A2 = publicKeyFromSeed(seedA2);
const C = new Uint8Array(32).fill(0x33);
const conv = new Uint8Array(16).fill(4);
const DAY_US = 86_400_000_000n;
/** Epochs of the tests (default 86,400 s): the observatory's clock stands a few days after E0. */
const E0 = 19_675n;
const startOf = (e: bigint) => e * DAY_US;
const NOW_MS = Number(startOf(E0 + 10n) / 1000n);
let nonce = 1n;
const env = (
  epoch: bigint,
  from: Uint8Array,
  key: Uint8Array,
  to: Uint8Array,
  msgType: number = MsgType.DELIVER,
  payload: Uint8Array = Uint8Array.of(1),
  timestamp?: bigint,
) =>
  buildEnvelope(
    {
      msgType,
      sender: from,
      recipient: to,
      timestamp: timestamp ?? startOf(epoch) + 3_600_000_000n + nonce * 1000n,
      nonce: nonce++,
      conversationId: conv,
      payload,
    },
    key,
  );
const unsigned = (agent: Uint8Array, epoch: bigint, envs: Uint8Array[]) => encodeCanonical([agent, epoch, envs]);
const signed = (agent: Uint8Array, epoch: bigint, envs: Uint8Array[], key = seedA, batch?: Uint8Array) =>
  encodeSignedLogUpload({ agent, epoch, envelopes: envs, batch, signer: publicKeyFromSeed(key), seed: key });
/** Three envelopes of agent A in `epoch`: sent, received, FEEDBACK about it. */
const logOf = (epoch: bigint) => [
  env(epoch, A, seedA, B),
  env(epoch, B, seedB, A),
  env(
    epoch,
    B,
    seedB,
    new Uint8Array(32),
    MsgType.FEEDBACK,
    encodeFeedback({ conversationId: conv, targetAgent: A, score: 50, outcome: 2, isDispute: false, role: 0 }),
  ),
];
const batchOf = (epoch: bigint, log: ReturnType<typeof logOf>) =>
  buildBatchFromLog({
    agentId: A,
    epochNumber: epoch,
    slotStart: 0n,
    slotEnd: 0n,
    envelopes: log.map((x) => x.envelope),
  });
const errorOf = (r: { body: unknown }) => (r.body as { error: string }).error;

describe('epoch log upload', () => {
  let backend: TestBackend;
  let obs: Observatory;
  const upload = (b: Uint8Array) => ingestEpochLog(b, logUploadDeps(obs));
  const storedIds = async (epoch: bigint) => (await obs.store.epochLog(A, epoch)).map((e) => toHex(e.id));
  const statusOf = async (epoch: bigint) => (await obs.store.listBatches({ agent: A, epoch }))[0]?.status;

  before(async () => {
    backend = await makeBackend('pglite');
    obs = await startObservatory({ config: backend.config, logger: quietLogger, clock: () => NOW_MS });
    await obs.registry.register(A, A);
    await obs.registry.register(A, A2, 'delegate');
    await obs.registry.register(B, B);
  });
  after(async () => {
    await obs?.stop();
    await backend?.cleanup();
  });

  test('the signed statement: keccak256 of the domain, agent, epoch (u64 big-endian) and root', () => {
    const root = new Uint8Array(32).fill(7);
    const pre = Buffer.concat([
      Buffer.from('zerox1/epoch-log/v1', 'ascii'),
      A,
      Buffer.from('0000000000000102', 'hex'),
      root,
    ]);
    assert.equal(pre.length, 19 + 32 + 8 + 32);
    assert.equal(toHex(epochLogStatement(A, 0x102n, root)), toHex(keccak256(pre)));
    assert.notEqual(toHex(epochLogStatement(A, 0x103n, root)), toHex(epochLogStatement(A, 0x102n, root)));
  });

  test('bad bodies: 400 naming the problem, 413 over the cap', () => {
    const log = logOf(E0);
    const err = (b: Uint8Array) => {
      const r = parseLogUploadBody(b);
      assert.equal(r.ok, false);
      return r.ok ? '' : `${r.status} ${r.message}`;
    };
    assert.match(err(new Uint8Array(0)), /^400 empty body/);
    assert.match(err(encodeCanonical([A, 1n])), /^400 body is not a CBOR array of 3 items/);
    assert.match(err(encodeCanonical([A, 1n, [], A, A, A, A])), /^400 body is not a CBOR array of 3 items/);
    assert.match(
      err(encodeCanonical([A.slice(1), 1n, [log[0].bytes]])),
      /^400 agent_id \(item 0\) must be a 32-byte byte string/,
    );
    assert.match(err(encodeCanonical([A, A, [log[0].bytes]])), /^400 epoch \(item 1\) must be an unsigned integer/);
    assert.match(
      err(Uint8Array.from([...encodeCanonical([A, 1n, []]).slice(0, 35), 0x18, 0x05, 0x80])),
      /^400 epoch \(item 1\).*non-canonical/,
    );
    assert.match(err(encodeCanonical([A, 1n, log[0].bytes])), /^400 envelopes \(item 2\): body is not a CBOR array/);
    assert.match(err(encodeCanonical([A, 1n, [1n]])), /^400 envelope 0 is not a byte string/);
    assert.match(err(encodeCanonical([A, 1n, []])), /^400 envelopes \(item 2\) is empty/);
    assert.match(
      err(Uint8Array.from([...unsigned(A, 1n, [log[0].bytes]), 0x00])),
      /^400 envelopes \(item 2\): malformed CBOR/,
    );
    assert.match(
      err(encodeCanonical([A, 1n, [log[0].bytes], A.slice(1), new Uint8Array(64)])),
      /^400 signer \(item 3\) must be a 32-byte Ed25519 public key/,
    );
    assert.match(
      err(encodeCanonical([A, 1n, [log[0].bytes], A, new Uint8Array(63)])),
      /^400 signature \(item 4\) must be a 64-byte Ed25519 signature/,
    );
    assert.match(
      err(encodeCanonical([A, 1n, [log[0].bytes], A, 5n])),
      /^400 signature \(item 4\) must be a byte string/,
    );
    assert.match(
      err(Uint8Array.from([...signed(A, 1n, [log[0].bytes]), 0])),
      /^400 trailing bytes after signature \(item 4\)/,
    );
    assert.match(err(new Uint8Array(MAX_UPLOAD_BYTES + 1)), /^413 /);
    const ok = parseLogUploadBody(
      unsigned(
        A,
        7n,
        log.map((x) => x.bytes),
      ),
    );
    assert.ok(ok.ok);
    assert.deepEqual(
      [toHex(ok.value.agent), ok.value.epoch, ok.value.envelopes.length, ok.value.signer],
      [toHex(A), 7n, 3, undefined],
    );
    const s = parseLogUploadBody(
      signed(
        A,
        7n,
        log.map((x) => x.bytes),
        seedA,
        Uint8Array.of(0x80),
      ),
    );
    assert.ok(s.ok);
    assert.deepEqual(
      [s.value.envelopes.length, toHex(s.value.batch!), toHex(s.value.signer!), s.value.signature!.length],
      [3, '80', toHex(A), 64],
    );
  });

  test('envelopes that break the log: 400 naming the envelope', async () => {
    const log = logOf(E0 + 1n);
    const stranger = env(E0 + 1n, B, seedB, C);
    const forged = env(E0 + 1n, A, seedB, B); // signed with B's key
    const cases: [Uint8Array[], RegExp][] = [
      [[log[0].bytes, Uint8Array.of(1, 2, 3)], /^envelope 1 does not decode/],
      [[log[0].bytes, stranger.bytes], /^envelope 1 does not involve the agent/],
      [[log[0].bytes, log[1].bytes, log[0].bytes], /^envelope 2 repeats envelope 0/],
      [[forged.bytes, log[1].bytes], /^envelope 0 failed archive validation: signature/],
    ];
    for (const [envs, re] of cases) {
      // An envelope that does not decode has no log root to sign: its upload fails before the signature is read.
      const body =
        envs.length === 2 && envs[1].length === 3
          ? encodeCanonical([A, E0 + 1n, envs, A, new Uint8Array(64)])
          : signed(A, E0 + 1n, envs);
      const r = await upload(body);
      assert.equal(r.status, 400);
      assert.match(errorOf(r), re);
    }
    assert.deepEqual(await obs.store.epochLog(A, E0 + 1n), [], 'nothing stored for a rejected log');
  });

  test('a good signed log is ingested and stored; re-upload is a no-op; the matching batch verifies', async () => {
    const e = E0 + 2n;
    const log = logOf(e);
    const r = await upload(
      signed(
        A,
        e,
        log.map((x) => x.bytes),
      ),
    );
    const batch = batchOf(e, log);
    assert.deepEqual(r, {
      status: 200,
      body: {
        agent: toHex(A),
        epoch: e.toString(),
        entries: 3,
        logMerkleRoot: toHex(batch.logMerkleRoot),
        stored: 'saved',
      },
    });
    for (const x of log) assert.ok(await obs.store.getEnvelope(x.id), 'the envelopes went through ingest');
    assert.deepEqual(
      await storedIds(e),
      log.map((x) => toHex(x.id)),
    );
    assert.equal(
      (
        (
          await upload(
            signed(
              A,
              e,
              log.map((x) => x.bytes),
            ),
          )
        ).body as { stored?: string }
      ).stored,
      'unchanged',
    );
    assert.equal(
      (
        (
          await upload(
            signed(
              A,
              e,
              log.map((x) => x.bytes),
              seedA2,
            ),
          )
        ).body as { stored?: string }
      ).stored,
      'unchanged',
      'a delegate key signs for the agent too',
    );

    const row = { agentId: A, epoch: e, batchHash: keccak256(encodeBatch(batch)), root: batch.logMerkleRoot, slot: 1n };
    await obs.store.upsertBatch(row);
    assert.equal(await checkBatch(obs.store, row), 'verified');
    const other = await upload(
      signed(
        A,
        e,
        log.slice(0, 2).map((x) => x.bytes),
      ),
    );
    assert.equal(other.status, 409);
    assert.match(errorOf(other), /already verified/);
  });

  test(
    'nobody but the agent can replace its log: a forged replacement ' +
      "changes neither the stored log nor the batch's status",
    async () => {
      const e = E0 + 3n;
      const log = logOf(e);
      const batch = batchOf(e, log);
      assert.equal(
        (
          await upload(
            signed(
              A,
              e,
              log.map((x) => x.bytes),
            ),
          )
        ).status,
        200,
      );
      // The batch is on chain and not checked yet (the window the attack used: before `verified`).
      const row = { agentId: A, epoch: e, batchHash: batchHash(batch), root: batch.logMerkleRoot, slot: 3n };
      await obs.store.upsertBatch(row);
      const honest = await storedIds(e);
      const one = [log[1].bytes]; // a one-envelope log of A, bytes anyone can read back
      const wrongSig = encodeCanonical([
        A,
        e,
        one,
        A,
        ed25519Sign(epochLogStatement(A, e, logRootOfBytes(one)), seedB),
      ]);
      const forgeries: [string, Uint8Array, RegExp][] = [
        [
          'unsigned',
          unsigned(A, e, one),
          new RegExp(
            '^missing signature: an unsigned log counts only when its root is the ' +
              'on-chain batch root, and its root [0-9a-f]{64} is not the on-chain ' +
              'batch root',
          ),
        ],
        [
          'unsigned with a batch',
          encodeCanonical([
            A,
            e,
            one,
            encodeBatch(
              buildBatchFromLog({
                agentId: A,
                epochNumber: e,
                slotStart: 0n,
                slotEnd: 0n,
                envelopes: [log[1].envelope],
              }),
            ),
          ]),
          /^missing signature/,
        ],
        [
          "signed by another agent's registered key",
          signed(A, e, one, seedB),
          new RegExp(`^signer ${toHex(B)} is not a key registered for agent ${toHex(A)}`),
        ],
        ["A's key named, signed by another key", wrongSig, /^signature \(item 4\) does not verify/],
        [
          'signed over a different epoch',
          encodeCanonical([A, e, one, A, ed25519Sign(epochLogStatement(A, e + 1n, logRootOfBytes(one)), seedA)]),
          /^signature \(item 4\) does not verify/,
        ],
      ];
      for (const [what, body, re] of forgeries) {
        const r = await upload(body);
        assert.equal(r.status, 403, what);
        assert.match(errorOf(r), re, what);
        assert.deepEqual(await storedIds(e), honest, `${what}: the stored log is unchanged`);
        assert.equal(await statusOf(e), 'unverified', `${what}: the status is unchanged`);
      }
      assert.equal(await checkBatch(obs.store, row), 'verified', 'the honest batch verifies after every forgery');
    },
  );

  test(
    "the agent's own signed log replaces its unverified " + 'one; mismatch is its own log against its own root',
    async () => {
      const e = E0 + 4n;
      const log = logOf(e);
      const batch = batchOf(e, log);
      assert.equal(
        (
          await upload(
            signed(
              A,
              e,
              log.map((x) => x.bytes),
            ),
          )
        ).status,
        200,
      );
      const row = { agentId: A, epoch: e, batchHash: batchHash(batch), root: batch.logMerkleRoot, slot: 4n };
      await obs.store.upsertBatch(row);
      const own = await upload(
        signed(
          A,
          e,
          log.slice(0, 2).map((x) => x.bytes),
          seedA2,
        ),
      );
      assert.equal(own.status, 200);
      assert.equal((own.body as { stored: string }).stored, 'replaced');
      assert.deepEqual(
        await storedIds(e),
        log.slice(0, 2).map((x) => toHex(x.id)),
      );
      assert.equal(
        await checkBatch(obs.store, row),
        'mismatch',
        "the agent's signed log contradicts its on-chain root",
      );
      // An unsigned log with the on-chain root cannot overrule what the agent signed.
      const byChain = await upload(
        unsigned(
          A,
          e,
          log.map((x) => x.bytes),
        ),
      );
      assert.equal(byChain.status, 409);
      assert.match(errorOf(byChain), /an unsigned upload never replaces it/);
      assert.deepEqual(
        await storedIds(e),
        log.slice(0, 2).map((x) => toHex(x.id)),
      );
    },
  );

  test('an unsigned log counts when its root is the on-chain root (it cannot contradict the chain)', async () => {
    const e = E0 + 5n;
    const log = logOf(e);
    const batch = batchOf(e, log);
    const none = await upload(
      unsigned(
        A,
        e,
        log.map((x) => x.bytes),
      ),
    );
    assert.equal(none.status, 403);
    assert.match(errorOf(none), /^missing signature: .*no batch of this agent and epoch is on chain/);
    assert.deepEqual(await storedIds(e), []);
    const row = { agentId: A, epoch: e, batchHash: batchHash(batch), root: batch.logMerkleRoot, slot: 5n };
    await obs.store.upsertBatch(row);
    const junk = encodeBatch({ ...batch, slotEnd: 99n }); // of this log, but not the batch on chain
    const withJunk = await upload(encodeCanonical([A, e, log.map((x) => x.bytes), junk]));
    assert.equal(withJunk.status, 403);
    assert.match(errorOf(withJunk), /batch \(item 3\) of an unsigned upload must be the on-chain batch/);
    const r = await upload(encodeCanonical([A, e, log.map((x) => x.bytes), encodeBatch(batch)]));
    assert.equal(r.status, 200);
    assert.equal((r.body as { stored: string }).stored, 'saved');
    assert.equal(await checkBatch(obs.store, row), 'verified');
    assert.equal(toHex((await obs.store.onChainBatchUpload(A, e))!), toHex(encodeBatch(batch)));
  });

  test('the batch item: checked against the log, served only when its hash is on chain', async () => {
    const e = E0 + 6n;
    const log = logOf(e);
    const envs = log.map((x) => x.bytes);
    const batch = batchOf(e, log);
    const withBatch = (b: Uint8Array) => signed(A, e, envs, seedA, b);
    const bad = async (b: Uint8Array, re: RegExp) => {
      const r = await upload(b);
      assert.equal(r.status, 400);
      assert.match(errorOf(r), re);
    };
    await bad(withBatch(Uint8Array.of(1, 2)), /^batch \(item 3\) does not decode/);
    await bad(
      withBatch(encodeBatch({ ...batch, epochNumber: e + 1n })),
      /^batch \(item 3\) is not of this agent and epoch/,
    );
    await bad(
      withBatch(encodeBatch({ ...batch, logMerkleRoot: new Uint8Array(32) })),
      /^batch \(item 3\) does not carry the merkle root of this log/,
    );
    await bad(Uint8Array.from([...withBatch(encodeBatch(batch)), 0]), /trailing bytes after signature/);

    const cheat = { ...batch, messageCount: batch.messageCount + 1n };
    assert.equal((await upload(withBatch(encodeBatch(batch)))).status, 200);
    assert.equal((await upload(withBatch(encodeBatch(cheat)))).status, 200);
    assert.equal(await obs.store.onChainBatchUpload(A, e), null, 'no batch on chain yet: nothing served');
    await obs.store.upsertBatch({
      agentId: A,
      epoch: e,
      batchHash: batchHash(cheat),
      root: cheat.logMerkleRoot,
      slot: 2n,
    });
    assert.equal(
      toHex((await obs.store.onChainBatchUpload(A, e))!),
      toHex(encodeBatch(cheat)),
      'the upload whose hash the chain recorded',
    );
  });

  test(
    "a log's envelopes must be dated in its epoch (± the " + '30 s tolerance): timestamp_out_of_window, counted',
    async () => {
      const e = E0 + 7n;
      const w = epochLogWindowUs(e, 86_400);
      assert.deepEqual([w.fromUs, w.toUs], [startOf(e) - 30_000_000n, startOf(e + 1n) - 1n + 30_000_000n]);
      const edge = [
        env(e, A, seedA, B, MsgType.DELIVER, Uint8Array.of(1), w.fromUs),
        env(e, A, seedA, B, MsgType.DELIVER, Uint8Array.of(1), w.toUs),
      ];
      assert.equal(
        (
          await upload(
            signed(
              A,
              e,
              edge.map((x) => x.bytes),
            ),
          )
        ).status,
        200,
        'both ends of the window are inside',
      );
      const before = obs.dropCounts().timestamp_out_of_window ?? 0;
      for (const ts of [w.fromUs - 1n, w.toUs + 1n, startOf(e - 1n)]) {
        const x = env(e, A, seedA, B, MsgType.DELIVER, Uint8Array.of(2), ts);
        const r = await upload(signed(A, e, [x.bytes]));
        assert.equal(r.status, 400);
        assert.match(
          errorOf(r),
          new RegExp(
            '^envelope 0 failed archive validation: timestamp_out_of_window ' +
              String.raw`\(timestamp \d+ µs is (before|after) the log's epoch window`,
          ),
        );
        assert.equal(await obs.store.getEnvelope(x.id), null);
      }
      assert.equal((obs.dropCounts().timestamp_out_of_window ?? 0) - before, 3);
    },
  );
});
