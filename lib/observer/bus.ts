/**
 * In-process live bus (0x01 spec §9 event stream). Listeners run synchronously in publish
 * order; a throwing listener is isolated and logged, never breaking ingest or other listeners.
 */
import type { LiveBus, LiveEvent } from './types';

/** Creates a {@link LiveBus}. `onListenerError` defaults to console.error. */
export function createLiveBus(
  onListenerError: (err: unknown) => void = (e) => console.error('live bus listener threw', e),
): LiveBus & { size(): number } {
  const listeners = new Set<(event: LiveEvent) => void>();
  return {
    publish(event) {
      for (const l of listeners) {
        try {
          l(event);
        } catch (err) {
          onListenerError(err);
        }
      }
    },
    subscribe(listener) {
      if (typeof listener !== 'function') throw new TypeError('listener must be a function');
      // Wrap so the same function subscribed twice gets two independent subscriptions.
      const wrapped = (e: LiveEvent) => listener(e);
      listeners.add(wrapped);
      return () => {
        listeners.delete(wrapped);
      };
    },
    size: () => listeners.size,
  };
}
