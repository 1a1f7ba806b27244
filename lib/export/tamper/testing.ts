/**
 * The tamper suite's world (lib/export/tamper.test.ts): a real embedded chain (litesvm over
 * JSON-RPC), a real store filled by the chain indexer, and an epoch with everything a release
 * holds: SATI agents whose envelopes arrive by gossip and streams, a negotiation settled on chain
 * through Haggle, an open one, FEEDBACK, uploaded logs and submitted batches (one never uploaded),
 * a pending challenge, and two revisions of the release (the second after a late FEEDBACK). The
 * genuine releases are written signed but not anchored into a template folder; the suite anchors
 * them under the key each mode needs. Not runtime code: a harness.
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair, type PublicKey } from '@solana/web3.js';
import { challengeEvidence } from '../../chain/evidence';
import { lockStake, payLease, submitBatch, submitChallenge, usdcAccountOf } from '../../chain/node/economy';
import {
  acceptNegotiation,
  acceptOffer,
  createNegotiation,
  ensureHaggleConfig,
  submitOffer,
} from '../../chain/node/haggle';
import { postReleaseAnchor } from '../../chain/node/release-anchor';
import { type BuiltEnvelope, type ChainWorld, newChainAgent, startChainWorld } from '../../chain/node/testing';
import { releaseChain } from '../../chain/release-evidence';
import { SATI_MAINNET } from '../../chain/sati';
import { haggleHistory } from '../../indexer/haggle-history';
import { startChainIndexer } from '../../indexer/index';
import { buildBatchFromLog } from '../../protocol/batch-build';
import { buildEnvelope } from '../../protocol/envelope';
import { encodeNeg1 } from '../../protocol/neg1';
import { encodeFeedback } from '../../protocol/payloads';
import { MsgType } from '../../protocol/types';
import { openStore, type Store } from '../../store/index';
import type { ReleaseChain } from '../chain-evidence';
import { createRelease } from '../release';
import { type AnchorStatement, type ReleaseManifest, releaseNames } from '../release-manifest';
import type { SigningKey } from '../signing';

export const E = 10;
const USDC = 1_000_000n;

export interface TamperWorld {
  w: ChainWorld;
  store: Store;
  chain: ReleaseChain;
  /** The template folder: revision 0 and 1 of `epoch`, signed by `publisher`, not anchored. */
  dir: string;
  epoch: number;
  rev0: ReleaseManifest;
  rev1: ReleaseManifest;
  names: [string, string];
  publisher: SigningKey;
  /** Conversations: settled on chain (x), open (y); agents A (buyer), B (seller), D (log never uploaded). */
  convX: string;
  agents: Record<'A' | 'B' | 'C' | 'D', Awaited<ReturnType<typeof newChainAgent>>>;
  close(): Promise<void>;
}

/** A fresh Ed25519 signing key (release-signing key shape) with SOL to pay its anchors. */
export async function fundedKey(w: ChainWorld, signer: string): Promise<SigningKey> {
  const kp = Keypair.generate();
  await w.airdrop(kp.publicKey, 1);
  return { seed: kp.secretKey.slice(0, 32), publicKey: Buffer.from(kp.publicKey.toBytes()).toString('hex'), signer };
}

/** Anchors a release statement under `key` on the world's chain. */
export function anchorWith(w: ChainWorld, key: SigningKey, a: AnchorStatement) {
  return postReleaseAnchor(w.connection, key.seed, a);
}

