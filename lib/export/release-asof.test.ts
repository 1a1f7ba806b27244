// A release states the chain at its `chainSlot`: on a real embedded chain with a real store and
// indexer (behind the chain when the release is written), a negotiation that settles after the release, and one opened
// on chain after it for a conversation the release holds off chain, leave the release verifying with --rpc (0 failed,
// times exact); the late-data check names both moves; a chainSlot stated later than the state the release holds fails.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { PublicKey } from '@solana/web3.js';
import {
  acceptNegotiation,
  acceptOffer,
  createNegotiation,
  ensureHaggleConfig,
  submitOffer,
} from '../chain/node/haggle';
import { newChainAgent, startChainWorld } from '../chain/node/testing';
import { releaseChain } from '../chain/release-evidence';
import { SATI_MAINNET } from '../chain/sati';
import { haggleHistory } from '../indexer/haggle-history';
import { startChainIndexer } from '../indexer/index';
import { buildEnvelope } from '../protocol/envelope';
import { encodeNeg1 } from '../protocol/neg1';
import { MsgType } from '../protocol/types';
import { openStore } from '../store/index';
import type { ReleaseChain } from './chain-evidence';
import { createRelease } from './release';
import { lateChanges } from './release-late';
import { readParquet, verifyRelease } from './verify';

const E = 10;

test(
  'a release verifies as of its chainSlot: later settlement ' +
    "and a later negotiation are a revision's, not failures",
  async () => {
    const w = await startChainWorld({ epochSeconds: BigInt(E) });
    const store = await openStore({ dataDir: ':memory:', epochSeconds: E });
    const chain: ReleaseChain = {
      ...releaseChain(w.connection, SATI_MAINNET),
      haggleEvents: (a) => haggleHistory(w.connection, a),
    };
    const dir = mkdtempSync(join(tmpdir(), 'zx-asof-'));
    let indexer = await startChainIndexer({ connection: w.connection, store, pollMs: 60_000 });
    try {
      const e0 = w.epoch();
      const A = await newChainAgent(w);
      const B = await newChainAgent(w);
      const t0 = e0 * BigInt(E) * 1_000_000n;
      let n = 0n;
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
      const mk = (t: number, from: typeof A, to: PublicKey, conv: Uint8Array, payload: Uint8Array) => {
        n++;
        return buildEnvelope(
          {
            msgType: t,
            sender: from.agent.toBytes(),
            recipient: to.toBytes(),
            conversationId: conv,
            nonce: n,
            timestamp: t0 + n * 100_000n,
            blockRef: 1n,
            payload,
          },
          from.seed,
        );
      };
      const convX = Uint8Array.from(randomBytes(16));
      const convY = Uint8Array.from(randomBytes(16));
      const envs = [
        mk(MsgType.PROPOSE, A, B.agent, convX, neg(400n, 0)),
        mk(MsgType.COUNTER, B, A.agent, convX, neg(900n, 1)),
        mk(MsgType.PROPOSE, A, B.agent, convY, neg(500n, 0)),
      ];
      await store.ingestEnvelopes(
        envs.map((b) => ({
          id: b.id,
          envelope: b.envelope,
          raw: b.bytes,
          source: 'stream' as const,
          receivedAt: new Date(),
        })),
      );
      // X opened on chain in the epoch, still open when the release is written.
      const config = await ensureHaggleConfig(w.connection, {
        admin: w.admin,
        usdcMint: w.usdcMint,
        treasury: w.treasury,
      });
      const refX = { buyer: A.owner.publicKey, seller: B.owner.publicKey, conversationId: convX };
      const deadline = w.epoch() * BigInt(E) + 3600n;
      await createNegotiation(w.connection, {
        ...refX,
        buyer: A.owner,
        config,
        deposit: 2000n,
        deadline,
        responseWindow: 600,
        decayBps: 50,
        maxRounds: 6,
        protocolFeeBps: 200,
        zopaDetection: false,
      });
      await acceptNegotiation(w.connection, { ...refX, seller: B.owner });
      await submitOffer(w.connection, { ...refX, config, party: A.owner, amount: 400n });
      await indexer.catchUp();
      // The indexer falls behind: B's counter lands before the release, the store never sees it
      // before the release is written; the release holds the chain's state at its chainSlot anyway.
      await indexer.stop();
      await submitOffer(w.connection, { ...refX, config, party: B.owner, amount: 900n });
      await w.setEpoch(e0 + 2n);
      const asOfUs = (w.epoch() * BigInt(E) + 1n) * 1_000_000n;
      const m = await createRelease({ store, epoch: Number(e0), dir, chain, asOfUs });
      assert.ok(m.chainSlot, 'the release states the slot it holds the chain at');
      const [x] = (await readParquet(join(dir, m.tables.negotiations.file))).filter(
        (r) => r.conversation_id === Buffer.from(convX).toString('hex'),
      );
      assert.equal(x.onchain_status, 'countered');

      // After the release: X settles, and Y is opened on chain.
      await acceptOffer(w.connection, { ...refX, config, party: A.owner });
      const refY = { buyer: A.owner.publicKey, seller: B.owner.publicKey, conversationId: convY };
      await createNegotiation(w.connection, {
        ...refY,
        buyer: A.owner,
        config,
        deposit: 1000n,
        deadline,
        responseWindow: 600,
        decayBps: 50,
        maxRounds: 6,
        protocolFeeBps: 200,
        zopaDetection: false,
      });
      indexer = await startChainIndexer({ connection: w.connection, store, pollMs: 60_000 });
      await indexer.catchUp();

      // Signature and anchor are the tamper suite's; here the chain columns.
      const results = await verifyRelease(dir, m, { chain });
      const failed = results.filter((r) => !r.ok);
      assert.deepEqual(
        failed.map((r) => `${r.name}: ${r.detail}`),
        [],
        'the release verifies as of its chainSlot',
      );
      assert.ok(
        results.some(
          (r) =>
            r.ok && /negotiations row \d+ \(\w+\): on-chain columns re-derived from the chain up to slot/.test(r.name),
        ),
        'times and state compared exactly',
      );

      // What moved after chainSlot is late data: the check names it for a revision.
      const reasons = await lateChanges(store.exportSource(), m);
      for (const c of [convX, convY])
        assert.ok(
          reasons.some((r) =>
            r.startsWith(`negotiation ${Buffer.from(c).toString('hex')}: moved on chain after slot ${m.chainSlot}`),
          ),
          `${reasons.join('; ')}`,
        );

      // A chainSlot stated later than the state the release holds fails.
      const later = await verifyRelease(dir, { ...m, chainSlot: String(BigInt(await chain.slot!())) }, { chain });
      assert.ok(
        later.some((r) => !r.ok && /negotiations row \d+ \(\w+\) column onchain_status on chain/.test(r.name)),
        'the open row against the settled chain',
      );
      assert.ok(
        later.some((r) => !r.ok && /negotiations row \d+ \(\w+\) column onchain on chain/.test(r.name)),
        'the off-chain row against the opened negotiation',
      );
    } finally {
      await indexer.stop();
      await store.close();
      await w.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
