/**
 * Checks createMeshNode parameters (bad config is rejected at construction with a message
 * naming the field) and fills defaults from constants.ts.
 */
import { multiaddr } from '@multiformats/multiaddr';
import {
  DEFAULT_LISTEN,
  DEFAULT_MESH_LIMITS,
  DEFAULT_RELAY_LIMITS,
  MESH_TOPICS,
  type MeshLimits,
  type MeshTopic,
  type RelayLimits,
} from './constants';
import { isMeshTopic } from './topics';
import type { CreateMeshNodeParams } from './types';

export interface ResolvedMeshConfig {
  listen: string[];
  bootstrap: string[];
  mdns: boolean;
  dht: boolean;
  topics: MeshTopic[];
  limits: MeshLimits;
  now: () => number;
  heartbeatMs: number;
  /** Circuit relay limits, or null when the node relays nothing. */
  relay: RelayLimits | null;
  signaturePolicy: 'StrictNoSign' | 'StrictSign';
}

function signaturePolicy(v: unknown): ResolvedMeshConfig['signaturePolicy'] {
  if (v === undefined) return 'StrictNoSign';
  if (v !== 'StrictNoSign' && v !== 'StrictSign')
    throw new TypeError(`params.signaturePolicy must be 'StrictNoSign' or 'StrictSign', got ${JSON.stringify(v)}`);
  return v;
}

function addrList(name: string, v: unknown, fallback: readonly string[]): string[] {
  if (v === undefined) return [...fallback];
  if (!Array.isArray(v)) throw new TypeError(`${name} must be an array of multiaddr strings`);
  return v.map((a, i) => {
    if (typeof a !== 'string') throw new TypeError(`${name}[${i}] must be a multiaddr string`);
    try {
      multiaddr(a);
    } catch (cause) {
      throw new TypeError(`${name}[${i}] is not a valid multiaddr: ${a}`, { cause });
    }
    return a;
  });
}

function bool(name: string, v: unknown, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (typeof v !== 'boolean') throw new TypeError(`${name} must be a boolean`);
  return v;
}

function positiveInt(name: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be an integer >= 1`);
  return v;
}

/** Validates and defaults every parameter except the key (see keys.ts). */
export function resolveMeshConfig(params: CreateMeshNodeParams): ResolvedMeshConfig {
  if (params === null || typeof params !== 'object') throw new TypeError('params must be an object');
  if (typeof params.validate !== 'function') throw new TypeError('params.validate must be a function');
  if (params.onEnvelope !== undefined && typeof params.onEnvelope !== 'function') {
    throw new TypeError('params.onEnvelope must be a function');
  }
  if (params.onAccepted !== undefined && typeof params.onAccepted !== 'function') {
    throw new TypeError('params.onAccepted must be a function');
  }
  if (params.onDrop !== undefined && typeof params.onDrop !== 'function') {
    throw new TypeError('params.onDrop must be a function');
  }
  if (params.now !== undefined && typeof params.now !== 'function')
    throw new TypeError('params.now must be a function');
  const bootstrap = addrList('params.bootstrap', params.bootstrap, []);
  bootstrap.forEach((a, i) => {
    if (!a.includes('/p2p/')) throw new TypeError(`params.bootstrap[${i}] must end with /p2p/<peer id>: ${a}`);
  });
  let topics: MeshTopic[] = [...MESH_TOPICS];
  if (params.topics !== undefined) {
    if (!Array.isArray(params.topics)) throw new TypeError('params.topics must be an array');
    params.topics.forEach((t, i) => {
      if (!isMeshTopic(t)) throw new TypeError(`params.topics[${i}] is not a docs/protocol.md §9 topic: ${String(t)}`);
    });
    topics = [...new Set(params.topics)];
  }
  const l = params.limits ?? {};
  if (typeof l !== 'object' || l === null) throw new TypeError('params.limits must be an object');
  const limits: MeshLimits = {
    maxConnections: positiveInt('params.limits.maxConnections', l.maxConnections ?? DEFAULT_MESH_LIMITS.maxConnections),
    messagesPerSecond: positiveInt(
      'params.limits.messagesPerSecond',
      l.messagesPerSecond ?? DEFAULT_MESH_LIMITS.messagesPerSecond,
    ),
    burst: positiveInt('params.limits.burst', l.burst ?? DEFAULT_MESH_LIMITS.burst),
    maxMessageBytes: positiveInt(
      'params.limits.maxMessageBytes',
      l.maxMessageBytes ?? DEFAULT_MESH_LIMITS.maxMessageBytes,
    ),
  };
  return {
    listen: addrList('params.listen', params.listen, DEFAULT_LISTEN),
    bootstrap,
    mdns: bool('params.mdns', params.mdns, false),
    dht: bool('params.dht', params.dht, true),
    topics,
    limits,
    now: params.now ?? Date.now,
    heartbeatMs: positiveInt('params.heartbeatMs', params.heartbeatMs ?? 1000),
    signaturePolicy: signaturePolicy(params.signaturePolicy),
    relay: relayLimits(params.relay),
  };
}

function relayLimits(v: CreateMeshNodeParams['relay']): RelayLimits | null {
  if (v === undefined || v === false) return null;
  if (v === true) return { ...DEFAULT_RELAY_LIMITS };
  if (typeof v !== 'object' || v === null)
    throw new TypeError('params.relay must be a boolean or an object of relay limits');
  const data = v.dataLimitBytes ?? DEFAULT_RELAY_LIMITS.dataLimitBytes;
  if (typeof data !== 'bigint' || data < 1n) throw new RangeError('params.relay.dataLimitBytes must be a bigint >= 1');
  return {
    maxReservations: positiveInt(
      'params.relay.maxReservations',
      v.maxReservations ?? DEFAULT_RELAY_LIMITS.maxReservations,
    ),
    reservationTtlMs: positiveInt(
      'params.relay.reservationTtlMs',
      v.reservationTtlMs ?? DEFAULT_RELAY_LIMITS.reservationTtlMs,
    ),
    durationLimitMs: positiveInt(
      'params.relay.durationLimitMs',
      v.durationLimitMs ?? DEFAULT_RELAY_LIMITS.durationLimitMs,
    ),
    dataLimitBytes: data,
    hopTimeoutMs: positiveInt('params.relay.hopTimeoutMs', v.hopTimeoutMs ?? DEFAULT_RELAY_LIMITS.hopTimeoutMs),
    maxHopStreams: positiveInt('params.relay.maxHopStreams', v.maxHopStreams ?? DEFAULT_RELAY_LIMITS.maxHopStreams),
  };
}
