/**
 * The browser's own node on the 0x01 mesh (docs/protocol.md §9 "Browser nodes"): libp2p with
 * Noise and Yamux, GossipSub with the mesh's settings (StrictNoSign, envelope id as message id),
 * subscribed to the three topics. It dials the observer's WebSocket listener, the one address a
 * browser can reach (agents listen on TCP); the observer forwards gossip like any GossipSub peer,
 * so the browser sees the gossip first-hand and checks every envelope itself.
 *
 * It also speaks WebRTC (the browser's own RTCPeerConnection): it reserves a relayed address on
 * the observer's circuit relay and listens on `/p2p-circuit` and `/webrtc`, so another browser
 * dials `<observer>/p2p-circuit/webrtc/p2p/<this peer>`: the SDP offer, answer and ICE
 * candidates cross the relay, then the two browsers talk directly and GossipSub runs over that
 * connection too. Browser-safe: no node:* and nothing from ./node.ts or ./shims.ts (checked by
 * .dependency-cruiser.cjs).
 */
import { noise } from '@chainsafe/libp2p-noise';
import { yamux } from '@chainsafe/libp2p-yamux';
import { circuitRelayTransport } from '@libp2p/circuit-relay-v2';
import { type GossipSub, gossipsub, StrictNoSign } from '@libp2p/gossipsub';
import { identify } from '@libp2p/identify';
import type { Connection, Libp2p } from '@libp2p/interface';
import { webRTC } from '@libp2p/webrtc';
import { webSockets } from '@libp2p/websockets';
import { multiaddr } from '@multiformats/multiaddr';
import { createLibp2p } from 'libp2p';
import { keccak256 } from '../protocol/crypto';
import { toHex } from '../protocol/hex';
import { GOSSIP_MAX_RPC_BYTES, MESH_TOPICS } from './constants';
import { type ConnectionTransport, isWebRtcCircuitAddr, isWebSocketAddr, transportOf } from './transports';

export { type ConnectionTransport, isWebRtcCircuitAddr, isWebSocketAddr, transportOf };

/** One open connection of the browser node, as the overview shows it. */
export interface BrowserConnection {
  /** Connection id (libp2p's), stable while it is open. */
  id: string;
  peer: string;
  /** The remote multiaddr. */
  addr: string;
  transport: ConnectionTransport;
  /** A relayed connection carries a data and time budget set by the relay (signalling only). */
  limited: boolean;
  direction: 'inbound' | 'outbound';
}

export interface BrowserNode {
  peerId: string;
  /** Connected peer ids. */
  peers(): string[];
  /** Open connections, with how each travels. */
  connections(): BrowserConnection[];
  /**
   * Addresses other browsers can dial this one at over WebRTC (through the observer's relay);
   * empty until the relay granted a reservation.
   */
  webrtcAddrs(): string[];
  /**
   * Dials another browser at one of its {@link BrowserNode.webrtcAddrs}; resolves with the
   * direct WebRTC connection. Throws TypeError for any other kind of address.
   */
  dialWebRtc(addr: string): Promise<BrowserConnection>;
  /** Peers in this node's GossipSub mesh for `topic` (they forward gossip to it). */
  meshPeers(topic: string): string[];
  stop(): Promise<void>;
}

export interface StartBrowserNodeParams {
  /** WebSocket multiaddrs with /p2p/<peerId> (the observer's, from /api/health). */
  dial: string[];
  /** Every gossip message on the three topics, as received (not yet validated). */
  onMessage(topic: string, data: Uint8Array, from: string): void;
  onError?(e: unknown): void;
  /** Connections opened or closed, or this node's own addresses changed. */
  onChange?(): void;
  /** Passed to every RTCPeerConnection (STUN/TURN servers); libp2p's public STUN list by default. */
  rtcConfiguration?: RTCConfiguration;
}

