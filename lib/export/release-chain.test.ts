// Releases held against a real embedded chain (litesvm over JSON-RPC): SATI agents, a DelegateV1
// delegate whose delegation expires inside the epoch, batches submitted on chain and indexed into
// a real store, one agent that never uploads its log and one whose batch the observer never
// indexed. The honest release verifies with the chain (0 failed, the two gaps counted as not
// checkable); a release that drops a conversation with the batches that logged it, and one that
// adds a signer key the chain never allowed, verify offline and fail against the chain.

import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Keypair, PublicKey } from '@solana/web3.js';
import { challengeEvidence } from '../chain/evidence';
import { lockStake, payLease, submitBatch, submitChallenge, usdcAccountOf } from '../chain/node/economy';
import { type BuiltEnvelope, type ChainWorld, newChainAgent, startChainWorld } from '../chain/node/testing';
import { behaviorLog, challenge } from '../chain/programs';
import { BATCH_EPOCH_OFFSET, CHALLENGE_EPOCH_OFFSET, releaseChain } from '../chain/release-evidence';
import { delegateAttestationAddress, encodeDelegateAttestation, SATI_MAINNET } from '../chain/sati';
import { startChainIndexer } from '../indexer/index';
import { buildBatchFromLog } from '../protocol/batch-build';
import { buildEnvelope } from '../protocol/envelope';
import { encodeNeg1 } from '../protocol/neg1';
import { encodeFeedback } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import { openStore, type Store } from '../store/index';
import type { ReleaseChain, SignerEvidence } from './chain-evidence';
import { expectedFeedbackRows } from './rederive';
import { createRelease } from './release';
import type { ReleaseManifest } from './release-manifest';
import { envelopeRecord, envelopeRow } from './rows';
import type { ReleaseTableName as TableName } from './schema';
import { TABLES } from './tables';
import { collect } from './testing';
import { type CheckResult, readParquet, verifyRelease } from './verify';
import { writeFormat } from './writers';

const USDC = 1_000_000n;
const E = 10;
const hx = (b: Uint8Array) => Buffer.from(b).toString('hex');
const failures = (r: CheckResult[]) => r.filter((c) => !c.ok);
const notCheckable = (r: CheckResult[]) => r.filter((c) => c.notCheckable);

/** Byte offset of a field in a generated account layout (after the 8-byte discriminator). */
function offsetOf(fields: readonly { name: string; type: string }[], name: string): number {
  const size: Record<string, number> = { pubkey: 32, bytes32: 32, u64: 8, i64: 8, u32: 4, u16: 2, u8: 1 };
  let o = 8;
  for (const f of fields) {
    if (f.name === name) return o;
    o += size[f.type];
  }
  throw new Error(`no field ${name}`);
}

