// The development warp (rpc-dev.ts, lib/devchain/README.md "Warp"): zerox1_warpSlot moves the slot, the Clock
// sysvar and the Solana epoch forward, refuses bad params with -32602, refuses requests a browser
// sent, can be switched off, and survives the chain process being killed (SIGKILL) before any
// snapshot: the warp is in the transaction log and is re-applied in its place on restart.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Connection, Keypair, LAMPORTS_PER_SOL, SYSVAR_CLOCK_PUBKEY } from '@solana/web3.js';
import { startEmbeddedChain } from './index';

type RpcAnswer = { result?: unknown; error?: { code: number; message: string } };
async function rpc(
  url: string,
  method: string,
  params?: unknown,
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await res.json()) as RpcAnswer;
}
/** The Clock sysvar as the programs read it: slot (u64 at 0), epoch (u64 at 16), unix_timestamp (i64 at 32). */
async function clockOf(c: Connection): Promise<{ slot: bigint; epoch: bigint; unix: bigint }> {
  const d = Buffer.from((await c.getAccountInfo(SYSVAR_CLOCK_PUBKEY))!.data);
  return { slot: d.readBigUInt64LE(0), epoch: d.readBigUInt64LE(16), unix: d.readBigInt64LE(32) };
}

test(
  'zerox1_warpSlot moves slot, clock and epoch; bad ' + 'params are -32602; browsers and warp:false get -32601',
  async () => {
    const chain = await startEmbeddedChain({ port: 0, slotMs: 0, wsCompanion: false, programs: [] });
    const off = await startEmbeddedChain({ port: 0, slotMs: 0, wsCompanion: false, programs: [], warp: false });
    try {
      const c = new Connection(chain.rpcUrl, 'confirmed');
      chain.tick();
      const { blockhash } = await c.getLatestBlockhash();
      const from = chain.ledger.slot;
      const slotsPerEpoch = (await c.getEpochSchedule()).slotsPerEpoch;

      for (const [params, msg] of [
        [undefined, /expected \{"slot": integer\}/],
        [{}, /expected \{"slot": integer\}/],
        [{ slot: 'x' }, /expected \{"slot": integer\}/],
        [{ slot: 5.5 }, /expected \{"slot": integer\}/],
        [{ slot: from + 10, extra: 1 }, /expected \{"slot": integer\}/],
        [{ slot: from }, new RegExp(`not after the current slot ${from}`)],
        [{ slot: from + 10_000_001 }, /more than 10000000 slots/],
      ] as const) {
        const a = await rpc(chain.rpcUrl, 'zerox1_warpSlot', params);
        assert.equal(a.error?.code, -32602, JSON.stringify(params));
        assert.match(a.error!.message, msg);
      }
      assert.equal(chain.ledger.slot, from, 'refused warps leave the slot alone');

      // A page in the machine's browser can reach 127.0.0.1 (CORS is open); the warp is not for it.
      const browser = await rpc(
        chain.rpcUrl,
        'zerox1_warpSlot',
        { slot: from + 10 },
        { origin: 'http://evil.example' },
      );
      assert.equal(browser.error?.code, -32601);
      assert.equal(chain.ledger.slot, from);
      assert.equal(
        (await rpc(chain.rpcUrl, 'getSlot', [], { origin: 'http://evil.example' })).result,
        from,
        'standard methods still answer browsers',
      );
      assert.equal(
        (await rpc(off.rpcUrl, 'zerox1_warpSlot', { slot: 1000 })).error?.code,
        -32601,
        'warp: false leaves the method out',
      );

      const target = from + 432_000 + 7;
      const unixBefore = (await clockOf(c)).unix;
      const ok = await rpc(chain.rpcUrl, 'zerox1_warpSlot', { slot: target });
      assert.deepEqual(ok.result, { previousSlot: from, slot: target, epoch: Math.floor(target / slotsPerEpoch) });
      assert.equal(await c.getSlot(), target);
      const info = await c.getEpochInfo();
      assert.equal(info.epoch, Math.floor(target / slotsPerEpoch));
      const clock = await clockOf(c);
      assert.equal(clock.slot, BigInt(target));
      assert.equal(clock.epoch, BigInt(Math.floor(target / slotsPerEpoch)));
      // unix_timestamp stays wall time: protocol epochs (unix / epoch_seconds) do not jump.
      assert.ok(clock.unix - unixBefore <= 2n, `unix_timestamp ${clock.unix} stayed near ${unixBefore}`);
      assert.equal((await c.isBlockhashValid(blockhash)).value, false, 'blockhashes from before the jump expired');
      assert.equal(
        (await rpc(chain.rpcUrl, 'zerox1_warpSlot', [{ slot: target + 1 }])).result !== undefined,
        true,
        'positional [{ slot }] works too',
      );
      chain.tick();
      assert.equal(await c.getSlot(), target + 2, 'slots go on from the warped slot');
    } finally {
      await chain.close();
      await off.close();
    }
  },
);

function startChain(dir: string): Promise<{ proc: ChildProcess; rpcUrl: string }> {
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './scripts/setup-node.mjs', 'lib/devchain/main.ts'],
    {
      env: {
        ...process.env,
        CHAIN_PORT: '0',
        CHAIN_DATA_DIR: dir,
        CHAIN_SLOT_MS: '0',
        CHAIN_SNAPSHOT_MS: '3600000',
        CHAIN_QUIET: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  proc.stderr!.on('data', (b: Buffer) => {
    err += b.toString();
  });
  return new Promise((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) resolve({ proc, rpcUrl: (JSON.parse(out.split('\n')[0]) as { rpcUrl: string }).rpcUrl });
    });
    proc.once('exit', (code) => reject(new Error(`chain exited with ${code}: ${err}`)));
  });
}

test('a warp survives SIGKILL before any snapshot, in its place among the logged transactions', {
  timeout: 120_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zerox1-warp-'));
  const procs: ChildProcess[] = [];
  try {
    const first = await startChain(dir);
    procs.push(first.proc);
    const c1 = new Connection(first.rpcUrl, 'confirmed');
    const alice = Keypair.generate();
    const w1 = 500_000;
    assert.equal((await rpc(first.rpcUrl, 'zerox1_warpSlot', { slot: w1 })).error, undefined);
    // A transaction after the first warp lands in the warped slot; a second warp follows it.
    const drop = await c1.requestAirdrop(alice.publicKey, LAMPORTS_PER_SOL);
    const w2 = 1_000_000;
    assert.equal((await rpc(first.rpcUrl, 'zerox1_warpSlot', { slot: w2 })).error, undefined);
    const exited = new Promise((r) => first.proc.once('exit', r));
    first.proc.kill('SIGKILL');
    await exited;
    assert.equal(
      (JSON.parse(readFileSync(join(dir, 'chain.json'), 'utf8')) as { slot: number }).slot,
      0,
      'the snapshot on disk predates both warps',
    );

    const second = await startChain(dir);
    procs.push(second.proc);
    const c2 = new Connection(second.rpcUrl, 'confirmed');
    assert.equal(await c2.getSlot(), w2, 'the slot after restart is the last warp');
    assert.equal((await clockOf(c2)).slot, BigInt(w2));
    const t = await c2.getTransaction(drop, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
    assert.equal(t?.slot, w1, 'the airdrop kept the slot it landed in, after the first warp');
    assert.equal(await c2.getBalance(alice.publicKey), LAMPORTS_PER_SOL);
  } finally {
    for (const p of procs) if (p.exitCode === null && p.signalCode === null) p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
