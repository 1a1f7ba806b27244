import { test } from 'node:test';
import assert from 'node:assert/strict';
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
  assert.equal(typeof Promise.withResolvers, 'function');
  const { promise, resolve } = Promise.withResolvers<number>();
  resolve(7);
  return promise.then((v) => assert.equal(v, 7));
});
