/**
 * The circuit relay a mesh node serves with `relay` (the observer, for browser nodes): real
 * libp2p clients on loopback reserve a relayed address through it, dial each other through it
 * with the relay's data and time limits on the connection, and are refused past maxReservations.
 * The clients here use TCP; browsers use the same hop protocol over WebSockets
 * (e2e/demo/browser-webrtc.ts).
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { circuitRelayTransport } from '@libp2p/circuit-relay-v2';
import { identify } from '@libp2p/identify';
import type { Libp2p } from '@libp2p/interface';
import { tcp } from '@libp2p/tcp';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p } from 'libp2p';
import { DEFAULT_RELAY_LIMITS } from './constants';
import { createMeshNode } from './node';
import { waitFor } from './testing';

async function client(): Promise<Libp2p> {
  return createLibp2p({
    addresses: { listen: ['/p2p-circuit'] },
    transports: [tcp(), circuitRelayTransport()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    services: { identify: identify() },
  }) as Promise<Libp2p>;
}

const circuitAddr = (n: Libp2p) =>
  n
    .getMultiaddrs()
    .map(String)
    .find((a) => a.includes('/p2p-circuit'));

describe('circuit relay on a mesh node', () => {
  test('relay: true serves the hop protocol with the default limits; without it nothing is relayed', async () => {
    const plain = await createMeshNode({ validate: () => 'accept', listen: ['/ip4/127.0.0.1/tcp/0'], dht: false });
    const relay = await createMeshNode({
      validate: () => 'accept',
      listen: ['/ip4/127.0.0.1/tcp/0'],
      dht: false,
      relay: true,
    });
    try {
      assert.equal(plain.relay, null);
      assert.deepEqual(relay.relay, DEFAULT_RELAY_LIMITS);
      assert.ok(relay.libp2p.getProtocols().includes('/libp2p/circuit/relay/0.2.0/hop'));
      assert.ok(!plain.libp2p.getProtocols().includes('/libp2p/circuit/relay/0.2.0/hop'));
    } finally {
      await Promise.all([plain.stop(), relay.stop()]);
    }
  });

  test('bad relay limits are refused at construction, naming the field', async () => {
    await assert.rejects(
      createMeshNode({ validate: () => 'accept', relay: { maxReservations: 0 } }),
      /params\.relay\.maxReservations/,
    );
    await assert.rejects(
      createMeshNode({ validate: () => 'accept', relay: { dataLimitBytes: 0n } }),
      /params\.relay\.dataLimitBytes/,
    );
    await assert.rejects(createMeshNode({ validate: () => 'accept', relay: 'yes' as never }), /params\.relay must be/);
  });

  test(
    'clients reserve through the relay, dial each other over a ' +
      'limited relayed connection, and the slot count is enforced',
    async () => {
      const limits = { maxReservations: 2, dataLimitBytes: 4096n, durationLimitMs: 30_000 };
      const relay = await createMeshNode({
        validate: () => 'accept',
        listen: ['/ip4/127.0.0.1/tcp/0'],
        dht: false,
        relay: limits,
      });
      const [a, b, c] = await Promise.all([client(), client(), client()]);
      try {
        const relayAddr = multiaddr(relay.multiaddrs()[0]!);
        await a.dial(relayAddr);
        await waitFor('a relayed address for a', () => circuitAddr(a) !== undefined);
        await b.dial(relayAddr);
        await waitFor('a relayed address for b', () => circuitAddr(b) !== undefined);
        assert.deepEqual(relay.relayReservations().sort(), [a.peerId.toString(), b.peerId.toString()].sort());

        // The relay is full: a third client connects but gets no reservation.
        await c.dial(relayAddr);
        await new Promise((r) => setTimeout(r, 1_500));
        assert.equal(circuitAddr(c), undefined, 'c holds no relayed address');
        assert.equal(relay.relayReservations().length, 2);

        // c can still dial a through the relay (connecting needs no reservation of its own).
        const conn = await c.dial(multiaddr(circuitAddr(a)!));
        assert.equal(conn.remotePeer.toString(), a.peerId.toString());
        assert.match(conn.remoteAddr.toString(), /\/p2p-circuit\//);
        assert.ok(conn.limits, 'a relayed connection is limited');
        // What is left of the relay's budget once the handshake went through it.
        const left = conn.limits.bytes!;
        assert.ok(left > 0n && left < limits.dataLimitBytes, `bytes left ${left} of ${limits.dataLimitBytes}`);
        // circuit-relay-v2 4.2 sends its duration limit as the millisecond figure it enforces,
        // and the client reads that figure as seconds: only the relay's own clock counts.
        assert.ok(
          conn.limits.seconds! > 0 && conn.limits.seconds! <= limits.durationLimitMs,
          `seconds ${conn.limits.seconds}`,
        );
      } finally {
        await Promise.all([a.stop(), b.stop(), c.stop()]);
        await relay.stop();
      }
    },
  );

  test(
    'the relay cuts a relayed connection that goes over its ' + 'data limit, and one that outlives its duration limit',
    async () => {
      const relay = await createMeshNode({
        validate: () => 'accept',
        listen: ['/ip4/127.0.0.1/tcp/0'],
        dht: false,
        relay: { dataLimitBytes: 8192n, durationLimitMs: 1_000 },
      });
      const [a, b] = await Promise.all([client(), client()]);
      try {
        const received: number[] = [];
        await a.handle(
          '/test/sink/1',
          (stream) => {
            stream.addEventListener('message', (e) => {
              received.push(e.data.byteLength);
            });
          },
          { runOnLimitedConnection: true },
        );
        await a.dial(multiaddr(relay.multiaddrs()[0]!));
        await waitFor('a relayed address for a', () => circuitAddr(a) !== undefined);

        // Data: 64 KiB offered through an 8 KiB budget; the relay closes the connection.
        const big = await b.dial(multiaddr(circuitAddr(a)!));
        const s = await big.newStream('/test/sink/1', { runOnLimitedConnection: true });
        for (let i = 0; i < 64; i++) if (s.status === 'open') s.send(new Uint8Array(1024));
        await waitFor('the over-budget connection to close', () => big.status !== 'open', 10_000);
        const got = received.reduce((x, y) => x + y, 0);
        assert.ok(got < 8192, `a received ${got} bytes through an 8 KiB budget`);

        // Duration: an idle relayed connection is closed once its time is up.
        const idle = await b.dial(multiaddr(circuitAddr(a)!));
        assert.equal(idle.status, 'open');
        await waitFor('the expired connection to close', () => idle.status !== 'open', 10_000);
      } finally {
        await Promise.all([a.stop(), b.stop()]);
        await relay.stop();
      }
    },
  );
});
