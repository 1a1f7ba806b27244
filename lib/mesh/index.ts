/**
 * lib/mesh: the libp2p node shared by the observer and the agents (docs/architecture.md "Mesh",
 * docs/protocol.md §9, 0x01 spec §11). The only area that imports libp2p.
 */
export { installMeshShims } from './shims';
export { createMeshNode, type MeshNode } from './node';
export { topicFor, isMeshTopic } from './topics';
export { generateMeshKey, meshPeerIdOf } from './keys';
export { PeerRateLimiter, type PeerRateLimiterParams } from './rate-limit';
export { MeshError, MeshSendError, MeshStoppedError } from './errors';
export type { SendTarget } from './envelope-stream';
export {
  TOPIC_BROADCAST,
  TOPIC_NOTARY,
  TOPIC_REPUTATION,
  MESH_TOPICS,
  ENVELOPE_PROTOCOL,
  DHT_PROTOCOL,
  DEFAULT_MESH_LIMITS,
  DEFAULT_RELAY_LIMITS,
  DEFAULT_LISTEN,
  type MeshTopic,
  type MeshLimits,
  type RelayLimits,
} from './constants';
export type * from './types';