export async function tamperWorld(): Promise<TamperWorld> {
  const w = await startChainWorld({ epochSeconds: BigInt(E) });
  const store = await openStore({ dataDir: ':memory:', epochSeconds: E });
  const chain: ReleaseChain = {
    ...releaseChain(w.connection, SATI_MAINNET),
    haggleEvents: (a) => haggleHistory(w.connection, a),
  };
  const dir = mkdtempSync(join(tmpdir(), 'zx-tamper-'));
  const e0 = w.epoch();
  const epoch = Number(e0);
  const A = await newChainAgent(w);
  const B = await newChainAgent(w);
  const C = await newChainAgent(w);
  const D = await newChainAgent(w);
  for (const x of [A, B, C, D]) {
    await lockStake(w.connection, { owner: x.owner, agent: x.agent, amount: 10n * USDC, config: w.config });
    await payLease(w.connection, { payer: x.owner, agent: x.agent, config: w.config });
  }
  const t0 = e0 * BigInt(E) * 1_000_000n;
  let n = 0n;
  const mk = (
    msgType: number,
    from: typeof A,
    to: PublicKey,
    conv: Uint8Array,
    payload: Uint8Array,
    at = t0 + (n + 1n) * 100_000n,
  ): BuiltEnvelope => {
    n++;
    return buildEnvelope(
      {
        msgType,
        sender: from.agent.toBytes(),
        recipient: to.toBytes(),
        conversationId: conv,
        nonce: n,
        timestamp: at,
        blockRef: 1n,
        payload,
      },
      from.seed,
    );
  };
  const chainNow = () => w.epoch() * BigInt(E) + 1n;
  const neg = (price: bigint, round: number, deadline = 0n) =>
    encodeNeg1({
      bidValue: price,
      tokenMint: new Uint8Array(32),
      serviceHash: new Uint8Array(32).fill(7),
      round,
      deadline,
      decayBps: 50,
      maxRounds: 6,
      verification: { tier: 0, testSuiteHash: new Uint8Array(0) },
      reason: 0,
      metadata: new Uint8Array(0),
    });
  const convX = Uint8Array.from(randomBytes(16));
  const convY = Uint8Array.from(randomBytes(16));
  const x = [
    mk(MsgType.PROPOSE, A, B.agent, convX, neg(400n, 0)),
    mk(MsgType.COUNTER, B, A.agent, convX, neg(900n, 1)),
    mk(MsgType.COUNTER, A, B.agent, convX, neg(600n, 2)),
    mk(MsgType.ACCEPT, B, A.agent, convX, neg(600n, 3)),
  ];
  const y = [mk(MsgType.PROPOSE, A, C.agent, convY, neg(700n, 0, chainNow() + 86_400n))];
  const fb = mk(
    MsgType.FEEDBACK,
    C,
    A.agent,
    convY,
    encodeFeedback({
      conversationId: convY,
      targetAgent: A.agent.toBytes(),
      score: 40,
      outcome: 2,
      isDispute: false,
      role: 0,
    }),
  );
  const fbD = mk(
    MsgType.FEEDBACK,
    D,
    B.agent,
    convX,
    encodeFeedback({
      conversationId: convX,
      targetAgent: B.agent.toBytes(),
      score: 90,
      outcome: 2,
      isDispute: false,
      role: 0,
    }),
  );
  const items = [...x, ...y, fb, fbD].map((b, i) => ({
    id: b.id,
    envelope: b.envelope,
    raw: b.bytes,
    source: (i % 3 === 0 ? 'gossip' : i % 3 === 1 ? 'stream' : 'upload') as 'gossip' | 'stream' | 'upload',
    topic: i % 3 === 0 ? '/0x01/v1/broadcast' : undefined,
    receivedAt: new Date(Date.now() - 60_000),
  }));
  await store.ingestEnvelopes(items);
  const logs: [typeof A, BuiltEnvelope[], boolean][] = [
    [A, [...x, ...y, fb], true],
    [B, [...x, fbD], true],
    [C, [...y, fb], true],
    [D, [fbD], false],
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
  // The deal mirrored on chain: Haggle escrow, three offers, the seller accepts, settled.
  const config = await ensureHaggleConfig(w.connection, { admin: w.admin, usdcMint: w.usdcMint, treasury: w.treasury });
  const ref = { buyer: A.owner.publicKey, seller: B.owner.publicKey, conversationId: convX };
  await createNegotiation(w.connection, {
    ...ref,
    buyer: A.owner,
    config,
    deposit: 2000n,
    deadline: chainNow() + 3600n,
    responseWindow: 600,
    decayBps: 50,
    maxRounds: 6,
    protocolFeeBps: 200,
    zopaDetection: false,
  });
  await acceptNegotiation(w.connection, { ...ref, seller: B.owner });
  await submitOffer(w.connection, { ...ref, config, party: A.owner, amount: 400n });
  await submitOffer(w.connection, { ...ref, config, party: B.owner, amount: 900n });
  await submitOffer(w.connection, { ...ref, config, party: A.owner, amount: 600n });
  await acceptOffer(w.connection, { ...ref, config, party: B.owner });
  // A pending challenge of B's batch.
  const watcher = await w.wallet(50n * USDC);
  const bLog = [...x, fbD].map((b) => b.envelope);
  const ev = challengeEvidence({
    log: bLog,
    index: 0,
    batch: buildBatchFromLog({
      agentId: B.agent.toBytes(),
      epochNumber: e0,
      slotStart: 0n,
      slotEnd: 0n,
      envelopes: bLog,
    }),
  });
  await submitChallenge(w.connection, {
    challenger: watcher,
    challengerUsdc: usdcAccountOf(w.usdcMint, watcher.publicKey),
    agent: B.agent,
    epoch: e0,
    leaf: ev.leaf,
  });
  const indexer = await startChainIndexer({ connection: w.connection, store, pollMs: 60_000 });
  try {
    await indexer.idle();
  } finally {
    await indexer.stop();
  }

  const publisher = await fundedKey(w, 'tamper-suite publisher');
  await w.setEpoch(e0 + 2n);
  const rev0 = await createRelease({
    store,
    epoch,
    dir,
    chain,
    signingKey: publisher,
    asOfUs: chainNow() * 1_000_000n,
  });
  // A late FEEDBACK dated inside the epoch, then revision 1 (asOf later).
  const late = mk(
    MsgType.FEEDBACK,
    B,
    A.agent,
    convX,
    encodeFeedback({
      conversationId: convX,
      targetAgent: A.agent.toBytes(),
      score: 75,
      outcome: 2,
      isDispute: false,
      role: 0,
    }),
  );
  await store.ingestEnvelopes([
    { id: late.id, envelope: late.envelope, raw: late.bytes, source: 'stream', receivedAt: new Date() },
  ]);
  await w.setEpoch(e0 + 3n);
  const rev1 = await createRelease({
    store,
    epoch,
    dir,
    chain,
    signingKey: publisher,
    asOfUs: chainNow() * 1_000_000n,
    revision: 1,
    reasons: ['late data'],
  });
  return {
    w,
    store,
    chain,
    dir,
    epoch,
    rev0,
    rev1,
    names: [releaseNames(epoch, 0).manifest, releaseNames(epoch, 1).manifest],
    publisher,
    convX: Buffer.from(convX).toString('hex'),
    agents: { A, B, C, D },
    async close() {
      await store.close();
      await w.close();
    },
  };
}
