// The agent routes say how much of a gossip score comes from unbacked FEEDBACK (docs/app.md
// "Unbacked feedback"), over a real store (PGlite in memory): a demo-like agent rated well by a
// partner it dealt with, then twenty hostile FEEDBACK from one fresh identity. The list carries the
// counts, the agent's own view also the reliability folded without them, both in the documented
// schemas (lib/api/routes.ts).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { API_ROUTES } from '../../../lib/api/routes';
import { buildEnvelope } from '../../../lib/protocol/envelope';
import { toHex } from '../../../lib/protocol/hex';
import { encodeFeedback } from '../../../lib/protocol/payloads';
import { MsgType } from '../../../lib/protocol/types';
import { openStore, type Store } from '../../../lib/store';
import type { AgentView } from '../../../lib/wire/views';
import { registerServices, type Services } from '../../_lib/services';
import { GET as one } from './[id]/route';
import { GET as list } from './route';

const id = (b: number) => new Uint8Array(32).fill(b);
const [AGENT, PARTNER, FRESH] = [id(0x0a), id(0x0b), id(0x0f)];
const T = BigInt(Date.now() - 3_600_000) * 1000n;
let nonce = 0n;
let store: Store;

function env(msgType: number, from: Uint8Array, to: Uint8Array, c: number, payload: Uint8Array = new Uint8Array([1])) {
  nonce++;
  const conv = new Uint8Array(16).fill(c);
  const b = buildEnvelope(
    { msgType, sender: from, recipient: to, timestamp: T + nonce * 1_000_000n, nonce, conversationId: conv, payload },
    new Uint8Array(32).fill(from[0]),
  );
  return { id: b.id, envelope: b.envelope, raw: b.bytes, source: 'stream' as const, receivedAt: new Date() };
}
const feedback = (from: Uint8Array, score: number, c: number) =>
  env(
    MsgType.FEEDBACK,
    from,
    new Uint8Array(32),
    c,
    encodeFeedback({
      conversationId: new Uint8Array(16).fill(c),
      targetAgent: AGENT,
      score,
      outcome: 2,
      isDispute: false,
      role: 0,
    }),
  );

before(async () => {
  store = await openStore({ dataDir: ':memory:' });
  const items = [];
  for (let c = 1; c <= 5; c++)
    items.push(
      env(MsgType.PROPOSE, PARTNER, AGENT, c),
      env(MsgType.ACCEPT, AGENT, PARTNER, c),
      feedback(PARTNER, 95, c),
    );
  for (let i = 0; i < 20; i++) items.push(feedback(FRESH, -100, 100 + i));
  await store.ingestEnvelopes(items);
  registerServices({ observatory: { store }, reads: store, config: {} } as unknown as Services);
});
after(async () => {
  registerServices(undefined);
  await store.close();
});

const schemaOf = (path: string) => API_ROUTES.find((r) => r.path === path && r.method === 'get')!.ok;

test(
  'the agent list and the agent view say how much of the ' + 'score comes from identities with no stake and no deal',
  async () => {
    const l = await list(new Request('http://localhost/api/agents'));
    assert.equal(l.status, 200);
    const agents = (schemaOf('/api/agents').parse(await l.json()) as { agents: AgentView[] }).agents;
    assert.deepEqual(agents.find((a) => a.id === toHex(AGENT))?.backing, {
      feedback: 25,
      unbacked: 20,
      reliabilityWithout: null,
    });

    const r = await one(new Request(`http://localhost/api/agents/${toHex(AGENT)}`), {
      params: Promise.resolve({ id: toHex(AGENT) }),
    });
    assert.equal(r.status, 200);
    const agent = (schemaOf('/api/agents/{id}').parse(await r.json()) as { agent: AgentView }).agent;
    assert.equal(agent.backing?.feedback, 25);
    assert.equal(agent.backing?.unbacked, 20);
    const now = Number(agent.reputation!.reliabilityScore);
    const without = Number(agent.backing!.reliabilityWithout);
    assert.ok(
      without > now + 100_000,
      `without the fresh identity's FEEDBACK the reliability is ${without}, with it ${now}`,
    );
  },
);
