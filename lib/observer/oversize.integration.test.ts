/**
 * Oversize frames at the observer: a peer that sends a 2 MB frame, on gossip or on
 * `/0x01/v1/envelope`, and then five valid envelopes gets the five stored and the big frame
 * counted in the drop counters as `oversize`; nothing behind it is lost silently.
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { multiaddr } from '@multiformats/multiaddr';
import * as lp from 'it-length-prefixed';
import { createMeshNode, ENVELOPE_PROTOCOL, type MeshNode, TOPIC_BROADCAST } from '../mesh';
import { publicKeyFromSeed, sha256 } from '../protocol/crypto';
import { buildEnvelope } from '../protocol/envelope';
import { MsgType } from '../protocol/types';
import { rawQuery } from '../store/testing';
import { startObservatory } from './observatory';
import { makeBackend, quietLogger, waitFor } from './testing';

const BIG = 2 * 1024 * 1024;

function agent(label: string) {
  const seed = sha256(new TextEncoder().encode(`oversize/${label}/seed`));
  return { seed, id: sha256(new TextEncoder().encode(`oversize/${label}/id`)), pk: publicKeyFromSeed(seed) };
}

function beacons(a: ReturnType<typeof agent>, n: number): Uint8Array[] {
  const now = Date.now();
  return Array.from(
    { length: n },
    (_, i) =>
      buildEnvelope(
        {
          msgType: MsgType.BEACON,
          sender: a.id,
          timestamp: BigInt(now) * 1000n + BigInt(i),
          nonce: BigInt(i + 1),
          conversationId: new Uint8Array(16),
          payload: new TextEncoder().encode(`beacon ${i}`),
        },
        a.seed,
      ).bytes,
  );
}

for (const via of ['gossip', 'stream'] as const) {
  describe(`a 2 MB frame on ${via} at the observer`, () => {
    test('is counted oversize, and the 5 valid envelopes behind it are stored', async () => {
      const backend = await makeBackend('pglite');
      const obs = await startObservatory({ config: backend.config, logger: quietLogger });
      let peer: MeshNode | undefined;
      try {
        const a = agent(via);
        await obs.registry.register(a.id, a.pk);
        // A sender allowed to produce the big frame (an honest node refuses to).
        peer = await createMeshNode({
          listen: ['/ip4/127.0.0.1/tcp/0'],
          validate: () => 'accept',
          dht: false,
          limits: { maxMessageBytes: 2 * BIG },
        });
        const target = obs.mesh.multiaddrs()[0]!;
        const good = beacons(a, 5);
        const big = new Uint8Array(BIG).fill(0xa5);
        if (via === 'gossip') {
          await peer.dial(target);
          const p = peer;
          await waitFor('the observer subscribed, seen by the peer', () =>
            p.subscribers(TOPIC_BROADCAST).includes(obs.mesh.peerId),
          );
          await peer.publish(TOPIC_BROADCAST, big);
          for (const b of good) await peer.publish(TOPIC_BROADCAST, b);
        } else {
          // All six frames written at once, as a hostile peer would (an honest sender waits).
          const conn = await peer.libp2p.dial(multiaddr(target));
          const s = await conn.newStream(ENVELOPE_PROTOCOL);
          const frames = [big, ...good].map((b) => lp.encode.single(b, { maxDataLength: 2 * BIG }).subarray());
          const all = new Uint8Array(frames.reduce((n, f) => n + f.length, 0));
          frames.reduce((at, f) => {
            all.set(f, at);
            return at + f.length;
          }, 0);
          if (!s.send(all)) await s.onDrain({ signal: AbortSignal.timeout(10_000) });
        }
        const stored = async () => {
          await obs.flush();
          const rows = await rawQuery(obs.store)<{ n: string }>(
            'SELECT count(*)::text AS n FROM envelope WHERE sender = $1',
            [a.id],
          );
          return Number(rows[0].n);
        };
        await waitFor('5 envelopes stored', async () => (await stored()) === 5, 20_000);
        await waitFor('the oversize drop counted', () => obs.dropCounts().oversize === 1);
        assert.deepEqual(obs.dropCounts(), { oversize: 1 });
        await obs.flush();
        assert.equal((await obs.store.dropCounts()).oversize, 1);
      } finally {
        await peer?.stop();
        await obs.stop();
        await backend.cleanup();
      }
    });
  });
}
