// The agent page's charts come on request from a server function anyone can call: it answers a
// wrong id or chart name with a sentence (a production build would hide a thrown error's message),
// and draws the chart from the same reads the page made.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { renderToStaticMarkup } from 'react-dom/server';
import { registerServices, type Services } from '../../_lib/services';
import { agentChart } from './charts';

const AGENT = '5a'.repeat(32);
const services = {
  observatory: {},
  reads: {
    reputationPoints: async () => ({ points: [], earlier: false }),
  },
  config: { epochSeconds: 60 },
} as unknown as Services;

const html = async (kind: string, agent: string) =>
  renderToStaticMarkup((await agentChart(kind as 'reputation', agent)) as React.ReactElement);

test('without services, a bad id or an unknown chart: a sentence, not a throw', async () => {
  registerServices(undefined);
  assert.match(await html('reputation', AGENT), /not running/);
  registerServices(services);
  try {
    assert.match(await html('reputation', 'nope'), /Not an agent id: nope/);
    assert.match(await html('pie', AGENT), /No chart named pie/);
    // No chain: the stake and lease chart says why it is unknown.
    assert.match(await html('economy', AGENT), /data-testid="economy-unknown"/);
    // A failing read is said with its reason.
    const failing = {
      ...services,
      reads: { reputationPoints: async () => Promise.reject(new Error('db down')) },
    };
    registerServices(undefined);
    registerServices(failing as unknown as Services);
    assert.match(await html('reputation', AGENT), /could not be read: db down/);
  } finally {
    registerServices(undefined);
  }
});

test('the reputation chart is drawn from the stored points', async () => {
  registerServices(services);
  try {
    assert.match(await html('reputation', AGENT), /No feedback about this agent yet/);
  } finally {
    registerServices(undefined);
  }
});
