/**
 * The graph layout's Web Worker (components/graph/layout.ts): the force simulation runs here,
 * off the main thread, which only paints and handles input.
 */
import { createLayout, type ToLayout } from './layout';

const scope = self as unknown as {
  postMessage(msg: unknown, transfer: Transferable[]): void;
  onmessage: ((e: MessageEvent<ToLayout>) => void) | null;
};
const handle = createLayout((msg, transfer) => scope.postMessage(msg, transfer));
scope.onmessage = (e) => handle(e.data);
