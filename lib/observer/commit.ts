/**
 * Commit-and-publish (docs/architecture.md "Data flow"): everything validated goes through the
 * store's batched ingest queue; each committed batch turns into live events for the envelopes it
 * really stored (a re-seen envelope makes none), handed to `publish` in one call per batch.
 */

import type { MeshAcceptedHandler } from '../mesh';
import { toHex } from '../protocol/hex';
import type { ReputationState } from '../protocol/reputation';
import type { IngestItem, IngestResult } from '../store';
import { createIngestQueue, type IngestQueue, type IngestTarget } from '../store';
import { eventsFor } from './events';
import type { LiveEvent } from './types';

const NONE: Uint8Array[] = [];

/**
 * The `onCommit` of the ingest queue: events for the stored items in batch order, with
 * `agent_joined` before the first message naming each agent the batch added, and the gossip
 * reputation fold kept across batches. Exported for tests; {@link createCommitQueue} uses it.
 */
export function createCommitPublisher(params: {
  clock: () => number;
  publish: (events: LiveEvent[]) => void;
}): (stored: readonly IngestItem[], result: IngestResult) => void {
  const { clock, publish } = params;
  const reputations = new Map<string, ReputationState>();
  return (stored, result) => {
    const pendingAgents = result.newAgents.length > 0 ? new Map(result.newAgents.map((a) => [toHex(a), a])) : undefined;
    const at = clock();
    const events: LiveEvent[] = [];
    for (const item of stored) {
      let joined: Uint8Array[] = NONE;
      if (pendingAgents !== undefined && pendingAgents.size > 0) {
        for (const who of [item.envelope.sender, item.envelope.recipient]) {
          const k = toHex(who);
          const a = pendingAgents.get(k);
          if (a) {
            if (joined === NONE) joined = [];
            joined.push(a);
            pendingAgents.delete(k);
          }
        }
      }
      for (const e of eventsFor(item, joined, reputations, at)) events.push(e);
    }
    publish(events);
  };
}

/**
 * The observer's ingest queue: batches of up to 500 in one transaction (two in flight on
 * Postgres, one on PGlite), each commit published through {@link createCommitPublisher}.
 */
export function createCommitQueue(
  store: IngestTarget & { kind: 'pglite' | 'postgres' },
  params: { clock: () => number; publish: (events: LiveEvent[]) => void },
): IngestQueue {
  return createIngestQueue(store, {
    concurrency: store.kind === 'postgres' ? 2 : 1,
    // A partial batch goes after 2 ms (or at once when a slot is free and the timer fires):
    // at low rates latency stays near one commit; under load batches fill to 500 regardless.
    maxDelayMs: 2,
    onCommit: createCommitPublisher(params),
  });
}

/** Decides whether an accepted envelope is queued (see store-outage.ts) and counts it when not. */
export interface IngestGate {
  admit(queue: IngestQueue, bytes: number): string | undefined;
  shed(reason: string, peer: string, via: string): void;
}

/**
 * What the mesh calls with each envelope it accepted: the validated, decoded envelope and its id
 * go onto the ingest queue as they are (no second decode), unless `gate` sheds it (buffer full).
 * One shared failure handler, no closure per envelope: this is the hot path.
 */
export function ingestAccepted(
  queue: IngestQueue,
  clock: () => number,
  onError: (e: unknown) => void,
  gate?: IngestGate,
): MeshAcceptedHandler {
  return (r, bytes, meta) => {
    if (gate) {
      const shed = gate.admit(queue, bytes.byteLength);
      if (shed !== undefined) {
        gate.shed(shed, meta.peer, meta.via);
        return;
      }
    }
    queue
      .push({
        id: r.id,
        envelope: r.envelope,
        raw: bytes,
        source: meta.via,
        topic: meta.via === 'gossip' ? meta.topic : undefined,
        receivedAt: new Date(clock()),
      })
      .catch(onError);
  };
}
