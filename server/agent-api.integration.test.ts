/**
 * The agent side of the API:
 * - agent ids in either form: every agent query and path parameter of app/api answers the same
 *   for the 64-hex id and its base58 address; a value that is neither gets a 400 naming it;
 * - GET /api/agents/{id} carries the demo agent's ADVERTISE capabilities decoded from the `JSON`
 *   format hint (docs/protocol.md §8), taken from the envelope's real bytes.
 * Runs the real runtime (store, embedded chain, observer, indexer, demo agents) with
 * the route files served over HTTP (./api-testing.ts).
 */

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { decodeEnvelope } from '../lib/protocol/envelope';
import { fromHex } from '../lib/protocol/hex';
import { MsgType } from '../lib/protocol/types';
import type { AgentDetail, BatchList, EnvelopeRawView } from '../lib/wire';
import { type ApiHarness, startApiHarness } from './api-testing';

let h: ApiHarness;
let agent: { hex: string; b58: string; epoch: string };

before(async () => {
  h = await startApiHarness({ RATE_LIMIT_API: '1000:100000' });
  const end = Date.now() + 120_000;
  for (;;) {
    const b = (await h.getJson<BatchList>('/api/batches?status=verified')).body.batches[0];
    if (b) {
      agent = { hex: b.agent, b58: b.agentAddress, epoch: b.epoch };
      break;
    }
    if (Date.now() > end) throw new Error('timed out waiting for a verified batch');
    await new Promise((r) => setTimeout(r, 500));
  }
});

after(async () => {
  await h?.stop();
});

/** Every agent parameter, as a URL for an id. */
const urls = (id: string, epoch: string) => [
  `/api/agents/${id}`,
  `/api/envelopes?agent=${id}&limit=20`,
  `/api/conversations?agent=${id}&limit=20`,
  `/api/batches?agent=${id}`,
  `/api/challenges?agent=${id}`,
  `/api/reputation/${id}`,
  `/api/batches/challengeable?agent=${id}&epoch=${epoch}`,
  `/api/batches/${id}/${epoch}/log`,
];

test('hex, 0x-hex and base58 agent ids give the same answer on every agent parameter', async () => {
  assert.notEqual(agent.hex, agent.b58);
  const forms = [agent.hex, `0x${agent.hex.toUpperCase()}`, agent.b58];
  const lists = forms.map((f) => urls(f, agent.epoch));
  for (let i = 0; i < lists[0].length; i++) {
    // The demo keeps negotiating: a message landing between the reads is not a failure (on a loaded
    // machine the three reads can straddle one often); twenty in a row are.
    for (let attempt = 1; ; attempt++) {
      const answers = await Promise.all(lists.map((l) => h.getJson(l[i])));
      try {
        for (const a of answers) assert.equal(a.status, 200, `${lists[2][i]}: ${JSON.stringify(a.body)}`);
        assert.deepEqual(answers[2].body, answers[0].body, `${lists[2][i]} (base58) = ${lists[0][i]} (hex)`);
        assert.deepEqual(answers[1].body, answers[0].body, `${lists[1][i]} (0x, upper case) = ${lists[0][i]}`);
        break;
      } catch (e) {
        if (attempt >= 20) throw e;
        await new Promise((r) => setTimeout(r, 50 * attempt));
      }
    }
  }
  // Not vacuous: the filter is applied (the agent's own envelopes only) and the detail is this agent.
  const env = (
    await h.getJson<{ envelopes: Array<{ sender: string; recipient: string }> }>(`/api/envelopes?agent=${agent.b58}`)
  ).body.envelopes;
  assert.ok(env.length > 0);
  for (const e of env)
    assert.ok(e.sender === agent.hex || e.recipient === agent.hex, 'base58 filter matches sender or recipient');
  assert.equal((await h.getJson<{ agent: { id: string } }>(`/api/agents/${agent.b58}`)).body.agent.id, agent.hex);
});

test('an agent id that is neither form gets a 400 naming the parameter', async () => {
  // Garbage, hex one byte short, base58 alphabet but 44 zero bytes (not a 32-byte key), base58 with a 0.
  for (const bad of ['zz', agent.hex.slice(2), '1'.repeat(44), `0${agent.b58.slice(1)}`]) {
    for (const url of urls(encodeURIComponent(bad), agent.epoch)) {
      const r = await h.getJson<{ error: string }>(url);
      assert.equal(r.status, 400, `${url}: ${JSON.stringify(r.body)}`);
      const name = url.startsWith('/api/agents/') ? 'id' : 'agent';
      assert.match(r.body.error, new RegExp(`"${name}"`), url);
    }
  }
});

test('the agent detail carries its advertised capabilities, decoded from the ADVERTISE bytes', async () => {
  const end = Date.now() + 60_000;
  let d: AgentDetail;
  for (;;) {
    d = (await h.getJson<AgentDetail>(`/api/agents/${agent.b58}`)).body;
    if (d.advertised) break;
    if (Date.now() > end) throw new Error('no ADVERTISE from the agent within 60 s');
    await new Promise((r) => setTimeout(r, 500));
  }
  const a = d.advertised!;
  assert.equal(a.format, 'JSON');
  assert.equal(a.opaque, null);
  const caps = a.capabilities as {
    service: string;
    price: { min: number; max: number };
    strategy: string;
    verification: { tiers: number[] };
  };
  assert.equal(caps.service, 'demo: summarise a document');
  assert.deepEqual(caps.verification.tiers, [0, 1, 2]);
  assert.ok(caps.price.min < caps.price.max);
  assert.match(caps.strategy, /\w/);
  // The view is what the stored envelope says: an ADVERTISE from this agent whose payload is the hint and that JSON.
  const raw = (await h.getJson<EnvelopeRawView>(`/api/envelopes/${a.envelopeId}/raw`)).body;
  const e = decodeEnvelope(fromHex(raw.raw));
  assert.ok(e.ok);
  assert.equal(e.envelope.msgType, MsgType.ADVERTISE);
  assert.equal(Buffer.from(e.envelope.sender).toString('hex'), agent.hex);
  const text = new TextDecoder().decode(e.envelope.payload);
  assert.ok(text.startsWith('JSON'));
  assert.deepEqual(JSON.parse(text.slice(4)), caps);
});
