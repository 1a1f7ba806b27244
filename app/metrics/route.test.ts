// /metrics adds `zerox1_leader{role}` to the observer's metrics: 1 for each run-once role this
// process leads, 0 for each it stands by for (lib/store/leader/leader.ts), in the Prometheus text format.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LeaderStatus } from '../../lib/store/leader';
import { registerServices, type Services } from '../_lib/services';
import { GET } from './route';

const status = (role: LeaderStatus['role'], leading: boolean): LeaderStatus => ({
  role,
  leading,
  since: leading ? new Date(0).toISOString() : null,
  terms: leading ? 1 : 0,
  lastError: null,
});

test('/metrics says which roles this process leads', async () => {
  const services = {
    observatory: { metrics: async () => ({ contentType: 'text/plain; version=0.0.4', text: 'zerox1_up 1\n' }) },
    reads: {},
    config: {},
    leaders: () => [status('indexer', false), status('alerts', true), status('releases', true)],
  } as unknown as Services;
  registerServices(services);
  try {
    const text = await (await GET()).text();
    const lines = text.split('\n');
    assert.equal(lines[0], 'zerox1_up 1');
    assert.ok(lines.includes('# TYPE zerox1_leader gauge'), text);
    assert.deepEqual(
      lines.filter((l) => l.startsWith('zerox1_leader{')),
      ['zerox1_leader{role="indexer"} 0', 'zerox1_leader{role="alerts"} 1', 'zerox1_leader{role="releases"} 1'],
    );
    assert.ok(text.endsWith('\n'));
  } finally {
    registerServices(undefined);
  }
});
