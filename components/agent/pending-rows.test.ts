// A pending challenge the agent page sent by address (it is among the newest too) is listed in full.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pendingRows } from './pending-rows';

const row = (n: number) => ({ address: `Addr${n}`, epoch: String(100 - n), status: 'pending' });

test("an address is the newest list's row; a row only pending stays whole; an unknown address is left out", () => {
  const newest = [row(1), row(2), row(3)];
  assert.deepEqual(pendingRows(newest, ['Addr1', 'Addr3', row(9)]), [row(1), row(3), row(9)]);
  assert.deepEqual(pendingRows(newest, ['Nope']), []);
  assert.deepEqual(pendingRows([], [row(4)]), [row(4)]);
});
