// The overview strip on a real store (PGlite): the last finished minute's rate and active agents
// only once the observer has received that minute whole; before that "measuring" (null) with
// the time the first whole minute ends, while the hour's counts are shown as stored.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeAdvertiseJson } from '../../lib/protocol/advertise';
import { MsgType } from '../../lib/protocol/types';
import { openStore } from '../../lib/store/index';
import { bytes32, conv16, makeItem } from '../../lib/store/testing';
import type { Services } from './services';
import { loadStatsStrip, serviceNames } from './stats';

test('the strip says "measuring" until the observer has received a whole minute', async () => {
  const store = await openStore({ dataDir: ':memory:' });
  try {
    // now = 30 s into a minute M; 6 envelopes from 2 agents in M − 1 (the last finished minute).
    const M = 1_800_007_260_000; // a minute boundary, ms
    const now = M + 30_000;
    const at = (k: number) => BigInt(M - 60_000 + k * 1_000) * 1000n;
    await store.ingestEnvelopes(
      Array.from({ length: 6 }, (_, k) =>
        makeItem({
          msgType: k === 0 ? MsgType.PROPOSE : MsgType.BEACON,
          sender: bytes32(1 + (k % 2)),
          conversationId: conv16(k),
          nonce: BigInt(k),
          timestamp: at(k),
        }),
      ),
    );
    const o = { reads: store } as unknown as Services;

    const long = await loadStatsStrip(o, now, M - 3_600_000);
    assert.equal(long.envelopesPerS, '0.100', '6 envelopes in 60 s');
    assert.equal(long.activeAgents, '2');
    assert.equal(long.minute, new Date(M - 60_000).toISOString().replace('.000Z', 'Z'));
    assert.equal(long.hourBeforeStart, false);

    // Started exactly at that minute's start: it received it whole.
    assert.equal((await loadStatsStrip(o, now, M - 60_000)).envelopesPerS, '0.100');

    // Started 20 s into that minute: it saw a part of it, so no figure, and the first whole minute is M (ends M + 60
    // s).
    const fresh = await loadStatsStrip(o, now, M - 40_000);
    assert.equal(fresh.envelopesPerS, null);
    assert.equal(fresh.activeAgents, null);
    assert.equal(fresh.firstWholeMinuteEnds, new Date(M + 60_000).toISOString().replace('.000Z', 'Z'));
    assert.equal(fresh.opened, '1', "the hour's counts are what is stored");
    assert.equal(fresh.hourBeforeStart, true);
    // Started on a boundary within the current minute: that minute is the first whole one.
    assert.equal(
      (await loadStatsStrip(o, now, M)).firstWholeMinuteEnds,
      new Date(M + 60_000).toISOString().replace('.000Z', 'Z'),
    );
  } finally {
    await store.close();
  }
});

test('per-service series are named from the services the newest ADVERTISE envelopes name', async () => {
  const store = await openStore({ dataDir: ':memory:' });
  try {
    const hash = 'ab'.repeat(32);
    await store.ingestEnvelopes([
      makeItem({
        msgType: MsgType.ADVERTISE,
        sender: bytes32(7),
        conversationId: conv16(0),
        nonce: 1n,
        timestamp: 1_800_000_000_000_000n,
        payload: encodeAdvertiseJson({ capabilities: [{ service: 'translate', serviceHash: `0x${hash}` }] }),
      }),
    ]);
    const o = { reads: store } as unknown as Services;
    const names = await serviceNames(o, 1_800_000_000_000);
    assert.equal(names.get(hash), 'translate');
    assert.equal(names.size, 1);
  } finally {
    await store.close();
  }
});
