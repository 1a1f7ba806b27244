/**
 * How a browser node's connection travels, read from its multiaddr (docs/protocol.md §9
 * "Browser nodes"): WebSockets to the observer, a relayed hop through the observer's circuit
 * relay (signalling only, limited), or a direct WebRTC connection to another browser. Pure and
 * browser-safe: the overview's panel and the browser node share it.
 */

export type ConnectionTransport = 'websocket' | 'webrtc' | 'relayed' | 'other';

/**
 * A WebRTC connection's address still names the relay it was signalled through
 * (`…/p2p-circuit/webrtc/p2p/<peer>`) although its data no longer passes there, so `/webrtc`
 * is checked before `/p2p-circuit`.
 */
export function transportOf(addr: string): ConnectionTransport {
  if (/\/webrtc(-direct)?(\/|$)/.test(addr)) return 'webrtc';
  if (/\/p2p-circuit(\/|$)/.test(addr)) return 'relayed';
  if (/\/(ws|wss|tls\/ws)(\/|$)/.test(addr)) return 'websocket';
  return 'other';
}

/** Only /ws and /wss addresses: a browser cannot dial TCP. */
export const isWebSocketAddr = (a: string): boolean => /\/(ws|wss|tls\/ws)(\/p2p\/[^/]+)?$/.test(a);

/**
 * A browser's address another browser can dial over WebRTC: a reservation on a relay, then
 * `/webrtc/p2p/<peer>` (e.g. `/ip4/…/tcp/…/ws/p2p/<relay>/p2p-circuit/webrtc/p2p/<peer>`).
 */
export const isWebRtcCircuitAddr = (a: string): boolean => /\/p2p-circuit\/webrtc\/p2p\/[^/]+$/.test(a);
