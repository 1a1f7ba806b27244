/**
 * `npm run verify-dataset` as a researcher runs it, against a release of epochs an agent really
 * committed on the embedded chain (litesvm behind JSON-RPC): it passes with and without `--rpc`,
 * a batch on chain the observer never indexed printed apart as not checkable; pointed at a second
 * chain where the same agent id has another owner and committed another root for that epoch,
 * `--rpc` fails naming the signer evidence and the batches row and column. The CLI runs as a child process,
 * asynchronously: the chain answers from this process's event loop.
 */

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Keypair } from '@solana/web3.js';
import { lockStake, payLease, submitBatch } from '../lib/chain/node/economy';
import { postReleaseAnchor } from '../lib/chain/node/release-anchor';
import { registerSatiAgent } from '../lib/chain/node/sati';
import { type ChainWorld, epochLog, startChainWorld } from '../lib/chain/node/testing';
import { releaseChain } from '../lib/chain/release-evidence';
import { SATI_MAINNET } from '../lib/chain/sati';
import { createRelease } from '../lib/export/release';
import { loadOrCreateSigningKey, type SigningKey } from '../lib/export/signing';
import { buildBatchFromLog } from '../lib/protocol/batch-build';
import { openStore, type Store } from '../lib/store';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EPOCH_SECONDS = 3_600n;
const START_EPOCH = 490_896n; // 2026-01-01T00:00:00Z

export function verifyCli(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(
      process.execPath,
      ['--import', 'tsx', '--import', './scripts/setup-node.mjs', 'scripts/verify-dataset.ts', ...args],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    p.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    p.stderr.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const t = setTimeout(() => p.kill(), 240_000);
    p.once('error', reject);
    p.once('close', (code) => {
      clearTimeout(t);
      resolve({ code: code ?? -1, out });
    });
  });
}

/**
 * An agent registered through SATI with `mint` as its NFT on `w`, with stake and lease, that submits the batch of
 * `log`.
 */
async function commit(w: ChainWorld, mint: Keypair, log: (owner: Keypair) => ReturnType<typeof epochLog>) {
  const owner = await w.wallet(100_000_000n);
  const id = await registerSatiAgent(w.connection, owner, owner.publicKey, {
    name: 'release agent',
    uri: 'data:application/json,{}',
    mint,
  });
  await lockStake(w.connection, { owner, agent: id.agent, amount: 10_000_000n, config: w.config });
  await payLease(w.connection, { payer: owner, agent: id.agent, config: w.config });
  // Only the agent's own envelopes: with --rpc every sender must be a SATI agent of the chain.
  const envs = log(owner).filter((x) => Buffer.from(x.envelope.sender).equals(mint.publicKey.toBuffer()));
  const batch = buildBatchFromLog({
    agentId: id.agent.toBytes(),
    epochNumber: w.epoch(),
    slotStart: 0n,
    slotEnd: 0n,
    envelopes: envs.map((x) => x.envelope),
  });
  const sent = await submitBatch(w.connection, { owner, agent: id.agent, batch });
  return { owner, agent: id.agent, envs, batch, sent };
}

