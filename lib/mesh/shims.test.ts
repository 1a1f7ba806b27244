import assert from 'node:assert/strict';
import { test } from 'node:test';
import { installMeshShims } from './shims';

test('installMeshShims is idempotent and installs only what is missing', () => {
  assert.deepEqual(installMeshShims(), []); // setup-node.mjs (or the import) already did
  const g = globalThis as { WebSocket?: unknown };
  const saved = g.WebSocket;
  try {
    delete g.WebSocket;
    assert.deepEqual(installMeshShims(), ['WebSocket']);
    assert.equal(typeof g.WebSocket, 'function');
    assert.equal((g.WebSocket as { name: string }).name, 'WebSocket');
    assert.deepEqual(installMeshShims(), []);
  } finally {
    g.WebSocket = saved;
  }
  // Promise.withResolvers is Node 22 / ES2024: the shim provides it on Node 20.
  const P = Promise as unknown as { withResolvers<T>(): { promise: Promise<T>; resolve(v: T): void } };
  assert.equal(typeof P.withResolvers, 'function');
  const { promise, resolve } = P.withResolvers<number>();
  resolve(7);
  return promise.then((v: number) => assert.equal(v, 7));
});
