/**
 * The observatory runtime as seen by the web app and the API routes.
 * Live event names follow the 0x01 spec §9 event stream.
 */

export type LiveEventType =
  | 'message'
  | 'agent_joined'
  | 'reputation_update'
  | 'notary_assigned'
  | 'verdict_issued'
  | 'dispute_raised'
  | 'drop'
  | 'agent_deactivated'
  | 'lease_paid'
  | 'stake_locked'
  | 'stake_slashed'
  | 'batch_submitted'
  | 'challenge_submitted'
  | 'challenge_resolved';

/** One event on the live bus and on the `/api/stream` WebSocket (JSON, bytes as lowercase hex, bigints as decimal strings). */
export interface LiveEvent {
  type: LiveEventType;
  /** Unix milliseconds when the observatory emitted it. */
  at: number;
  data: Record<string, unknown>;
}

export interface LiveBus {
  publish(event: LiveEvent): void;
  /** Returns an unsubscribe function. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
}

export interface HealthReport {
  ok: boolean;
  database: { ok: boolean; kind: 'pglite' | 'postgres'; error?: string };
  mesh: { peerId: string; peers: number; multiaddrs: string[] };
  counts: { envelopes: number; agents: number; drops: number; conversations: number };
  chain?: { ok: boolean; rpcUrl: string; slot?: number };
}

/** Per-item result of an upload to POST /api/ingest/envelopes. */
export type UploadItemResult =
  | { index: number; ok: true; id: string; duplicate: boolean }
  | { index: number; ok: false; reason: string; detail?: string };
