/**
 * Mesh limits at the observer (0x01 spec §11) and several observers on one Postgres (docs/architecture.md
 * "Scale"). The observer's clock is frozen in the flood test, so the per-peer token bucket
 * (burst 100, 100/s) never refills: exactly 100 of the flooder's envelopes pass, whatever the
 * machine's speed, while a second peer's envelopes all arrive.
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createMeshNode, type MeshNode, TOPIC_BROADCAST } from '../mesh';
import { encodeCanonical } from '../protocol/cbor';
import { publicKeyFromSeed, sha256 } from '../protocol/crypto';
import { buildEnvelope, envelopeId } from '../protocol/envelope';
import { toHex } from '../protocol/hex';
import { MsgType } from '../protocol/types';
import { rawQuery, skipWithoutPostgres } from '../store/testing';
import { type Observatory, startObservatory } from './observatory';
import { makeBackend, quietLogger, waitFor } from './testing';
import type { LiveEvent } from './types';

function agent(label: string) {
  const seed = sha256(new TextEncoder().encode(`limits/${label}/seed`));
  return { seed, id: sha256(new TextEncoder().encode(`limits/${label}/id`)), pk: publicKeyFromSeed(seed) };
}

function envelopes(
  a: ReturnType<typeof agent>,
  n: number,
  nowMs: number,
  msgType: number = MsgType.BEACON,
): Uint8Array[] {
  return Array.from(
    { length: n },
    (_, i) =>
      buildEnvelope(
        {
          msgType,
          sender: a.id,
          timestamp: BigInt(nowMs) * 1000n + BigInt(i),
          nonce: BigInt(i + 1),
          conversationId: new Uint8Array(16),
          payload: new TextEncoder().encode(`payload ${i}`),
        },
        a.seed,
      ).bytes,
  );
}

const peer = () => createMeshNode({ listen: ['/ip4/127.0.0.1/tcp/0'], validate: () => 'accept', dht: false });

async function countBySender(obs: Observatory, a: ReturnType<typeof agent>): Promise<number> {
  const rows = await rawQuery(obs.store)<{ n: string }>('SELECT count(*)::text AS n FROM envelope WHERE sender = $1', [
    a.id,
  ]);
  return Number(rows[0].n);
}

describe('mesh limits at the observer', () => {
  test('a flooding peer is held to its 100-message budget while another peer gets everything through', async () => {
    const backend = await makeBackend('pglite');
    const T = Date.now();
    const obs = await startObservatory({ config: backend.config, logger: quietLogger, clock: () => T });
    const nodes: MeshNode[] = [];
    try {
      const flooder = agent('flooder');
      const honest = agent('honest');
      await obs.registry.register(flooder.id, flooder.pk);
      await obs.registry.register(honest.id, honest.pk);
      const [f, h] = [await peer(), await peer()];
      nodes.push(f, h);
      const target = obs.mesh.multiaddrs()[0];
      const flood = envelopes(flooder, 1_000, T);
      const calm = envelopes(honest, 50, T);
      await Promise.all([
        (async () => {
          for (const b of flood) await f.sendEnvelope(target, b);
        })(),
        (async () => {
          for (const b of calm) {
            await h.sendEnvelope(target, b);
            await new Promise((r) => setTimeout(r, 2));
          }
        })(),
      ]);
      await waitFor('900 rate-limit drops', () => obs.dropCounts().rate_limit === 900);
      await waitFor('150 envelopes stored', async () => {
        await obs.flush();
        return (await countBySender(obs, flooder)) + (await countBySender(obs, honest)) === 150;
      });
      assert.equal(await countBySender(obs, flooder), 100);
      assert.equal(await countBySender(obs, honest), 50);
      assert.deepEqual(obs.dropCounts(), { rate_limit: 900 });
      assert.equal((await obs.store.dropCounts()).rate_limit, 900);
    } finally {
      for (const n of nodes) await n.stop();
      await obs.stop();
      await backend.cleanup();
    }
  });
});

describe('two observers on one Postgres', { skip: skipWithoutPostgres() }, () => {
  test('each envelope is stored once, and both buses see each once', async () => {
    const backend = await makeBackend('postgres');
    const a = await startObservatory({ config: backend.config, logger: quietLogger });
    const b = await startObservatory({
      config: { ...backend.config, bootstrap: a.mesh.multiaddrs() },
      logger: quietLogger,
    });
    const pub = await createMeshNode({
      listen: ['/ip4/127.0.0.1/tcp/0'],
      validate: () => 'accept',
      dht: false,
      bootstrap: [a.mesh.multiaddrs()[0], b.mesh.multiaddrs()[0]],
    });
    const seen = { a: [] as string[], b: [] as string[] };
    a.bus.subscribe((e: LiveEvent) => e.type === 'message' && seen.a.push(e.data.id as string));
    b.bus.subscribe((e: LiveEvent) => e.type === 'message' && seen.b.push(e.data.id as string));
    try {
      const uploader = agent('uploader');
      const gossiper = agent('gossiper');
      await a.registry.register(uploader.id, uploader.pk);
      await a.registry.register(gossiper.id, gossiper.pk);
      // Uploads: the same 300 envelopes to both observers at once.
      const up = envelopes(uploader, 300, Date.now(), MsgType.PROPOSE);
      const body = encodeCanonical(up);
      const [ra, rb] = await Promise.all([a.ingestUpload(body), b.ingestUpload(body)]);
      assert.ok(ra.results.every((r) => r.ok) && rb.results.every((r) => r.ok));
      const firsts = ra.results.map(
        (r, i) =>
          Number(r.ok && !r.duplicate) +
          Number(rb.results[i].ok && !(rb.results[i] as { duplicate: boolean }).duplicate),
      );
      assert.deepEqual(
        firsts,
        up.map(() => 1),
      );
      // Gossip: one publisher reaching both observers.
      await waitFor('publisher meshed with both observers', () => pub.meshPeers(TOPIC_BROADCAST).length === 2);
      const gossip = envelopes(gossiper, 50, Date.now());
      for (const g of gossip) await pub.publish(TOPIC_BROADCAST, g);
      const ids = new Set([...up, ...gossip].map((x) => toHex(envelopeId(x))));
      await waitFor('both buses saw all 350', async () => {
        await a.flush();
        await b.flush();
        return seen.a.length >= 350 && seen.b.length >= 350;
      });
      const rows = await rawQuery(a.store)<{ n: string }>(
        'SELECT count(*)::text AS n FROM envelope WHERE sender = ANY($1)',
        [[uploader.id, gossiper.id]],
      );
      assert.equal(Number(rows[0].n), 350);
      assert.deepEqual(new Set(seen.a), ids);
      assert.deepEqual(new Set(seen.b), ids);
      assert.equal(seen.a.length, 350);
      assert.equal(seen.b.length, 350);
    } finally {
      await pub.stop();
      await b.stop();
      await a.stop();
      await backend.cleanup();
    }
  });
});
