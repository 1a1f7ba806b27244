/**
 * Message type → transport mapping (docs/protocol.md §9).
 */
import { MsgType } from '../protocol/types';
import { MESH_TOPICS, type MeshTopic, TOPIC_BROADCAST, TOPIC_NOTARY, TOPIC_REPUTATION } from './constants';

const BY_TYPE: ReadonlyMap<number, MeshTopic> = new Map<number, MeshTopic>([
  [MsgType.ADVERTISE, TOPIC_BROADCAST],
  [MsgType.DISCOVER, TOPIC_BROADCAST],
  [MsgType.BEACON, TOPIC_BROADCAST],
  [MsgType.NOTARIZE_BID, TOPIC_NOTARY],
  [MsgType.FEEDBACK, TOPIC_REPUTATION],
]);

/**
 * The GossipSub topic a message type is published on (docs/protocol.md §9), or `null` for a
 * bilateral type that travels on the `/0x01/v1/envelope` stream. Unknown types give `null`.
 */
export function topicFor(msgType: number): MeshTopic | null {
  return BY_TYPE.get(msgType) ?? null;
}

/** True when `topic` is one of the three docs/protocol.md §9 topics. */
export function isMeshTopic(topic: unknown): topic is MeshTopic {
  return typeof topic === 'string' && (MESH_TOPICS as readonly string[]).includes(topic);
}
