/**
 * Process-global handle on the running observatory, so Next.js route handlers (loaded by a
 * different module graph than the custom server) find the instance the server started.
 * Kept on globalThis under a Symbol.for key: one per process, shared across module copies.
 */
import 'server-only';
import type { Observatory } from './observatory';

const KEY = Symbol.for('zerox1.observatory');
type Holder = { [KEY]?: Observatory };

/** Registers the running observatory (or clears it with undefined). */
export function setObservatory(o: Observatory | undefined): void {
  (globalThis as Holder)[KEY] = o;
}

/** The running observatory of this process, or undefined before start / after stop. */
export function getObservatory(): Observatory | undefined {
  return (globalThis as Holder)[KEY];
}
