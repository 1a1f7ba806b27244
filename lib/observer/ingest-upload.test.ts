// Archive uploads are bounded in time: an envelope dated more than the live tolerance ahead of now
// or older than the archive window is refused as `timestamp_out_of_window` (counted, the good ones
// beside it stored), so no upload can create envelope partitions without bound. Real observatory
// on PGlite (and Postgres when TEST_DATABASE_URL is set).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { encodeCanonical } from '../protocol/cbor';
import { publicKeyFromSeed } from '../protocol/crypto';
import { buildEnvelope } from '../protocol/envelope';
import { MsgType } from '../protocol/types';
import { archiveWindowSeconds, maxWindowPartitions } from '../store/engine';
import { rawQuery, skipWithoutPostgres } from '../store/testing';
import { TIMESTAMP_OUT_OF_WINDOW, uploadWindowUs } from './ingest-upload';
import { type Observatory, startObservatory } from './observatory';
import { makeBackend, quietLogger, type TestBackend } from './testing';

const seed = new Uint8Array(32).fill(41);
const A = publicKeyFromSeed(seed);
const B = new Uint8Array(32).fill(0x42);
const WEEK_US = 7n * 86_400_000_000n;
const U64_MAX = (1n << 64n) - 1n;
let nonce = 1n;
const env = (timestamp: bigint) =>
  buildEnvelope(
    {
      msgType: MsgType.DELIVER,
      sender: A,
      recipient: B,
      timestamp,
      nonce: nonce++,
      conversationId: new Uint8Array(16).fill(1),
      payload: Uint8Array.of(1),
    },
    seed,
  );

test('the plain window: [now − archive window, now + 30 s]', () => {
  const now = Date.UTC(2030, 0, 1);
  assert.equal(archiveWindowSeconds(20), 28 * 86_400);
  assert.equal(archiveWindowSeconds(30 * 86_400), 120 * 86_400, 'four epochs when epochs are long');
  assert.deepEqual(uploadWindowUs(now, 86_400), {
    fromUs: BigInt(now - 28 * 86_400_000) * 1000n,
    toUs: BigInt(now) * 1000n + 30_000_000n,
  });
  assert.equal(uploadWindowUs(1_000, 86_400).fromUs, 0n, 'never before 1970');
});

for (const kind of ['pglite', 'postgres'] as const) {
  describe(`archive upload time window on ${kind}`, {
    skip: kind === 'postgres' ? skipWithoutPostgres() : false,
  }, () => {
    let backend: TestBackend;
    let obs: Observatory;
    before(async () => {
      backend = await makeBackend(kind);
      obs = await startObservatory({ config: backend.config, logger: quietLogger, verifyWorkers: 0 });
      await obs.registry.register(A, A);
    });
    after(async () => {
      await obs?.stop();
      await backend?.cleanup();
    });

    test('2^64−1, 1970 and out-of-window timestamps are refused and counted; in-window ones stored', async () => {
      const nowUs = BigInt(Date.now()) * 1000n;
      const days = (n: number) => BigInt(n) * 86_400_000_000n;
      const cases: [string, bigint, boolean][] = [
        ['2^64-1', U64_MAX, false],
        ['0 (1970)', 0n, false],
        ['now', nowUs, true],
        ['20 s ahead', nowUs + 20_000_000n, true],
        ['40 s ahead', nowUs + 40_000_000n, false],
        ['27 days ago', nowUs - days(27), true],
        ['29 days ago', nowUs - days(29), false],
      ];
      const envs = cases.map(([, ts]) => env(ts));
      const before = obs.dropCounts()[TIMESTAMP_OUT_OF_WINDOW] ?? 0;
      const r = await obs.ingestUpload(encodeCanonical(envs.map((x) => x.bytes)));
      assert.equal(r.status, 200);
      for (const [i, [what, , ok]] of cases.entries()) {
        const x = r.results[i];
        if (ok) assert.ok(x.ok, `${what}: ${JSON.stringify(x)}`);
        else {
          assert.ok(!x.ok, what);
          assert.equal(x.ok ? '' : x.reason, TIMESTAMP_OUT_OF_WINDOW, what);
          assert.match(
            x.ok ? '' : (x.detail ?? ''),
            /^timestamp \d+ µs is (before|after) the archive window \[\d+, \d+\]$/,
            what,
          );
        }
        assert.equal((await obs.store.getEnvelope(envs[i].id)) !== null, ok, `${what}: stored iff in the window`);
      }
      assert.equal((obs.dropCounts()[TIMESTAMP_OUT_OF_WINDOW] ?? 0) - before, cases.filter((c) => !c[2]).length);
      await obs.flush();
      const [row] = await rawQuery(obs.store)<{ n: string }>(
        `SELECT count(*)::text AS n FROM "drop" WHERE reason = $1 AND source = 'upload'`,
        [TIMESTAMP_OUT_OF_WINDOW],
      );
      assert.equal(Number(row.n), cases.filter((c) => !c[2]).length, 'recorded in the store like every drop');
    });

    test(
      '300 envelopes in 300 different weeks create no ' + 'partition outside the window, also after a restart',
      async () => {
        const nowUs = BigInt(Date.now()) * 1000n;
        const envs = Array.from({ length: 300 }, (_, i) => env(nowUs + BigInt(i - 250) * WEEK_US));
        const r = await obs.ingestUpload(encodeCanonical(envs.map((x) => x.bytes)));
        const stored = r.results.filter((x) => x.ok).length;
        assert.ok(stored >= 4 && stored <= 5, `only the weeks inside the 28-day window are stored (${stored})`);
        const bound = maxWindowPartitions(obs.config.epochSeconds);
        const count = async (o: Observatory) =>
          (await o.store.envelopePartitions.list()).filter((p) => p.name !== 'envelope_default').length;
        assert.ok((await count(obs)) <= bound, `${await count(obs)} partitions, at most ${bound}`);
        await obs.stop();
        obs = await startObservatory({ config: backend.config, logger: quietLogger, verifyWorkers: 0 });
        assert.ok((await count(obs)) <= bound, `after a restart: ${await count(obs)} partitions, at most ${bound}`);
      },
    );
  });
}
