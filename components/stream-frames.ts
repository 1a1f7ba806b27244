/**
 * What the browser does with one `/api/stream` text frame: parse it against lib/wire's frame
 * schema, hand live events on, turn a `lagged` notice into a resync, and count anything else as
 * invalid instead of letting it reach the page state. Pure, so it is unit-tested on its own.
 */
import { type LiveEvent, parseStreamFrame } from '../lib/wire';

export interface FrameHandlers {
  onEvent(event: LiveEvent): void;
  /** The server dropped events for this client: reload a snapshot. */
  onResync?(): void;
  /** A frame that is not JSON or does not match its schema; it is otherwise ignored. */
  onInvalid?(error: string): void;
}

/** What {@link handleFrame} did with a frame. */
export type FrameOutcome = 'event' | 'resync' | 'hello' | 'invalid';

/** Handles one frame (never throws on bad input). */
export function handleFrame(text: unknown, h: FrameHandlers): FrameOutcome {
  const r = parseStreamFrame(text);
  if (!r.ok) {
    h.onInvalid?.(r.error);
    return 'invalid';
  }
  const f = r.frame;
  if (f.type === 'hello') return 'hello';
  if (f.type === 'lagged') {
    h.onResync?.();
    return 'resync';
  }
  h.onEvent(f);
  return 'event';
}
