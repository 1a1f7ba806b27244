/**
 * Uploads through HTTP: the app's real `POST /api/ingest/envelopes` route handler, served by a
 * plain node:http server in this process (no Next build needed), with three demo agents that
 * upload their bilateral envelopes over HTTP as they do under `npm start`.
 */

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { registerServices } from '../../app/_lib/services';
import { POST } from '../../app/api/ingest/envelopes/route';
import { startDemoMesh } from '../agents/demo-mesh';
import type { AgentToParent } from '../agents/types';
import { MESH_TOPICS } from '../mesh';
import { encodeCanonical } from '../protocol/cbor';
import { fromHex, toHex } from '../protocol/hex';
import { startObservatory } from './observatory';
import { makeBackend, quietLogger, waitFor } from './testing';

const CONV = 'feed0000'.repeat(4);

test('agents upload bilateral envelopes through POST /api/ingest/envelopes', async () => {
  const backend = await makeBackend('pglite');
  const obs = await startObservatory({ config: backend.config, logger: quietLogger });
  registerServices({ observatory: obs, reads: obs.store, config: backend.config });
  const server = createServer(async (req, res) => {
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: Readable.toWeb(req) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    const response = await POST(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const sent: Array<Extract<AgentToParent, { t: 'sent' }>> = [];
  // Seed 7 gives the buyer (Boulware) and seller (linear) stances that reach agreement.
  const demo = await startDemoMesh({
    count: 3,
    bootstrap: obs.mesh.multiaddrs(),
    observerUrl: url,
    epochSeconds: 86_400,
    seed: 7,
    misbehaving: -1,
    autopilot: false,
    verdictPassRate: 1,
    uploadIntervalMs: 60_000,
    register: (id, pk) => obs.registry.register(id, pk),
    onReport: (_, m) => {
      if (m.t === 'sent') sent.push(m);
    },
  });
  try {
    await waitFor('gossip meshes formed', () =>
      MESH_TOPICS.every((t) => demo.agents.every((a) => obs.mesh.meshPeers(t).includes(a.peerId))),
    );
    demo.open(0, 1, { conversationIdHex: CONV });
    await waitFor(
      'four FEEDBACK',
      () => sent.filter((s) => s.conversationIdHex === CONV && s.msgType === 0x0b).length === 4,
    );
    await demo.flushAll();
    const bilateral = new Set(sent.filter((s) => s.conversationIdHex === CONV && s.via === 'stream').map((s) => s.id));
    await waitFor('bilateral envelopes stored', async () => {
      await obs.flush();
      const c = await obs.store.getConversation(fromHex(CONV));
      return c && c.envelopes.filter((e) => e.source === 'upload').length === bilateral.size;
    });
    const c = (await obs.store.getConversation(fromHex(CONV)))!;
    assert.deepEqual(new Set(c.envelopes.filter((e) => e.source === 'upload').map((e) => toHex(e.id))), bilateral);

    // The route's own answers: per-item results, 400 naming the problem, 413 over the cap.
    const ok = await fetch(`${url}/api/ingest/envelopes`, {
      method: 'POST',
      headers: { 'content-type': 'application/cbor' },
      body: Buffer.from(encodeCanonical([c.envelopes[0].raw, new Uint8Array([1])])),
    });
    assert.equal(ok.status, 200);
    const body = (await ok.json()) as { results: Array<{ ok: boolean; duplicate?: boolean; reason?: string }> };
    assert.deepEqual(
      body.results.map((r) => [r.ok, r.duplicate ?? r.reason]),
      [
        [true, true],
        [false, 'decode'],
      ],
    );
    const bad = await fetch(`${url}/api/ingest/envelopes`, { method: 'POST', body: Buffer.from([0xa0]) });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(await bad.json()), /not a CBOR array/);
    const big = await fetch(`${url}/api/ingest/envelopes`, { method: 'POST', body: Buffer.alloc(8 * 1024 * 1024 + 1) });
    assert.equal(big.status, 413);
  } finally {
    await demo.stop();
    server.close();
    registerServices(undefined);
    await obs.stop();
    await backend.cleanup();
  }
});
