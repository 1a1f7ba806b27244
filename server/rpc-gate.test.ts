// The chain proxy's turns and the faucet's budgets (./rpc-gate.ts): at most `concurrency`
// requests run, `queue` more wait in order, one more is refused at once (429) and costs nothing;
// the faucet charges the asking client and the receiving wallet.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Admission, createFaucetGate, createRpcGate, isRefusal } from './rpc-gate';

test('bounded turns: concurrency run, the queue waits in order, one more is refused with 429', async () => {
  const gate = createRpcGate({
    maxBatch: 50,
    calls: { perSecond: 1, burst: 10 },
    heavy: null,
    concurrency: 2,
    queue: 1,
  });
  try {
    const a = await gate.admit('c', { calls: 1, heavy: 0 });
    const b = await gate.admit('c', { calls: 1, heavy: 0 });
    assert.ok(!isRefusal(a) && !isRefusal(b));
    let cGot = false;
    const c = gate.admit('c', { calls: 1, heavy: 0 }).then((t) => ((cGot = true), t));
    const d = await gate.admit('c', { calls: 1, heavy: 0 });
    assert.ok(isRefusal(d));
    assert.equal(d.status, 429);
    assert.match(d.message, /the chain proxy is busy: 2 requests running and 1 waiting/);
    assert.deepEqual(gate.stats(), { inFlight: 2, queued: 1, overBudget: 0, busy: 1 });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(cGot, false, 'the queued request waits for a turn');
    (a as Admission).release();
    const ct = await c;
    assert.ok(!isRefusal(ct));
    (b as Admission).release();
    ct.release();
    assert.deepEqual(gate.stats(), { inFlight: 0, queued: 0, overBudget: 0, busy: 1 });
    // The refused request was refunded: 3 of the 10 tokens are spent, 7 left.
    assert.ok(
      !isRefusal(await gate.admit('c', { calls: 7, heavy: 0 }).then((t) => (isRefusal(t) ? t : (t.release(), t)))),
    );
    assert.ok(isRefusal(await gate.admit('c', { calls: 1, heavy: 0 })));
  } finally {
    gate.close();
  }
});

test('the faucet budget is per client and per wallet, and a refusal does not charge the other', () => {
  const g = createFaucetGate({ perClientPerHour: 3, perWalletPerHour: 2 });
  try {
    assert.equal(g.take('a', 'w1'), null);
    assert.equal(g.take('a', 'w1'), null);
    const w = g.take('a', 'w1');
    assert.equal(w?.status, 429);
    assert.match(w!.message, /at most 2 drops per hour to one wallet; retry after \d+ s/);
    assert.ok(w!.retryAfter! > 1000, 'an hourly budget refills in about half an hour per drop');
    assert.equal(g.take('a', 'w2'), null, 'the refused drop did not cost the client');
    const c = g.take('a', 'w3');
    assert.match(c!.message, /at most 3 drops per hour to one client/);
    assert.equal(g.take('b', 'w3'), null, 'the refused drop did not cost the wallet');
  } finally {
    g.close();
  }
});
