import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sampleEvent } from '../wire/testing';
import { createLiveBus } from './bus';
import type { LiveEvent } from './types';

test('bus delivers in order, isolates throwing listeners, unsubscribes', () => {
  const errors: unknown[] = [];
  const bus = createLiveBus((e) => errors.push(e));
  const got: string[] = [];
  const un = bus.subscribe((e) => got.push(`a:${e.type}`));
  bus.subscribe(() => {
    throw new Error('boom');
  });
  bus.subscribe((e) => got.push(`c:${e.type}`));
  const ev = (type: LiveEvent['type']): LiveEvent => sampleEvent(type);
  bus.publish(ev('message'));
  un();
  bus.publish(ev('drop'));
  assert.deepEqual(got, ['a:message', 'c:message', 'c:drop']);
  assert.equal(errors.length, 2);
  assert.equal(bus.size(), 2);
  assert.throws(() => bus.subscribe(undefined as never), /listener/);
});
