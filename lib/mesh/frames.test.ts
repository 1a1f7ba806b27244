/**
 * The oversize-frame filter on its own: whatever way the bytes are cut into chunks, the frames
 * within the limit come out byte for byte and each oversize one is left out and reported once.
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import * as lp from 'it-length-prefixed';
import { FrameError, skipOversizeFrames } from './frames';

// Over 127, so frames within the limit have two-byte length prefixes that chunks can split.
const MAX = 200;

async function* chunks(bytes: Uint8Array, cuts: number[]): AsyncGenerator<Uint8Array> {
  let at = 0;
  for (const c of [...new Set(cuts.map((x) => x % (bytes.length + 1)))].sort((a, b) => a - b)) {
    if (c > at) {
      yield bytes.subarray(at, c);
      at = c;
    }
  }
  if (at < bytes.length) yield bytes.subarray(at);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

async function run(
  source: AsyncIterable<Uint8Array>,
  maxSkipBytes?: number,
): Promise<{ out: Uint8Array; reported: number[] }> {
  const reported: number[] = [];
  const parts: Uint8Array[] = [];
  for await (const p of skipOversizeFrames(source, {
    maxDataLength: MAX,
    maxSkipBytes,
    onOversize: (n) => reported.push(n),
  }))
    parts.push(p);
  return { out: concat(parts), reported };
}

const encode = (body: Uint8Array) => lp.encode.single(body, { maxDataLength: 1 << 20 }).subarray();

describe('skipOversizeFrames', () => {
  test('any chunking: frames within the limit pass unchanged, each oversize one is reported and left out', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.integer({ min: 0, max: MAX }), fc.integer({ min: MAX + 1, max: 600 })), { maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        async (sizes, cuts) => {
          const bodies = sizes.map((n, i) => new Uint8Array(n).fill(i + 1));
          const input = concat(bodies.map(encode));
          const { out, reported } = await run(chunks(input, cuts));
          assert.deepEqual(out, concat(bodies.filter((b) => b.length <= MAX).map(encode)));
          assert.deepEqual(
            reported,
            sizes.filter((n) => n > MAX),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  test('the filtered bytes decode to the good frames', async () => {
    const bodies = [
      new Uint8Array(5).fill(1),
      new Uint8Array(300).fill(2),
      new Uint8Array(0),
      new Uint8Array(MAX).fill(3),
    ];
    const got: Uint8Array[] = [];
    const filtered = skipOversizeFrames(chunks(concat(bodies.map(encode)), [1, 2, 3, 7, 150, 309]), {
      maxDataLength: MAX,
      onOversize: () => undefined,
    });
    for await (const f of lp.decode(filtered, { maxDataLength: MAX })) got.push(f.subarray());
    assert.deepEqual(got, [bodies[0], bodies[2], bodies[3]]);
  });

  test('a length past the skip limit is reported, then ends the stream', async () => {
    const input = concat([encode(new Uint8Array(3).fill(9)), encode(new Uint8Array(500))]);
    const reported: number[] = [];
    const parts: Uint8Array[] = [];
    await assert.rejects(
      async () => {
        for await (const p of skipOversizeFrames(chunks(input, []), {
          maxDataLength: MAX,
          maxSkipBytes: 400,
          onOversize: (n) => reported.push(n),
        }))
          parts.push(p);
      },
      (e: unknown) => e instanceof FrameError && e.name === 'InvalidDataLengthError' && e.reported,
    );
    assert.deepEqual(reported, [500]);
    assert.deepEqual(concat(parts), encode(new Uint8Array(3).fill(9)));
  });

  test('a length prefix over 8 bytes, or a stream ending inside one, is an error', async () => {
    await assert.rejects(run(chunks(new Uint8Array(9).fill(0x80), [])), { name: 'InvalidDataLengthLengthError' });
    await assert.rejects(run(chunks(new Uint8Array([0x85]), [])), { name: 'UnexpectedEOFError' });
  });

  test('a stream ending inside an oversize frame ends quietly (the frame was reported)', async () => {
    const { out, reported } = await run(chunks(encode(new Uint8Array(300)).subarray(0, 50), []));
    assert.equal(out.length, 0);
    assert.deepEqual(reported, [300]);
  });
});
