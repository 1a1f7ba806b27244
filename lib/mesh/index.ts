/**
 * lib/mesh: the libp2p node shared by the observer and the agents (docs/architecture.md "Mesh",
 * docs/protocol.md §9, 0x01 spec §11). The only area that imports libp2p.
 */

export {
  DEFAULT_LISTEN,
  DEFAULT_MESH_LIMITS,
  DEFAULT_RELAY_LIMITS,
  DHT_PROTOCOL,
  ENVELOPE_PROTOCOL,
  MESH_TOPICS,
  type MeshLimits,
  type MeshTopic,
  type RelayLimits,
  TOPIC_BROADCAST,
  TOPIC_NOTARY,
  TOPIC_REPUTATION,
} from './constants';
export type { SendTarget } from './envelope-stream';
export { MeshError, MeshSendError, MeshStoppedError } from './errors';
export { generateMeshKey, meshPeerIdOf } from './keys';
export { createMeshNode, type MeshNode } from './node';
export { PeerRateLimiter, type PeerRateLimiterParams } from './rate-limit';
export { installMeshShims } from './shims';
export { isMeshTopic, topicFor } from './topics';
export type * from './types';
