/**
 * Observer + three demo agents on loopback: a full negotiation with notary
 * and feedback stored exactly; restart on the same database loses and duplicates nothing.
 * Runs on PGlite, and on Postgres when TEST_DATABASE_URL is set.
 */

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type DemoMesh, startDemoMesh } from '../agents/demo-mesh';
import { FAULT_REASONS } from '../agents/faults';
import type { AgentToParent } from '../agents/types';
import { MESH_TOPICS } from '../mesh';
import { decodeCanonical, encodeCanonical } from '../protocol/cbor';
import { fromHex, toHex } from '../protocol/hex';
import { MsgType } from '../protocol/types';
import { skipWithoutPostgres } from '../store/testing';
import { type Observatory, startObservatory } from './observatory';
import { makeBackend, quietLogger, type TestBackend, waitFor } from './testing';
import type { LiveEvent } from './types';

const CONV = 'c0ffee00'.repeat(4);
const backends: Array<'pglite' | 'postgres'> = ['pglite', 'postgres'];

for (const kind of backends) {
  const skip = kind === 'postgres' ? skipWithoutPostgres() : false;
  // Both live-validation paths: signatures on the event loop (PGlite run) and on worker threads.
  const verifyWorkers = kind === 'pglite' ? 0 : 1;
  describe(`observer with three agents on ${kind}, signatures ` +
    (verifyWorkers ? 'on a worker thread' : 'on the event loop'), {
    skip,
  }, () => {
    let backend: TestBackend;
    let obs: Observatory;
    let demo: DemoMesh;
    // Seed 1 gives the buyer (linear) and seller (Boulware) stances that reach agreement.
    const sent: Array<Extract<AgentToParent, { t: 'sent' }> & { agent: number }> = [];
    const deals: Array<Extract<AgentToParent, { t: 'deal' }> & { agent: number }> = [];
    const events: LiveEvent[] = [];
    const uploadBodies: Uint8Array[] = [];

    before(async () => {
      backend = await makeBackend(kind);
      obs = await startObservatory({ config: backend.config, logger: quietLogger, verifyWorkers });
      obs.bus.subscribe((e) => events.push(e));
      demo = await startDemoMesh({
        count: 3,
        bootstrap: obs.mesh.multiaddrs(),
        epochSeconds: 86_400,
        seed: 1,
        misbehaving: -1,
        autopilot: false,
        verdictPassRate: 1,
        strategies: ['linear', 'boulware', 'conceder'],
        uploadIntervalMs: 60_000,
        register: (id, pk) => obs.registry.register(id, pk),
        upload: async (body) => {
          uploadBodies.push(body);
          return obs.ingestUpload(body);
        },
        onReport: (agent, m) => {
          if (m.t === 'sent') sent.push({ ...m, agent });
          if (m.t === 'deal') deals.push({ ...m, agent });
          if (m.t === 'error') console.error(`agent ${agent}:`, m.message);
        },
      });
      // Gossip works once every agent's BEACON has reached the observer.
      await waitFor('a BEACON from each agent', () =>
        demo.agents.every((a) =>
          events.some((e) => e.type === 'message' && e.data.type === 'BEACON' && e.data.sender === a.agentId),
        ),
      );
      // ...and every agent is in the observer's gossipsub mesh on all three topics (it relays between them).
      await waitFor('gossip meshes formed', () =>
        MESH_TOPICS.every((t) => demo.agents.every((a) => obs.mesh.meshPeers(t).includes(a.peerId))),
      );
    });

    after(async () => {
      await demo?.stop();
      await obs?.stop();
      await backend?.cleanup();
    });

    test('a full negotiation with notary and feedback is stored exactly', async () => {
      const [buyer, seller, notary] = demo.agents;
      demo.open(0, 1, { conversationIdHex: CONV });
      const mine = () => sent.filter((s) => s.conversationIdHex === CONV);
      await waitFor('four FEEDBACK', () => mine().filter((s) => s.msgType === MsgType.FEEDBACK).length === 4);
      await demo.flushAll();
      const expected = new Set(mine().map((s) => s.id));
      await waitFor('every envelope of the conversation stored', async () => {
        await obs.flush();
        const c = await obs.store.getConversation(fromHex(CONV));
        return c && c.envelopes.length >= expected.size;
      });
      const conv = (await obs.store.getConversation(fromHex(CONV)))!;
      const stored = conv.envelopes.map((e) => toHex(e.id));
      assert.deepEqual(new Set(stored), expected);
      assert.equal(stored.length, expected.size);

      const types = mine().map((s) => s.msgType);
      const count = (t: number) => types.filter((x) => x === t).length;
      assert.equal(types[0], MsgType.PROPOSE);
      assert.equal(count(MsgType.ACCEPT), 1);
      assert.equal(count(MsgType.DELIVER), 1);
      assert.equal(count(MsgType.NOTARIZE_BID), 2);
      assert.equal(count(MsgType.NOTARIZE_ASSIGN), 1);
      assert.equal(count(MsgType.VERDICT), 2);
      assert.equal(count(MsgType.FEEDBACK), 4);
      assert.equal(count(MsgType.REJECT), 0);
      // Every stored envelope kept its source: bilateral ones via upload, the rest via gossip.
      for (const e of conv.envelopes) {
        const s = mine().find((x) => x.id === toHex(e.id))!;
        assert.equal(e.source, s.via === 'gossip' ? 'gossip' : 'upload', `source of ${s.msgType}`);
        assert.equal(toHex(e.envelope.sender), demo.agents[s.agent].agentId);
      }
      assert.equal(conv.state, 'completed');
      assert.equal(conv.outcome, 'agreed');
      assert.equal(conv.messageCount, expected.size);
      assert.deepEqual(new Set(conv.participants.map(toHex)), new Set([buyer.agentId, seller.agentId, notary.agentId]));
      assert.equal(conv.feedback.length, 4);
      assert.deepEqual(conv.notaryBids.map((b) => b.bidType).sort(), [0, 1]);
      assert.equal(
        deals.find((d) => d.agent === 0 && d.phase === 'closed')?.price,
        deals.find((d) => d.agent === 1 && d.phase === 'agreed')?.price,
      );

      // Live events: one `message` per new envelope, and the derived events.
      const convEvents = events.filter((e) => (e.data as { conversationId?: string }).conversationId === CONV);
      const msgIds = convEvents.flatMap((e) => (e.type === 'message' ? [e.data.id] : []));
      assert.deepEqual(new Set(msgIds), expected);
      assert.equal(msgIds.length, expected.size);
      const n = (t: string) => convEvents.filter((e) => e.type === t).length;
      assert.equal(n('reputation_update'), 4);
      assert.equal(n('notary_assigned'), 1);
      assert.equal(n('verdict_issued'), 2);
      assert.equal(n('dispute_raised'), 0);
      const joined = events.filter((e) => e.type === 'agent_joined').map((e) => e.data.agent);
      assert.deepEqual(new Set(joined), new Set(demo.agents.map((a) => a.agentId)));
      assert.equal(joined.length, 3);
    });

    test('invalid envelopes of each reason code are dropped and counted with that reason', async () => {
      const before = obs.dropCounts();
      for (const reason of FAULT_REASONS) await demo.fault(0, reason);
      await waitFor('ten drops', () => FAULT_REASONS.every((r) => (obs.dropCounts()[r] ?? 0) > (before[r] ?? 0)));
      await obs.flush();
      for (const r of FAULT_REASONS) assert.equal((obs.dropCounts()[r] ?? 0) - (before[r] ?? 0), 1, r);
      const db = await obs.store.dropCounts();
      for (const r of FAULT_REASONS) assert.ok((db[r] ?? 0) >= 1, `stored drop count for ${r}`);
      // Upload path: one bad item costs only itself.
      const good = decodeBody(uploadBodies[0])[0];
      const forged = good.slice();
      forged[forged.length - 1] ^= 1; // last signature byte
      const r = await obs.ingestUpload(encodeCanonical([new Uint8Array([1, 2, 3]), forged, good]));
      assert.equal(r.status, 200);
      assert.deepEqual(
        r.results.map((x) => x.ok),
        [false, false, true],
      );
      assert.equal(r.results[0].ok === false && r.results[0].reason, 'decode');
      assert.equal(r.results[1].ok === false && r.results[1].reason, 'signature');
      assert.equal(r.results[2].ok === true && r.results[2].duplicate, true);
      assert.equal((await obs.ingestUpload(new Uint8Array([0xa0]))).status, 400);
    });

    test('a restart on the same database loses nothing and duplicates nothing', async () => {
      await obs.flush();
      const conv0 = (await obs.store.getConversation(fromHex(CONV)))!;
      const ids0 = conv0.envelopes.map((e) => toHex(e.id)).sort();
      await demo.stop();
      await obs.stop();
      obs = await startObservatory({ config: backend.config, logger: quietLogger, verifyWorkers });
      const conv1 = (await obs.store.getConversation(fromHex(CONV)))!;
      assert.deepEqual(conv1.envelopes.map((e) => toHex(e.id)).sort(), ids0);
      const total0 = (await obs.store.health()).envelopes;
      // Re-uploading every bilateral envelope ever sent stores nothing new.
      for (const body of uploadBodies) {
        const r = await obs.ingestUpload(body);
        assert.ok(
          r.results.every((x) => x.ok && x.duplicate),
          'every item a duplicate',
        );
      }
      await obs.flush();
      assert.equal((await obs.store.health()).envelopes, total0);
      assert.equal((await obs.store.getConversation(fromHex(CONV)))!.messageCount, ids0.length);
    });
  });
}

function decodeBody(body: Uint8Array): Uint8Array[] {
  return decodeCanonical(body) as Uint8Array[];
}
