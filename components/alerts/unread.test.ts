// The bell and the alerts list show one unread count: the last one either of them read.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { publishUnread, unreadNow } from './unread';

test('one count: the last read sets it for every reader', () => {
  publishUnread(4); // the bell's poll
  publishUnread(5); // the list's read a moment later
  assert.equal(unreadNow(), 5);
  // Both components show the shared count, neither keeps its own.
  for (const f of ['Bell.tsx', 'AlertsView.tsx']) {
    const src = readFileSync(fileURLToPath(new URL(f, import.meta.url)), 'utf8');
    assert.match(src, /useUnread\(\)/, f);
    assert.doesNotMatch(src, /\[unread, setUnread\] = useState/, f);
  }
});
