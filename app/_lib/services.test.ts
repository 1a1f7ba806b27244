/**
 * The services registry: one slot per process, on globalThis, so a second copy of the module (as
 * Next's route bundles have) sees what the server registered.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getServices, registerServices, type Services } from './services';

const fake = (tag: string) => ({ observatory: { tag }, reads: { tag }, config: { tag } }) as unknown as Services;

test('register, read from another module copy, refuse a second registration, clear', async () => {
  assert.equal(getServices(), undefined);
  const a = fake('a');
  registerServices(a);
  assert.equal(getServices(), a);
  // A fresh copy of the module (a different module graph, as a route bundle) sees the same slot.
  const copy = (await import(`./services.ts?copy=${Date.now()}`)) as typeof import('./services');
  assert.notEqual(copy.getServices, getServices);
  assert.equal(copy.getServices(), a);
  assert.throws(() => registerServices(fake('b')), /already registered/);
  registerServices(a); // the same services again: no-op
  registerServices(undefined);
  assert.equal(copy.getServices(), undefined);
  assert.throws(
    () => registerServices({ observatory: {} } as unknown as Services),
    /need observatory, reads and config/,
  );
  assert.equal(getServices(), undefined);
});
