/**
 * Helpers for lib/mesh tests and benches: real libp2p nodes on 127.0.0.1, ephemeral ports,
 * no mDNS, no DHT (a fixed topology), fast gossipsub heartbeat.
 */

import type { MeshTopic } from './constants';
import { createMeshNode, type MeshNode } from './node';
import type { CreateMeshNodeParams, MeshEnvelopeMeta } from './types';

export interface Received {
  bytes: Uint8Array;
  meta: MeshEnvelopeMeta;
}
export interface Dropped {
  reason: string;
  peer: string;
  source: string;
}
export interface TestNode {
  node: MeshNode;
  received: Received[];
  drops: Dropped[];
}

/** Starts a node that records what it receives and drops. */
export async function startTestNode(params: Partial<CreateMeshNodeParams> = {}): Promise<TestNode> {
  const received: Received[] = [];
  const drops: Dropped[] = [];
  const node = await createMeshNode({
    validate: () => 'accept',
    listen: ['/ip4/127.0.0.1/tcp/0'],
    mdns: false,
    dht: false,
    heartbeatMs: 100,
    ...params,
    onEnvelope: (bytes, meta) => {
      received.push({ bytes, meta });
      params.onEnvelope?.(bytes, meta);
    },
    onDrop: (reason, peer, source) => {
      drops.push({ reason, peer, source });
      params.onDrop?.(reason, peer, source);
    },
  });
  return { node, received, drops };
}

/** Polls `cond` every 20 ms; throws with `what` after `timeoutMs`. */
export async function waitFor(what: string, cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Dials b from a over TCP and waits until each sees the other subscribed to `topics`. */
export async function link(a: MeshNode, b: MeshNode, topics: readonly MeshTopic[]): Promise<void> {
  await a.dial(b.multiaddrs()[0]!);
  await waitFor(`${a.peerId} <-> ${b.peerId} subscriptions`, () =>
    topics.every((t) => a.subscribers(t).includes(b.peerId) && b.subscribers(t).includes(a.peerId)),
  );
}

/** Waits until `a` has `b` in its gossipsub mesh for every topic (so a forwards to b). */
export async function waitMesh(a: MeshNode, b: MeshNode, topics: readonly MeshTopic[]): Promise<void> {
  await waitFor(`${a.peerId} mesh has ${b.peerId}`, () => topics.every((t) => a.meshPeers(t).includes(b.peerId)));
}

/** Distinct test payload: tag byte, then a 32-bit counter, padded to `size`. */
export function payload(tag: number, i: number, size = 64): Uint8Array {
  const b = new Uint8Array(size);
  b[0] = tag;
  new DataView(b.buffer).setUint32(1, i);
  return b;
}

export async function stopAll(nodes: TestNode[]): Promise<void> {
  await Promise.all(nodes.map((n) => n.node.stop()));
}
