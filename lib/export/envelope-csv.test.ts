/**
 * The cell writers of the envelopes CSV fast path (envelope-csv.ts) against the generic ones:
 * the table-driven hex against Buffer's hex at every length and output offset, the cached-day
 * ISO writer against isoMicros on times that jump back and forth across seconds, days and
 * years, the digit writer against String(), and text cells against csvField's quoting.
 */

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRng } from '../agents/rng';
import { hexInto, intInto, isoWriter, textInto } from './envelope-csv';
import { isoMicros } from './schema';
import { csvField } from './writers';

test('hex: every length 0–70 at every output offset 0–3, and 300 random bytes', () => {
  const out = Buffer.alloc(1024);
  const dv = new DataView(out.buffer, out.byteOffset, out.length);
  const src = Buffer.from(Array.from({ length: 300 }, (_, i) => (i * 151 + 7) & 255));
  for (let n = 0; n <= 70; n++) {
    for (let at = 0; at < 4; at++) {
      out.fill(0x78);
      const end = hexInto(dv, at, src, 3, 3 + n);
      assert.equal(end, at + 2 * n);
      assert.equal(out.toString('latin1', at, end), src.toString('hex', 3, 3 + n), `${n} bytes at ${at}`);
      assert.equal(out[end], 0x78, 'nothing written past the end');
    }
  }
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  assert.equal(out.toString('latin1', 1, hexInto(dv, 1, all, 0, 256)), all.toString('hex'));
});

test('ISO times: the cached day prefix is right after any jump, back or forth', () => {
  const rng = createRng(7);
  const iso = isoWriter();
  const out = Buffer.alloc(64);
  const day = 86_400_000_000;
  const times: number[] = [
    0,
    1,
    999_999,
    1_000_000,
    day - 1,
    day,
    day + 1,
    951_782_400_000_000 /* 2000-02-29 */,
    2 ** 53 - 1,
  ];
  let t = 1_763_942_400_000_000; // 2025-11-24
  for (let i = 0; i < 5_000; i++) {
    const r = rng.next();
    t +=
      r < 0.5
        ? Math.floor(rng.next() * 3_000_000) - 1_500_000
        : r < 0.9
          ? Math.floor(rng.next() * 2 * day) - day
          : Math.floor(rng.next() * 400 * day);
    times.push(Math.max(0, t));
  }
  for (const us of times) {
    const end = iso(out, 5, us);
    assert.equal(out.toString('latin1', 5, end), isoMicros(BigInt(us)), String(us));
  }
});

test('integers and text cells', () => {
  const out = Buffer.alloc(64);
  for (const v of [
    0,
    7,
    9,
    10,
    99,
    100,
    65_535,
    -1,
    -10,
    2_147_483_647,
    2_147_483_648,
    -2_147_483_648,
    4_294_967_295,
    2 ** 53 - 1,
    -(2 ** 53 - 1),
  ]) {
    assert.equal(out.toString('latin1', 3, intInto(out, 3, v)), String(v));
  }
  for (const s of ['', 'zerox1/agents', 'a,b', 'say "hi"', 'line\r\nbreak', 'ünï"cødé,', '"']) {
    const src = Buffer.from(`..${s}..`, 'utf8');
    const end = textInto(out, 1, src, 2, src.length - 2);
    assert.equal(out.toString('utf8', 1, end), csvField(s), JSON.stringify(s));
  }
});
