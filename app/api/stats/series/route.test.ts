/**
 * GET /api/stats/series and /api/stats/series/csv on a real store (PGlite) holding deals played by
 * the demo agents' state machine in the last hours: the series add up to what was ingested (every
 * ACCEPT's NEG1 price, exact), the CSV reads back (csv-parse) to the JSON's values, and bad input
 * is a 400 naming the parameter, never a 500.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { makeDeals } from '../../../../lib/export/deals-testing';
import { decodeNeg1 } from '../../../../lib/protocol/neg1';
import { MsgType } from '../../../../lib/protocol/types';
import { openStore } from '../../../../lib/store';
import { STATS_METRIC_NAMES, type StatsSeries, StatsSeriesSchema, statsColumn } from '../../../../lib/wire/stats';
import { registerServices, type Services } from '../../../_lib/services';
import { GET as csv } from './csv/route';
import { GET } from './route';

test('series add up to the ingested deals, the CSV reads back, bad input is a 400 naming the parameter', async () => {
  const store = await openStore({ dataDir: ':memory:' });
  const nowUs = BigInt(Date.now()) * 1000n;
  const fx = makeDeals({ deals: 12, seed: 5, startUs: nowUs - 5n * 3_600_000_000n });
  const items = fx.items.filter((it) => it.envelope.timestamp < nowUs);
  await store.ingestEnvelopes(items);
  registerServices({ observatory: { store }, reads: store, config: { epochSeconds: 86_400 } } as unknown as Services);
  try {
    const get = async (q: string) => GET(new Request(`http://observatory.test/api/stats/series?${q}`));
    for (const metric of STATS_METRIC_NAMES) {
      const res = await get(`metric=${metric}&range=24h`);
      assert.equal(res.status, 200, `${metric}: ${res.status}`);
      const body = StatsSeriesSchema.parse(await res.json());
      assert.equal(body.stepSeconds, 900);
      assert.ok(
        body.series.every((s) => s.values.length === 96),
        `${metric}: 96 quarter hours`,
      );
      // The CSV is the same series, row by row.
      const file = await csv(new Request(`http://observatory.test/api/stats/series/csv?metric=${metric}&range=24h`));
      assert.equal(file.status, 200);
      assert.match(file.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(
        file.headers.get('content-disposition') ?? '',
        new RegExp(`attachment; filename="zerox1-stats-${metric}-24h.csv"`),
      );
      const rows = parse(await file.text(), { columns: true }) as Record<string, string>[];
      assert.equal(rows.length, 96, `${metric}: CSV rows`);
      assert.equal(rows[0].interval_start_utc, body.from);
      for (const s of body.series) {
        const col = statsColumn(s);
        assert.deepEqual(
          rows.map((r) => r[col]),
          s.values.map((v) => v ?? ''),
          `${metric} ${col} in the CSV`,
        );
      }
    }
    const body = async (metric: string): Promise<StatsSeries> =>
      (await (await get(`metric=${metric}&range=24h`)).json()) as StatsSeries;
    const sum = (vs: (string | null)[]) => vs.reduce((t, v) => t + BigInt(v ?? '0'), 0n);
    const accepts = items.filter((it) => it.envelope.msgType === MsgType.ACCEPT);
    const prices = accepts
      .map((it) => decodeNeg1(it.envelope.payload))
      .filter((d) => d.ok)
      .map((d) => d.value.bidValue);
    assert.ok(prices.length >= 3, `the fixture agreed deals (${prices.length})`);
    const neg = await body('negotiations');
    assert.equal(
      sum(neg.series.find((s) => s.key === 'agreed')!.values),
      BigInt(accepts.length),
      'agreed = ACCEPT envelopes',
    );
    assert.equal(
      sum(neg.series.find((s) => s.key === 'opened')!.values),
      BigInt(items.filter((it) => it.envelope.msgType === MsgType.PROPOSE).length),
    );
    const vol = await body('volume');
    assert.equal(
      vol.series.reduce((t, s) => t + sum(s.values), 0n),
      prices.reduce((a, b) => a + b, 0n),
      'volume is the exact sum of agreed prices',
    );
    // One day holds every deal: its median is the median of all the prices.
    const day = (await (await get('metric=median_price&range=all')).json()) as StatsSeries;
    assert.ok(day.series.length >= 1, 'a median series');
    const env = await body('envelopes');
    // Each quarter hour's rate is its envelope count / 900 s, truncated to three decimals.
    const fromUs = BigInt(Date.parse(env.from)) * 1000n;
    const counts = new Array<bigint>(96).fill(0n);
    for (const it of items) counts[Number((it.envelope.timestamp - fromUs) / 900_000_000n)] += 1n;
    assert.equal(
      counts.reduce((a, b) => a + b, 0n),
      BigInt(items.length),
      'every envelope falls inside the 24 h window',
    );
    const rate = (c: bigint) => {
      const milli = (c * 1000n) / 900n;
      return `${milli / 1000n}.${String(milli % 1000n).padStart(3, '0')}`;
    };
    // Intervals that end before the first observed minute are unknown (null), not zero.
    const firstMinuteUs =
      (items.reduce((m, it) => (it.envelope.timestamp < m ? it.envelope.timestamp : m), items[0].envelope.timestamp) /
        60_000_000n) *
      60_000_000n;
    assert.equal(env.observedFrom, new Date(Number(firstMinuteUs / 1000n)).toISOString().replace('.000Z', 'Z'));
    const seen = (i: number) => fromUs + BigInt(i + 1) * 900_000_000n > firstMinuteUs;
    assert.deepEqual(
      env.series[0].values,
      counts.map((c, i) => (seen(i) ? rate(c) : null)),
      "envelopes/s is each interval's count / 900 s",
    );

    const bad: [string, RegExp][] = [
      ['', /query parameter "metric"/],
      ['metric=price', /query parameter "metric"/],
      ['metric=envelopes&range=2d', /query parameter "range"/],
      ['metric=envelopes&bogus=1', /unknown query parameter "bogus"/],
      ['metric=envelopes&metric=volume', /"metric" given more than once/],
    ];
    for (const [q, msg] of bad) {
      for (const handler of [GET, csv]) {
        const res = await handler(
          new Request(`http://observatory.test/api/stats/series${handler === csv ? '/csv' : ''}?${q}`),
        );
        assert.equal(res.status, 400, `${q}: ${res.status}`);
        assert.match(((await res.json()) as { error: string }).error, msg);
      }
    }
  } finally {
    registerServices(undefined);
    await store.close();
  }
});
