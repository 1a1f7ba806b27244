/**
 * The configuration the observer runs with. The process reads it from the environment with one
 * checked schema (server/config.ts); the defaults live here so the observer's tests and benches
 * build the same configuration without the server. Defaults: embedded PGlite in `.data/`,
 * PORT 3000, loopback TCP + WebSocket listeners, 8 demo agents, 86,400 s epochs
 * (docs/chain.md "Epochs, leases, stakes, challenges").
 */
import { DEFAULT_RELAY_LIMITS } from '../mesh/constants';
import { DEFAULT_EPOCH_SECONDS } from '../protocol/constants';

/** Default listen addresses of the observer node: TCP and WebSockets on loopback, ephemeral ports. */
export const DEFAULT_OBSERVER_LISTEN = ['/ip4/127.0.0.1/tcp/0', '/ip4/127.0.0.1/tcp/0/ws'] as const;
/** HTTP port unless PORT says otherwise. */
export const DEFAULT_PORT = 3000;
/** Demo agents unless DEMO_AGENTS says otherwise. */
export const DEFAULT_DEMO_AGENTS = 8;
/** Browser nodes holding a relay reservation on the observer at once unless RELAY_RESERVATIONS says otherwise. */
export const DEFAULT_RELAY_RESERVATIONS = DEFAULT_RELAY_LIMITS.maxReservations;
/** Where PGlite and the embedded chain keep their files unless DATA_DIR says otherwise. */
export const DEFAULT_DATA_DIR = '.data';

/** How much accepted-but-unstored data the observer holds in memory. */
export interface IngestBufferLimits {
  /** Envelopes waiting or in flight. */
  maxEnvelopes: number;
  /** Their raw (signed CBOR) bytes. */
  maxBytes: number;
}

/**
 * Unless INGEST_BUFFER_ENVELOPES / INGEST_BUFFER_MB say otherwise (lib/observer/store-outage.ts):
 * 200,000 envelopes or 256 MiB of raw envelopes, whichever comes first: 200 s of a 1,000/s mesh,
 * a few hundred MB of heap with the decoded envelopes beside their bytes.
 */
export const DEFAULT_INGEST_BUFFER: IngestBufferLimits = { maxEnvelopes: 200_000, maxBytes: 256 * 1024 * 1024 };

/** Checked configuration of one observatory. */
export interface ObservatoryConfig {
  /** postgres://… ; undefined = embedded PGlite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  port: number;
  /** Multiaddrs the observer's libp2p node listens on. */
  listen: string[];
  /** Multiaddrs of peers to dial at start. */
  bootstrap: string[];
  /** Demo agents to run beside the observer; 0 disables the demo mesh. */
  demoAgents: number;
  epochSeconds: number;
  /** Worker threads checking live signatures; undefined = available cores − 1 (at least 1), 0 = none. */
  verifyWorkers?: number;
  solanaRpcUrl?: string;
  solanaWsUrl?: string;
  /** Bounds of the buffer of accepted envelopes not yet stored (lib/observer/store-outage.ts); unset = its defaults. */
  ingestBuffer?: { maxEnvelopes?: number; maxBytes?: number };
  /**
   * Browser nodes that may hold a circuit relay reservation on the observer at once (they signal
   * WebRTC connections to each other through it, docs/protocol.md §9); 0 = the observer relays
   * nothing; undefined = DEFAULT_RELAY_RESERVATIONS.
   */
  relayReservations?: number;
  /**
   * libp2p's own metrics (connections, streams, bytes per protocol, Noise and Yamux counters) in
   * /metrics besides GossipSub's and the observer's. Off by default: bench:ingest measured them at
   * 5-20 % more observer CPU per envelope (they count every frame of every stream).
   */
  libp2pMetrics?: boolean;
}

/** The configuration of an empty environment, with `overrides` on top (tests, benches). */
export function defaultObservatoryConfig(overrides: Partial<ObservatoryConfig> = {}): ObservatoryConfig {
  return {
    databaseUrl: undefined,
    dataDir: DEFAULT_DATA_DIR,
    port: DEFAULT_PORT,
    listen: [...DEFAULT_OBSERVER_LISTEN],
    bootstrap: [],
    demoAgents: DEFAULT_DEMO_AGENTS,
    epochSeconds: DEFAULT_EPOCH_SECONDS,
    verifyWorkers: undefined,
    solanaRpcUrl: undefined,
    solanaWsUrl: undefined,
    ingestBuffer: undefined,
    relayReservations: DEFAULT_RELAY_RESERVATIONS,
    libp2pMetrics: false,
    ...overrides,
  };
}
