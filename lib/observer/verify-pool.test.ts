import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ed25519Sign, ed25519Verify, publicKeyFromSeed, sha256 } from '../protocol/crypto';
import { createSignaturePool } from './verify-pool';

const enc = new TextEncoder();
const seed = (i: number) => sha256(enc.encode(`pool/${i}`));
const pks = [0, 1, 2].map((i) => publicKeyFromSeed(seed(i)));

/** Signed messages of varied lengths; every third has a flipped signature bit, every fifth the wrong key first. */
function cases(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const message = new Uint8Array(1 + ((i * 37) % 700)).fill(i & 0xff);
    const signature = ed25519Sign(message, seed(i % 3));
    if (i % 3 === 1) signature[i % 64] ^= 1 << (i % 8);
    const keys = i % 5 === 0 ? [pks[(i + 1) % 3], pks[i % 3]] : [pks[i % 3]];
    const want = keys.some((k) => ed25519Verify(signature, message, k));
    return { message, signature, keys, want };
  });
}

describe('signature pool (worker threads)', () => {
  test('answers like ed25519Verify, in submission order, across batches and workers', async () => {
    const pool = createSignaturePool({ workers: 2, maxBatch: 16 });
    try {
      assert.equal(pool.workers, 2);
      const cs = cases(500);
      assert.ok(cs.some((c) => c.want) && cs.some((c) => !c.want));
      const order: number[] = [];
      const got = await Promise.all(
        cs.map((c, i) =>
          pool.verify(c.signature, c.message, c.keys).then((ok) => {
            order.push(i);
            return ok;
          }),
        ),
      );
      assert.deepEqual(
        got,
        cs.map((c) => c.want),
      );
      assert.deepEqual(
        order,
        cs.map((_, i) => i),
      );
      assert.equal(pool.inThread, 0);
    } finally {
      await pool.close();
    }
  });

  test('keys or signatures of the wrong size, and no keys, are false without a worker round trip', async () => {
    const pool = createSignaturePool({ workers: 1 });
    try {
      const [c] = cases(1).filter((x) => x.want);
      assert.equal(await pool.verify(c.signature, c.message, []), false);
      assert.equal(await pool.verify(c.signature.subarray(0, 63), c.message, c.keys), false);
      assert.equal(await pool.verify(c.signature, c.message, [c.keys[0].subarray(0, 31)]), false);
      assert.equal(await pool.verify(c.signature, c.message, [new Uint8Array(31), ...c.keys]), true);
    } finally {
      await pool.close();
    }
  });

  test(
    'a worker that exits has its outstanding checks ' + 'redone on the calling thread: none lost, none wrong',
    async () => {
      const pool = createSignaturePool({
        workers: 1,
        maxBatch: 64,
        workerUrl: new URL('./testdata/exiting-verify-worker.mjs', import.meta.url),
      });
      const cs = cases(300);
      const got = await Promise.all(cs.map((c) => pool.verify(c.signature, c.message, c.keys)));
      assert.deepEqual(
        got,
        cs.map((c) => c.want),
      );
      assert.equal(pool.workers, 0);
      assert.equal(pool.inThread, 300);
      // Later checks still work, in-thread.
      assert.equal(await pool.verify(cs[0].signature, cs[0].message, cs[0].keys), cs[0].want);
      await pool.close();
    },
  );

  test('close finishes what is outstanding', async () => {
    const pool = createSignaturePool({ workers: 1 });
    const cs = cases(100);
    const all = Promise.all(cs.map((c) => pool.verify(c.signature, c.message, c.keys)));
    await pool.close();
    assert.deepEqual(
      await all,
      cs.map((c) => c.want),
    );
  });

  test('bad options are RangeErrors naming the option', () => {
    assert.throws(() => createSignaturePool({ workers: 0 }), /workers/);
    assert.throws(() => createSignaturePool({ maxBatch: 1.5 }), /maxBatch/);
  });
});
