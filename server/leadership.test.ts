/**
 * Leadership hand-over between processes (lib/store/leader/leader.ts): two processes of the `releases`
 * role on one Postgres and one release folder (server/leadership-testing.ts); the leader is
 * killed with SIGKILL right after its second release, while it writes the next. The standby must
 * lead within 10 s, go on from there, and between them every epoch is released once: no release
 * written twice, none missing, every one verifying.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { listReleases } from '../lib/export/release-list';
import { EPOCH_SECONDS, fixtureStore } from '../lib/export/testing';
import { readManifests, verifyRelease } from '../lib/export/verify';
import { skipWithoutPostgres } from '../lib/store/testing';

interface Msg {
  pid: number;
  at: number;
  ready?: boolean;
  leading?: boolean;
  released?: string;
  error?: string;
}

test('releases: the leader killed mid-work, the standby leads within 10 s and no epoch is released twice or lost', {
  skip: skipWithoutPostgres(),
  timeout: 180_000,
}, async (t) => {
  const fs = await fixtureStore('postgres', 200);
  const e = BigInt(EPOCH_SECONDS * 1_000_000);
  const epochs = [...new Set(fs.fx.items.map((i) => Number(i.envelope.timestamp / e)))].sort((a, b) => a - b);
  const url = fs.url!;
  const dir = mkdtempSync(join(tmpdir(), 'zx-leader-releases-'));
  const msgs: Msg[] = [];
  const children: ChildProcess[] = [];
  const spawn = () => {
    const c = fork(fileURLToPath(new URL('./leadership-testing.ts', import.meta.url)), [url, dir, '400'], {
      execArgv: ['--import', 'tsx', '--import', './scripts/setup-node.mjs'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    c.on('message', (m) => msgs.push(m as Msg));
    children.push(c);
    return c;
  };
  const until = async (cond: () => boolean, ms: number, what: string) => {
    const t0 = Date.now();
    while (!cond()) {
      if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms`);
      await sleep(20);
    }
  };
  try {
    const a = spawn();
    const b = spawn();
    await until(() => msgs.filter((m) => m.ready).length === 2, 60_000, 'both processes up');
    // The process that releases leads: kill it after its second release, while it writes the next.
    const byPid = (pid: number) => msgs.filter((m) => m.pid === pid && m.released).length;
    await until(() => byPid(a.pid!) >= 2 || byPid(b.pid!) >= 2, 60_000, 'two releases');
    const leader = byPid(a.pid!) >= 2 ? a : b;
    const standby = leader === a ? b : a;
    leader.kill('SIGKILL');
    const killedAt = Date.now();
    await until(() => msgs.some((m) => m.pid === standby.pid && m.leading), 10_000, 'the standby leads');
    const led = msgs.find((m) => m.pid === standby.pid && m.leading)!;
    t.diagnostic(`hand-over: the standby led ${((led.at - killedAt) / 1000).toFixed(2)} s after SIGKILL`);
    // Every epoch released and made final, then quiet.
    await until(
      () => epochs.every((ep) => listReleases(dir).some((r) => r.epoch === ep && r.final)),
      120_000,
      'every epoch released and final',
    );
    await sleep(1_500);
    const released = msgs
      .filter((m) => m.released)
      .map((m) => `${m.released} by ${m.pid === leader.pid ? 'leader' : 'standby'}`);
    t.diagnostic(`released: ${released.join(', ')}`);
    const keys = msgs.filter((m) => m.released).map((m) => m.released!);
    const twice = keys.filter((k, i) => keys.indexOf(k) !== i);
    assert.deepEqual(twice, [], 'no release written twice');
    assert.ok(
      msgs.some((m) => m.pid === standby.pid && m.released),
      'the standby went on where the leader stopped',
    );
    assert.deepEqual(
      msgs.filter((m) => m.error).map((m) => m.error),
      [],
    );
    assert.ok(led.at >= killedAt, 'the standby led only once the leader was dead');
    const manifests = readManifests(dir);
    assert.deepEqual(
      [...new Set(manifests.map((m) => m.epoch))].sort((x, y) => x - y),
      epochs,
      'no epoch lost',
    );
    for (const m of manifests) {
      const bad = (await verifyRelease(dir, m)).filter((c) => !c.ok);
      assert.deepEqual(bad, [], `epoch ${m.epoch} revision ${m.revision} verifies`);
    }
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await fs.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