describe('npm run verify-dataset on a release committed to the embedded chain', { timeout: 600_000 }, () => {
  let w: ChainWorld;
  let w2: ChainWorld;
  let store: Store;
  let dir: string;
  let key: SigningKey;
  const mint = Keypair.generate();
  before(async () => {
    w = await startChainWorld({ epochSeconds: EPOCH_SECONDS, startEpoch: START_EPOCH });
    const epoch = w.epoch();
    const a = await commit(w, mint, (owner) =>
      epochLog({
        agent: mint.publicKey,
        seed: owner.secretKey.slice(0, 32),
        epoch,
        epochSeconds: EPOCH_SECONDS,
        extra: 2,
        tag: 1,
      }),
    );
    // The observer's view of that epoch: the envelopes, the agent's uploaded log and the indexed batch.
    store = await openStore({ dataDir: ':memory:', epochSeconds: Number(EPOCH_SECONDS) });
    // Another agent's batch of the epoch, on chain but never indexed by this observer.
    const unindexed = Keypair.generate();
    await commit(w, unindexed, (owner) =>
      epochLog({
        agent: unindexed.publicKey,
        seed: owner.secretKey.slice(0, 32),
        epoch,
        epochSeconds: EPOCH_SECONDS,
        tag: 2,
      }),
    );
    await store.ingestEnvelopes(
      a.envs.map((x) => ({
        id: x.id,
        envelope: x.envelope,
        raw: x.bytes,
        source: 'stream' as const,
        receivedAt: new Date(Number(x.envelope.timestamp / 1000n) + 5),
      })),
    );
    await store.saveEpochLog(
      a.agent.toBytes(),
      epoch,
      a.envs.map((x) => x.id),
    );
    await store.upsertBatch({
      agentId: a.agent.toBytes(),
      epoch,
      batchHash: a.sent.batchHash,
      root: a.batch.logMerkleRoot,
      slot: 10n,
      signature: a.sent.signature,
    });
    await store.setBatchStatus(a.agent.toBytes(), epoch, 'verified', a.batch.logMerkleRoot);
    dir = mkdtempSync(join(tmpdir(), 'zx-verify-cli-'));
    key = loadOrCreateSigningKey(`${dir}-key`, 'the test observer');
    // Signed, and anchored on chain by the signing key (its address funded), at the chain's own time.
    await w.airdrop(Keypair.fromSeed(key.seed).publicKey, 1);
    await createRelease({
      store,
      epoch: Number(epoch),
      dir,
      signingKey: key,
      chain: releaseChain(w.connection, SATI_MAINNET),
      asOfUs: (START_EPOCH * EPOCH_SECONDS + 1n) * 1_000_000n,
      anchor: (a) => postReleaseAnchor(w.connection, key.seed, a),
    });
    // A second chain where the same agent id committed a different log for the same epoch.
    w2 = await startChainWorld({ epochSeconds: EPOCH_SECONDS, startEpoch: START_EPOCH });
    await commit(w2, mint, (owner) =>
      epochLog({
        agent: mint.publicKey,
        seed: owner.secretKey.slice(0, 32),
        epoch,
        epochSeconds: EPOCH_SECONDS,
        extra: 3,
        tag: 1,
      }),
    );
  });
  after(async () => {
    await store?.close();
    await w?.close();
    await w2?.close();
    if (dir) {
      rmSync(dir, { recursive: true, force: true });
      rmSync(`${dir}-key`, { force: true });
    }
  });

  test('the release passes without --rpc and with --rpc against the chain it was committed to', async () => {
    const plain = await verifyCli([dir]);
    assert.equal(plain.code, 0, plain.out);
    assert.match(plain.out, /NOTE no --rpc/);
    assert.match(plain.out, /^\d+ passed, 0 failed$/m);
    const chained = await verifyCli([dir, '--rpc', w.chain.rpcUrl]);
    assert.equal(chained.code, 0, chained.out);
    assert.match(chained.out, /^\d+ passed, 0 failed$/m);
    assert.match(
      chained.out,
      new RegExp(
        String.raw`^NOT CHECKABLE epoch \d+ batch \w+: on chain: not checkable: not in ` +
          String.raw`the release, named known-missing \(on chain when the release was ` +
          String.raw`written, not yet indexed by the observer\)$`,
        'm',
      ),
    );
    assert.match(chained.out, /^1 not checkable\n\d+ passed, 0 failed$/m);
    assert.doesNotMatch(plain.out, /not checkable/);
    const n = (s: string) => Number(/^(\d+) passed/m.exec(s)![1]);
    // With the chain: the sender's keys, the batch root, the anchor, the latest revision, asOf against the anchor.
    assert.equal(n(chained.out), n(plain.out) + 5, chained.out);
  });

  test('--rpc against a chain holding another root for that batch fails at batches, row and column', async () => {
    const r = await verifyCli([dir, '--rpc', w2.chain.rpcUrl]);
    assert.equal(r.code, 1, r.out);
    assert.match(
      r.out,
      new RegExp(
        String.raw`^FAIL epoch \d+ batches row 0 \([0-9a-f]+\) column log_merkle_root on ` +
          String.raw`chain: release [0-9a-f]{64}, on chain [0-9a-f]{64} \(BatchAccount ` +
          String.raw`\w+\)$`,
        'm',
      ),
    );
    assert.match(
      r.out,
      new RegExp(
        String.raw`^FAIL epoch \d+ signers of [0-9a-f]{16}: against the chain: owner ` +
          '[0-9a-f]{64} in the manifest, [0-9a-f]{64} on chain$',
        'm',
      ),
    );
    assert.match(r.out, /^\d+ passed, [1-9]\d* failed$/m);
  });

  test("--key: the observer's key passes and says whose it is; another key fails", async () => {
    const ok = await verifyCli([dir, '--key', key.publicKey]);
    assert.equal(ok.code, 0, ok.out);
    assert.match(
      ok.out,
      new RegExp(
        `^SIGNED epoch=\\d+\\.manifest\\.json: release [0-9a-f]{64} signed by ` +
          `"the test observer" key ${key.publicKey}, the key given with --key$`,
        'm',
      ),
    );
    const other = 'ab'.repeat(32);
    const bad = await verifyCli([dir, '--key', other]);
    assert.equal(bad.code, 1, bad.out);
    assert.match(
      bad.out,
      new RegExp(
        `^FAIL epoch=\\d+\\.manifest\\.json: signed by "the test observer" ` +
          `key ${key.publicKey}, not by the key given with --key ${other}$`,
        'm',
      ),
    );
    assert.match(bad.out, /^\d+ passed, 1 failed$/m);
  });

  test('bad arguments exit 2 naming the flag', async () => {
    for (const [args, what] of [
      [[dir, '--rpc'], /--rpc needs a value/],
      [[dir, '--rpc', 'ftp://x'], /--rpc must be/],
      [[dir, '--nope'], /unknown flag --nope/],
      [[dir, '--key', 'xyz'], /--key must be/],
    ] as const) {
      const r = await verifyCli([...args]);
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, what);
    }
  });
});
