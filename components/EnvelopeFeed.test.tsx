// The envelope feed on an agent's page: the agent itself is "this agent", not a link to the page it is on,
// and a row is drawn from the fields it shows (the page hands the browser no more).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import { EnvelopeFeed, feedEnvelope } from './EnvelopeFeed';

const A = '11'.repeat(32),
  B = '22'.repeat(32);
const env = {
  id: 'ee'.repeat(32),
  msgType: 1,
  type: 'PROPOSE',
  sender: A,
  recipient: B,
  conversationId: 'ab'.repeat(16),
  timestampMs: 1_800_000_000_000,
  receivedAtMs: 1_800_000_000_100,
  source: 'gossip',
  topic: '/0x01/v1/x',
  nonce: '7',
  payloadLen: 20,
};

test('a row is drawn from its feed fields alone', () => {
  const row = feedEnvelope(env);
  assert.deepEqual(Object.keys(row).sort(), ['conversationId', 'id', 'recipient', 'sender', 'timestampMs', 'type']);
  assert.equal(
    renderToStaticMarkup(<EnvelopeFeed envelopes={[row]} />),
    renderToStaticMarkup(<EnvelopeFeed envelopes={[env]} />),
  );
});

test('on an agent\'s page the agent is named "this agent" and only the other party links', () => {
  const html = renderToStaticMarkup(<EnvelopeFeed envelopes={[feedEnvelope(env)]} self={A} />);
  assert.match(html, /<span class="muted">this agent<\/span> →/);
  assert.deepEqual(
    [...html.matchAll(/data-agent="([0-9a-f]+)"/g)].map((m) => m[1]),
    [B],
  );
  // Without `self` both sides link.
  assert.equal([...renderToStaticMarkup(<EnvelopeFeed envelopes={[env]} />).matchAll(/data-agent=/g)].length, 2);
});