describe('releases against the chain', () => {
  let w: ChainWorld;
  let store: Store;
  let chain: ReleaseChain;
  let dir: string;
  let m: ReleaseManifest;
  let epoch: number;
  let A: Awaited<ReturnType<typeof newChainAgent>>;
  let C: Awaited<ReturnType<typeof newChainAgent>>;
  let D: Awaited<ReturnType<typeof newChainAgent>>;
  let convY: Uint8Array;
  let hot: Keypair;

  before(async () => {
    w = await startChainWorld({ epochSeconds: BigInt(E) });
    store = await openStore({ dataDir: ':memory:', epochSeconds: E });
    chain = releaseChain(w.connection, SATI_MAINNET);
    dir = mkdtempSync(join(tmpdir(), 'zx-release-chain-'));
    const e0 = w.epoch();
    epoch = Number(e0);
    A = await newChainAgent(w);
    const B = await newChainAgent(w);
    C = await newChainAgent(w);
    D = await newChainAgent(w);
    const late = await newChainAgent(w);
    for (const x of [A, B, C, D, late]) {
      await lockStake(w.connection, { owner: x.owner, agent: x.agent, amount: 10n * USDC, config: w.config });
      await payLease(w.connection, { payer: x.owner, agent: x.agent, config: w.config });
    }
    // D signs through a delegate whose DelegateV1 attestation expires 5 s into the epoch.
    hot = Keypair.generate();
    const expiry = e0 * BigInt(E) + 5n;
    w.chain.writeAccount(delegateAttestationAddress(hot.publicKey, D.agent, SATI_MAINNET).toBase58(), {
      lamports: 5_000_000n,
      owner: SATI_MAINNET.sas.toBase58(),
      data: encodeDelegateAttestation({
        agent: D.agent,
        delegate: hot.publicKey,
        delegator: D.owner.publicKey,
        expiry,
        signer: Keypair.generate().publicKey,
        addresses: SATI_MAINNET,
      }),
    });

    const t0 = e0 * BigInt(E) * 1_000_000n;
    let n = 0n;
    const mk = (
      msgType: number,
      from: PublicKey,
      to: PublicKey,
      seed: Uint8Array,
      conv: Uint8Array,
      payload: Uint8Array,
    ): BuiltEnvelope => {
      n++;
      return buildEnvelope(
        {
          msgType,
          sender: from.toBytes(),
          recipient: to.toBytes(),
          conversationId: conv,
          nonce: n,
          timestamp: t0 + n * 100_000n,
          blockRef: 1n,
          payload,
        },
        seed,
      );
    };
    const neg = (price: bigint, round: number) =>
      encodeNeg1({
        bidValue: price,
        tokenMint: new Uint8Array(32),
        serviceHash: new Uint8Array(32).fill(7),
        round,
        deadline: 0n,
        decayBps: 50,
        maxRounds: 6,
        verification: { tier: 0, testSuiteHash: new Uint8Array(0) },
        reason: 0,
        metadata: new Uint8Array(0),
      });
    const convX = Uint8Array.from(randomBytes(16));
    convY = Uint8Array.from(randomBytes(16));
    const x1 = mk(MsgType.PROPOSE, A.agent, B.agent, A.seed, convX, neg(1000n, 0));
    const x2 = mk(MsgType.ACCEPT, B.agent, A.agent, B.seed, convX, neg(1000n, 1));
    const y1 = mk(MsgType.PROPOSE, A.agent, C.agent, A.seed, convY, neg(700n, 0));
    const y2 = mk(MsgType.COUNTER, C.agent, A.agent, C.seed, convY, neg(900n, 1));
    const y3 = mk(MsgType.ACCEPT, A.agent, C.agent, A.seed, convY, neg(900n, 2));
    // Signed by D's delegate inside its window (t0 + 0.6 s < expiry).
    const fb = mk(
      MsgType.FEEDBACK,
      D.agent,
      A.agent,
      hot.secretKey.slice(0, 32),
      convX,
      encodeFeedback({
        conversationId: convX,
        targetAgent: A.agent.toBytes(),
        score: 70,
        outcome: 2,
        isDispute: false,
        role: 0,
      }),
    );
    const all = [x1, x2, y1, y2, y3, fb];
    await store.ingestEnvelopes(
      all.map((b) => ({
        id: b.id,
        envelope: b.envelope,
        raw: b.bytes,
        source: 'stream' as const,
        receivedAt: new Date(),
      })),
    );
    const logs: [typeof A, BuiltEnvelope[], boolean][] = [
      [A, [x1, x2, y1, y2, y3], true],
      [B, [x1, x2], true],
      [C, [y1, y2, y3], true],
      [D, [fb], false],
    ];
    for (const [agent, log, uploaded] of logs) {
      if (uploaded)
        await store.saveEpochLog(
          agent.agent.toBytes(),
          e0,
          log.map((b) => b.id),
        );
      const batch = buildBatchFromLog({
        agentId: agent.agent.toBytes(),
        epochNumber: e0,
        slotStart: 0n,
        slotEnd: 0n,
        envelopes: log.map((b) => b.envelope),
      });
      await submitBatch(w.connection, { owner: agent.owner, agent: agent.agent, batch });
    }
    const indexer = await startChainIndexer({ connection: w.connection, store, pollMs: 60_000 });
    try {
      await indexer.idle();
    } finally {
      await indexer.stop();
    }
    // A batch submitted after the observer's indexer stopped: on chain, not in the store.
    const lateLog = [
      mk(
        MsgType.ADVERTISE,
        late.agent,
        new PublicKey(new Uint8Array(32)),
        late.seed,
        new Uint8Array(16),
        Uint8Array.of(1),
      ),
    ];
    await submitBatch(w.connection, {
      owner: late.owner,
      agent: late.agent,
      batch: buildBatchFromLog({
        agentId: late.agent.toBytes(),
        epochNumber: e0,
        slotStart: 0n,
        slotEnd: 0n,
        envelopes: lateLog.map((b) => b.envelope),
      }),
    });
    // The release is written after the delegation expired.
    await w.setEpoch(e0 + 2n);
    m = await createRelease({ store, epoch, dir, chain, asOfUs: (e0 + 2n) * BigInt(E) * 1_000_000n });
    // A challenge of C's batch opened after the release was written: a later revision's to hold.
    const watcher = await w.wallet(50n * USDC);
    const cLog = [y1, y2, y3].map((b) => b.envelope);
    const ev = challengeEvidence({
      log: cLog,
      index: 0,
      batch: buildBatchFromLog({
        agentId: C.agent.toBytes(),
        epochNumber: e0,
        slotStart: 0n,
        slotEnd: 0n,
        envelopes: cLog,
      }),
    });
    await submitChallenge(w.connection, {
      challenger: watcher,
      challengerUsdc: usdcAccountOf(w.usdcMint, watcher.publicKey),
      agent: C.agent,
      epoch: e0,
      leaf: ev.leaf,
    });
  });
  after(async () => {
    await store?.close();
    await w?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("the epoch filters read the generated layouts' epoch fields", () => {
    assert.equal(BATCH_EPOCH_OFFSET, offsetOf(behaviorLog.BATCH_ACCOUNT_FIELDS, 'epoch'));
    assert.equal(CHALLENGE_EPOCH_OFFSET, offsetOf(challenge.CHALLENGE_FIELDS, 'epoch'));
  });

  test(
    'an honest release verifies with the chain: the expired ' +
      "delegate's envelope, a batch without log and an unindexed batch",
    async () => {
      const d = m.signers[hx(D.agent.toBytes())] as SignerEvidence;
      assert.ok(
        'owner' in d && d.delegations.length === 1 && d.delegations[0].delegate === hx(hot.publicKey.toBytes()),
        JSON.stringify(d),
      );
      assert.equal(m.knownMissing?.length, 1, 'the unindexed batch is named known-missing');
      for (const chainOpt of [undefined, chain]) {
        const checks = await verifyRelease(dir, m, { chain: chainOpt });
        assert.deepEqual(failures(checks), [], chainOpt ? 'with the chain' : 'offline');
        const nc = notCheckable(checks);
        assert.ok(
          nc.some(
            (c) =>
              c.name.includes(`batch root of ${hx(D.agent.toBytes()).slice(0, 16)}`) &&
              c.detail === 'not checkable: no log uploaded',
          ),
          JSON.stringify(nc),
        );
        if (chainOpt) {
          assert.ok(
            nc.some((c) => /^epoch \d+ batch \w+: on chain$/.test(c.name) && /known-missing/.test(c.detail!)),
            JSON.stringify(nc),
          );
          assert.ok(
            nc.some(
              (c) =>
                /^epoch \d+ challenge \w+: on chain$/.test(c.name) &&
                /after the release listed the chain \(slot \d+\); a later revision holds it$/.test(c.detail!),
            ),
            JSON.stringify(nc),
          );
        }
      }
    },
  );

  /** A copy of the release rewritten by `forge` through `put` (table written, manifest and datapackage re-hashed). */
  async function forged(
    forge: (f: {
      rows: (t: TableName) => Promise<Record<string, unknown>[]>;
      put: (t: TableName, rows: Record<string, unknown>[]) => Promise<void>;
      m: ReleaseManifest;
    }) => Promise<void>,
  ) {
    const d = mkdtempSync(join(tmpdir(), 'zx-release-chain-forged-'));
    cpSync(dir, d, { recursive: true });
    const f = structuredClone(m);
    await forge({
      m: f,
      rows: (t) => readParquet(join(d, f.tables[t].file)),
      put: async (t, rows) => {
        const bytes = await collect(
          writeFormat(
            'parquet',
            TABLES[t],
            (async function* () {
              yield rows;
            })(),
          ),
        );
        writeFileSync(join(d, f.tables[t].file), bytes);
        f.tables[t].rows = rows.length;
        f.tables[t].sha256 = createHash('sha256').update(bytes).digest('hex');
        const dpPath = join(d, f.card!.datapackage.file);
        const dp = JSON.parse(readFileSync(dpPath, 'utf8')) as {
          resources: { path: string; hash: string; bytes: number }[];
        };
        for (const r of dp.resources)
          if (r.path === f.tables[t].file) {
            r.hash = `sha256:${f.tables[t].sha256}`;
            r.bytes = bytes.length;
          }
        const text = JSON.stringify(dp, null, 2);
        writeFileSync(dpPath, text);
        f.card!.datapackage.sha256 = createHash('sha256').update(text).digest('hex');
      },
    });
    return { d, f, done: () => rmSync(d, { recursive: true, force: true }) };
  }

  test(
    'a release that drops a conversation and every batch ' + 'that logged it passes offline and fails with the chain',
    async () => {
      const gone = [hx(A.agent.toBytes()), hx(C.agent.toBytes())];
      const y = hx(convY);
      const { d, f, done } = await forged(async ({ rows, put, m: f }) => {
        for (const t of ['envelopes', 'offers', 'negotiations', 'feedback'] as const)
          await put(
            t,
            (await rows(t)).filter((r) => r.conversation_id !== y),
          );
        await put(
          'batches',
          (await rows('batches')).filter((r) => !gone.includes(String(r.agent_id))),
        );
        await put(
          'reconciliation',
          (await rows('reconciliation')).filter((r) => !gone.includes(String(r.agent_id))),
        );
        f.batches = f.batches.filter((b) => !gone.includes(b.agent));
      });
      try {
        assert.deepEqual(failures(await verifyRelease(d, f)), [], 'consistent: nothing in the files betrays it');
        const bad = failures(await verifyRelease(d, f, { chain }));
        const missing = bad.filter((c) => /^epoch \d+ batch \w+: on chain$/.test(c.name));
        assert.equal(missing.length, 2, JSON.stringify(bad));
        assert.match(missing[0].detail!, /on chain for epoch \d+, not in the release and not named known-missing/);
      } finally {
        done();
      }
    },
  );

  const idHex = (v: unknown) => (v instanceof Uint8Array ? hx(v) : String(v));
  test(
    'a FEEDBACK envelope under a key added to a real ' + "agent's signers passes offline and fails with the chain",
    async () => {
      const fake = Keypair.generate();
      const a = hx(A.agent.toBytes());
      const { d, f, done } = await forged(async ({ rows, put, m: f }) => {
        const conv = Uint8Array.from(randomBytes(16));
        const b = buildEnvelope(
          {
            msgType: MsgType.FEEDBACK,
            sender: A.agent.toBytes(),
            recipient: C.agent.toBytes(),
            conversationId: conv,
            nonce: 99n,
            timestamp: BigInt(epoch * E) * 1_000_000n + 3_000_000n,
            blockRef: 1n,
            payload: encodeFeedback({
              conversationId: conv,
              targetAgent: C.agent.toBytes(),
              score: -100,
              outcome: 0,
              isDispute: false,
              role: 0,
            }),
          },
          fake.secretKey.slice(0, 32),
        );
        const stored = {
          id: b.id,
          seq: '999',
          raw: b.bytes,
          epoch,
          source: 'stream',
          topic: null,
          received_us: String(BigInt(epoch * E) * 1_000_000n + 3_100_000n),
        };
        await put('envelopes', [...(await rows('envelopes')), envelopeRow(stored)]);
        // In the table's declared order (envelope_id), wherever the random id falls.
        await put(
          'feedback',
          [...(await rows('feedback')), ...expectedFeedbackRows([envelopeRecord(stored)], E)].sort((x, y) =>
            idHex(x.envelope_id) < idHex(y.envelope_id) ? -1 : 1,
          ),
        );
        const ev = f.signers[a] as SignerEvidence;
        assert.ok('owner' in ev);
        ev.delegations.push({
          address: Keypair.generate().publicKey.toBase58(),
          delegate: hx(fake.publicKey.toBytes()),
          delegator: ev.owner,
          expiry: '0',
          data: '00',
          usable: true,
        });
      });
      try {
        assert.deepEqual(failures(await verifyRelease(d, f)), [], 'consistent: the manifest vouches for the key');
        const bad = failures(await verifyRelease(d, f, { chain }));
        assert.ok(
          bad.some(
            (c) =>
              c.name === `epoch ${epoch} signers of ${a.slice(0, 16)}: against the chain` &&
              /no DelegateV1 attestation at \w+ on chain/.test(c.detail!),
          ),
          JSON.stringify(bad),
        );
        assert.ok(
          bad.some((c) => / envelopes row \d+ \([0-9a-f]+\) column signature$/.test(c.name)),
          JSON.stringify(bad),
        );
      } finally {
        done();
      }
    },
  );
});
