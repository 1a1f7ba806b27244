// A release is one state of the store: envelopes that arrive while it is being written (a late
// upload dated inside the epoch, the next offer of one of its negotiations) are in none of its
// files, so every table re-derives from the others; the next revision holds them.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { buildEnvelope } from '../protocol/envelope';
import { decodeNeg1, encodeNeg1 } from '../protocol/neg1';
import { encodeFeedback } from '../protocol/payloads';
import { MsgType } from '../protocol/types';
import type { IngestItem } from '../store';
import type { ExportSource } from '../store/export';
import { createRelease, type ReleaseStore } from './release';
import { BACKENDS, EPOCH_SECONDS, type FixtureStore, fixtureStore } from './testing';
import { readParquet, verifyRelease } from './verify';

const hx = (b: Uint8Array) => Buffer.from(b).toString('hex');

for (const kind of BACKENDS)
  describe(`a release is one state of the store (${kind})`, () => {
    let fs: FixtureStore;
    let dir: string;
    let epoch: number;
    before(async () => {
      fs = await fixtureStore(kind);
      dir = mkdtempSync(join(tmpdir(), `zx-snapshot-${kind}-`));
      epoch = Number(fs.fx.items[0].envelope.timestamp / BigInt(EPOCH_SECONDS * 1_000_000));
    });
    after(async () => {
      await fs?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /**
     * Envelopes the mesh delivers while the release is written: a FEEDBACK dated inside the epoch, and the next COUNTER
     * of one of its negotiations dated in the next one.
     */
    function arrivals(): IngestItem[] {
      const e = BigInt(EPOCH_SECONDS) * 1_000_000n;
      const inEpoch = fs.fx.items.filter((i) => i.envelope.timestamp / e === BigInt(epoch));
      const counter = inEpoch.findLast(
        (i) => i.envelope.msgType === MsgType.COUNTER && decodeNeg1(i.envelope.payload).ok,
      )!;
      const neg1 = decodeNeg1(counter.envelope.payload);
      assert.ok(neg1.ok);
      const [a, b] = fs.fx.agents;
      const next = BigInt(epoch + 1) * e + 5_000_000n;
      const late = buildEnvelope(
        {
          msgType: MsgType.COUNTER,
          sender: counter.envelope.sender,
          recipient: counter.envelope.recipient,
          conversationId: counter.envelope.conversationId,
          nonce: 800_000n,
          timestamp: next,
          blockRef: 1n,
          payload: encodeNeg1({ ...neg1.value, round: neg1.value.round + 1, bidValue: neg1.value.bidValue + 1n }),
        },
        counter.envelope.sender,
      );
      const conv = new Uint8Array(16).fill(0x61);
      const fb = buildEnvelope(
        {
          msgType: MsgType.FEEDBACK,
          sender: a,
          recipient: b,
          conversationId: conv,
          nonce: 800_001n,
          timestamp: BigInt(epoch) * e + 7_000_000n,
          blockRef: 1n,
          payload: encodeFeedback({
            conversationId: conv,
            targetAgent: b,
            score: 61,
            outcome: 2,
            isDispute: false,
            role: 0,
          }),
        },
        a,
      );
      return [late, fb].map((x) => ({
        id: x.id,
        envelope: x.envelope,
        raw: x.bytes,
        source: 'stream' as const,
        receivedAt: new Date(),
      }));
    }

    test('envelopes stored while the tables are written are in none of them, and the release verifies', async () => {
      const items = arrivals();
      const delivered = [false, false];
      const once = async (i: number) => {
        if (!delivered[i]) {
          delivered[i] = true;
          await fs.store.ingestEnvelopes([items[i]]);
        }
      };
      // The store as the scheduler sees it, but the mesh delivers the FEEDBACK once the envelopes
      // table is written (as the offers are read) and the COUNTER once the offers table is (as the
      // negotiations are read): each after some files were written and before the others.
      const deliver = (s: ExportSource): ExportSource => ({
        ...s,
        scan: (t, f, o) =>
          t !== 'offers'
            ? s.scan(t, f, o)
            : (async function* () {
                await once(1);
                yield* s.scan(t, f, o);
              })(),
        scanNegotiations: async function* (f, o) {
          await once(0);
          yield* s.scanNegotiations(f, o);
        },
      });
      const store = new Proxy(fs.store, {
        get: (t, k) =>
          k === 'exportSource'
            ? (r?: Parameters<ReleaseStore['exportSource']>[0]) => deliver(t.exportSource(r))
            : Reflect.get(t, k, t),
      }) as ReleaseStore;
      const m = await createRelease({ store, epoch, dir });
      assert.deepEqual(delivered, [true, true], 'the envelopes arrived while the release was written');
      // Every table re-derives from the envelopes and context as written (the offers written before
      // the COUNTER arrived, the feedback table after the FEEDBACK did, would not).
      assert.deepEqual(
        (await verifyRelease(dir, m)).filter((c) => !c.ok),
        [],
      );
      const ids = new Set(items.map((i) => hx(i.id)));
      for (const [name, file] of [
        ...Object.entries(m.tables).map(([t, x]) => [t, x.file]),
        ['context', m.context.file],
      ]) {
        const rows = await readParquet(join(dir, file));
        const held = rows.filter((r) =>
          ['id', 'envelope_id'].some((c) => typeof r[c] === 'string' && ids.has(r[c] as string)),
        );
        assert.deepEqual(held, [], `${name} holds none of the envelopes stored after the release began`);
      }
      // The next revision is written from a later state: it holds them.
      const r1 = await createRelease({ store: fs.store, epoch, dir, revision: 1 });
      const fb = new Set((await readParquet(join(dir, r1.tables.feedback.file))).map((r) => String(r.envelope_id)));
      const ctx = new Set((await readParquet(join(dir, r1.context.file))).map((r) => String(r.id)));
      assert.ok(fb.has(hx(items[1].id)) && ctx.has(hx(items[0].id)), 'revision 1 holds both');
      assert.deepEqual(
        (await verifyRelease(dir, r1)).filter((c) => !c.ok),
        [],
      );
    });
  });
