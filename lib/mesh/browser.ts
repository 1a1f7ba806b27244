/**
 * The browser's own node on the 0x01 mesh (docs/protocol.md §9): libp2p over WebSockets with
 * Noise and Yamux, GossipSub with the mesh's settings (StrictNoSign, envelope id as message id),
 * subscribed to the three topics. It dials the observer's WebSocket listener, the one address a
 * browser can reach (agents listen on TCP); the observer forwards gossip like any GossipSub peer,
 * so the browser sees the gossip first-hand and checks every envelope itself. Browser-safe: no
 * node:* and nothing from ./node.ts or ./shims.ts (checked by .dependency-cruiser.cjs).
 */
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { gossipsub, StrictNoSign, type GossipSub } from '@libp2p/gossipsub';
import { identify } from '@libp2p/identify';
import type { Libp2p } from '@libp2p/interface';
import { webSockets } from '@libp2p/websockets';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p } from 'libp2p';
import { keccak256 } from '../protocol/crypto';
import { toHex } from '../protocol/hex';
import { GOSSIP_MAX_RPC_BYTES, MESH_TOPICS } from './constants';

export interface BrowserNode {
  peerId: string;
  /** Connected peer ids. */
  peers(): string[];
  stop(): Promise<void>;
}

export interface StartBrowserNodeParams {
  /** WebSocket multiaddrs with /p2p/<peerId> (the observer's, from /api/health). */
  dial: string[];
  /** Every gossip message on the three topics, as received (not yet validated). */
  onMessage(topic: string, data: Uint8Array, from: string): void;
  onError?(e: unknown): void;
}

/** Only /ws and /wss addresses: a browser cannot dial TCP. */
export const isWebSocketAddr = (a: string): boolean => /\/(ws|wss|tls\/ws)(\/p2p\/[^/]+)?$/.test(a);

export async function startBrowserNode(p: StartBrowserNodeParams): Promise<BrowserNode> {
  const targets = p.dial.filter(isWebSocketAddr);
  if (targets.length === 0) throw new Error('the observer listens on no WebSocket address (OBSERVER_LISTEN needs a /ws multiaddr)');
  const node = (await createLibp2p({
    transports: [webSockets()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    // libp2p refuses private addresses from a browser by default; the observer is on loopback in the demo.
    connectionGater: { denyDialMultiaddr: async () => false },
    services: {
      identify: identify(),
      pubsub: gossipsub({
        globalSignaturePolicy: StrictNoSign,
        msgIdFn: (msg) => keccak256(msg.data),
        msgIdToStrFn: toHex,
        emitSelf: false,
        fallbackToFloodsub: false,
        allowedTopics: [...MESH_TOPICS],
        maxInboundDataLength: GOSSIP_MAX_RPC_BYTES,
      }),
    },
  } as Parameters<typeof createLibp2p>[0])) as unknown as Libp2p<{ pubsub: GossipSub }>;
  const gs = node.services.pubsub;
  gs.addEventListener('message', (ev) => {
    const m = ev.detail;
    try {
      p.onMessage(m.topic, m.data, 'from' in m && m.from ? m.from.toString() : '');
    } catch (e) {
      p.onError?.(e);
    }
  });
  for (const t of MESH_TOPICS) gs.subscribe(t);
  let connected = 0;
  for (const a of targets) {
    try {
      await node.dial(multiaddr(a));
      connected++;
    } catch (e) {
      p.onError?.(e);
    }
  }
  if (connected === 0) {
    await node.stop();
    throw new Error(`could not dial ${targets.join(', ')}`);
  }
  return { peerId: node.peerId.toString(), peers: () => node.getPeers().map(String), stop: async () => { await node.stop(); } };
}
