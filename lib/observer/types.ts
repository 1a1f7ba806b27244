/**
 * The observer's live bus. The events themselves, the health report and the upload results
 * are wire types (lib/wire), re-exported here for the observer's callers.
 */
import type { LiveEvent } from '../wire/events';

export type { LiveEvent, LiveEventType } from '../wire/events';
export type { HealthReport, UploadItemResult } from '../wire/views';

export interface LiveBus {
  publish(event: LiveEvent): void;
  /** Returns an unsubscribe function. */
  subscribe(listener: (event: LiveEvent) => void): () => void;
}
