/**
 * Node 20 runtime shims that libp2p 3 needs (lib/mesh/README.md "Node 20"). The same shims are
 * installed by `scripts/setup-node.mjs` for every process the project launches; this copy lets
 * a library user that does not load that file still build a mesh node.
 */
import { createRequire } from 'node:module';

/**
 * Installs, once and only where missing: `Promise.withResolvers` (libp2p 3 and its
 * dependencies call it; Node 22+ has it) and a global `WebSocket` from the `ws` package
 * (`@libp2p/websockets` dials through it; Node 20 has one only behind a flag).
 * Idempotent; returns the names of the shims it installed on this call.
 */
export function installMeshShims(): string[] {
  const installed: string[] = [];
  const P = Promise as unknown as { withResolvers?: unknown };
  if (typeof P.withResolvers !== 'function') {
    P.withResolvers = function withResolvers<T>(this: PromiseConstructor) {
      let resolve!: (v: T | PromiseLike<T>) => void;
      let reject!: (e?: unknown) => void;
      const promise = new this<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    };
    installed.push('Promise.withResolvers');
  }
  const g = globalThis as unknown as { WebSocket?: unknown };
  if (typeof g.WebSocket !== 'function') {
    const require = createRequire(import.meta.url);
    g.WebSocket = (require('ws') as { WebSocket: unknown }).WebSocket;
    installed.push('WebSocket');
  }
  return installed;
}

// Installed at import time so that modules importing this one first (lib/mesh/node.ts does)
// see the shims before any libp2p module body runs.
installMeshShims();