const describe = (c: Connection): BrowserConnection => {
  const addr = c.remoteAddr.toString();
  return {
    id: c.id,
    peer: c.remotePeer.toString(),
    addr,
    transport: transportOf(addr),
    limited: c.limits != null,
    direction: c.direction,
  };
};

export async function startBrowserNode(p: StartBrowserNodeParams): Promise<BrowserNode> {
  const targets = p.dial.filter(isWebSocketAddr);
  if (targets.length === 0)
    throw new Error('the observer listens on no WebSocket address (OBSERVER_LISTEN needs a /ws multiaddr)');
  const node = (await createLibp2p({
    // '/p2p-circuit' asks circuitRelayTransport for a reservation on a relay it is connected to
    // (the observer, found through identify); '/webrtc' makes that relayed address a WebRTC one.
    addresses: { listen: ['/p2p-circuit', '/webrtc'] },
    transports: [
      webSockets(),
      webRTC(p.rtcConfiguration ? { rtcConfiguration: p.rtcConfiguration } : {}),
      circuitRelayTransport(),
    ],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    // A WebRTC dial is several round trips through the observer (relay hop, Noise over the
    // relayed hop, SDP offer and answer, ICE): on a busy observer that outlasts libp2p's 6 s
    // per-address default, and a timed-out dial leaves the viewer with nothing. With the
    // observer's process starved of CPU (load ~20 on 2 cores) the relay hop and the Noise
    // handshake over it alone took 17 s before the signalling started, so the budget leaves
    // room for that twice over. The answering browser's side of the same dial is bounded by
    // inboundUpgradeTimeout (10 s by default), twice: once for the relayed connection (Noise
    // and Yamux through the relay) and once for the signalling and ICE; it gave up on the
    // relayed connection in the middle of a dial that was still within the dialler's budget.
    connectionManager: { addressDialTimeout: 40_000, dialTimeout: 60_000, inboundUpgradeTimeout: 40_000 },
    // libp2p aborts a connection whose ping is not answered within an adaptive timeout that
    // starts at 5 s; a busy observer answers late but is alive, and the WebSocket to it is this
    // node's only way onto the mesh (and to its relay), so a slow pong is not taken as a death.
    connectionMonitor: { pingTimeout: { minTimeout: 20_000 } },
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
  const changed = () => {
    try {
      p.onChange?.();
    } catch (e) {
      p.onError?.(e);
    }
  };
  node.addEventListener('connection:open', changed);
  node.addEventListener('connection:close', changed);
  node.addEventListener('self:peer:update', changed);
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
  return {
    peerId: node.peerId.toString(),
    peers: () => node.getPeers().map(String),
    connections: () => node.getConnections().map(describe),
    webrtcAddrs: () => node.getMultiaddrs().map(String).filter(isWebRtcCircuitAddr),
    async dialWebRtc(addr) {
      if (typeof addr !== 'string' || !isWebRtcCircuitAddr(addr.trim())) {
        throw new TypeError('not a browser WebRTC address (expected …/p2p-circuit/webrtc/p2p/<peer id>)');
      }
      const ma = multiaddr(addr.trim());
      if (ma.getComponents().findLast((c) => c.name === 'p2p')?.value === node.peerId.toString()) {
        throw new TypeError("that is this browser's own address");
      }
      const conn = await node.dial(ma);
      // The relayed hop only carried the signalling; closing it now frees the relay's budget
      // instead of holding it until the relay's duration limit ends it.
      for (const c of node.getConnections(conn.remotePeer))
        if (c.limits != null && c.id !== conn.id) void c.close().catch(() => undefined);
      return describe(conn);
    },
    // getMeshPeers is on the implementation, not on gossipsub's exported interface (node.ts does the same).
    meshPeers: (topic) => (gs as unknown as { getMeshPeers(t: string): string[] }).getMeshPeers(topic).map(String),
    stop: async () => {
      await node.stop();
    },
  };
}
