import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isWebRtcCircuitAddr, isWebSocketAddr, transportOf } from './transports';

const RELAY = '12D3KooWRelay';
const PEER = '12D3KooWPeer';

test('transportOf reads WebSockets, relayed hops and WebRTC from a connection address', () => {
  assert.equal(transportOf(`/ip4/127.0.0.1/tcp/4002/ws/p2p/${RELAY}`), 'websocket');
  assert.equal(transportOf('/dns4/obs.example/tcp/443/tls/ws'), 'websocket');
  assert.equal(transportOf('/dns4/obs.example/tcp/443/wss'), 'websocket');
  assert.equal(transportOf(`/ip4/127.0.0.1/tcp/4002/ws/p2p/${RELAY}/p2p-circuit/p2p/${PEER}`), 'relayed');
  // Signalled through the relay, but the data goes browser to browser.
  assert.equal(transportOf(`/ip4/127.0.0.1/tcp/4002/ws/p2p/${RELAY}/p2p-circuit/webrtc/p2p/${PEER}`), 'webrtc');
  assert.equal(transportOf(`/ip4/192.0.2.2/udp/9/webrtc-direct/certhash/uEi/p2p/${PEER}`), 'webrtc');
  assert.equal(transportOf('/ip4/127.0.0.1/tcp/4001'), 'other');
  // Names that merely start like a transport are not one.
  assert.equal(transportOf('/dns4/webrtcfoo/tcp/1'), 'other');
  assert.equal(transportOf('/dns4/wsx/tcp/1'), 'other');
});

test('a browser dials only WebSocket addresses, and shares only a relayed WebRTC address', () => {
  assert.ok(isWebSocketAddr(`/ip4/127.0.0.1/tcp/4002/ws/p2p/${RELAY}`));
  assert.ok(!isWebSocketAddr(`/ip4/127.0.0.1/tcp/4001/p2p/${RELAY}`));
  assert.ok(isWebRtcCircuitAddr(`/ip4/127.0.0.1/tcp/4002/ws/p2p/${RELAY}/p2p-circuit/webrtc/p2p/${PEER}`));
  assert.ok(!isWebRtcCircuitAddr(`/ip4/127.0.0.1/tcp/4002/ws/p2p/${RELAY}/p2p-circuit/p2p/${PEER}`));
  assert.ok(!isWebRtcCircuitAddr(`/ip4/127.0.0.1/tcp/4002/ws/p2p/${RELAY}/p2p-circuit/webrtc`));
});
