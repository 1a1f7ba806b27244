import assert from 'node:assert/strict';
import { test } from 'node:test';
import { handleFrame } from '../../components/stream-frames';
import { eventJson } from '../observer/events';
import { LIVE_EVENT_TYPES, type LiveEvent } from '.';
import { sampleEvent } from './testing';

function collector() {
  const events: LiveEvent[] = [];
  const invalid: string[] = [];
  let resyncs = 0;
  return {
    events,
    invalid,
    resyncs: () => resyncs,
    h: {
      onEvent: (e: LiveEvent) => events.push(e),
      onResync: () => void resyncs++,
      onInvalid: (e: string) => invalid.push(e),
    },
  };
}

test('every event type the server serialises reaches onEvent unchanged', () => {
  const c = collector();
  for (const t of LIVE_EVENT_TYPES) assert.equal(handleFrame(eventJson(sampleEvent(t)), c.h), 'event');
  assert.deepEqual(
    c.events,
    LIVE_EVENT_TYPES.map((t) => sampleEvent(t)),
  );
  assert.deepEqual(c.invalid, []);
});

test('hello is ignored, lagged asks for a resync', () => {
  const c = collector();
  assert.equal(handleFrame('{"type":"hello","at":1,"data":{}}', c.h), 'hello');
  assert.equal(handleFrame('{"type":"lagged","at":2,"data":{"dropped":3}}', c.h), 'resync');
  assert.equal(c.resyncs(), 1);
  assert.equal(c.events.length, 0);
});

test('bad frames are counted and never reach onEvent or throw', () => {
  const c = collector();
  const frames: unknown[] = [
    'not json',
    '{"type":"message","at":1,"data":{}}',
    '{"type":"drop","at":1,"data":{"reason":"x","count":"5","total":5}}',
    '[]',
    'null',
    new ArrayBuffer(4),
    '{"type":"nope","at":1,"data":{}}',
  ];
  for (const f of frames) assert.equal(handleFrame(f, c.h), 'invalid');
  assert.equal(c.invalid.length, frames.length);
  assert.equal(c.events.length, 0);
  assert.match(c.invalid[2], /^data\.count: /);
});
