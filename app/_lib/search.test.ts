// Search hits name an agent the way every page does (lib/wire/agent-name.ts through
// app/_lib/names.ts): its SATI name, not the label derived from its id, on a challenge, batch and
// agent hit alike. Real store (PGlite).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStore } from '../../lib/store/index';
import { bytesToHex } from '../../lib/wire';
import { agentLabel } from '../../lib/wire/agent-name';
import { base58 } from '../../lib/wire/format';
import { runSearch } from './search';
import type { Services } from './services';

test('a challenge, batch and agent hit carry the SATI name', async () => {
  const store = await openStore({ dataDir: ':memory:', epochSeconds: 10 });
  try {
    const agent = new Uint8Array(32).fill(0x9c);
    const hex = bytesToHex(agent);
    await store.setAgentLabel(agent, 'Zerox1 demo agent 2');
    await store.upsertBatch({
      agentId: agent,
      epoch: 7n,
      batchHash: new Uint8Array(32),
      root: new Uint8Array(32),
      slot: 1n,
      signature: '5BatchSig4kq9WqVDem0Agent2Epoch7'.replace('0', 'o'),
      data: {},
    });
    const address = base58(bytesToHex(new Uint8Array(32).fill(5)));
    await store.upsertChallenge({
      address,
      agentId: agent,
      epoch: 7n,
      challenger: new Uint8Array(32).fill(1),
      status: 'pending',
      slot: 2n,
      signature: 'sig1',
    });
    const o = { reads: store, observatory: { store }, config: { epochSeconds: 10 } } as unknown as Services;
    const detail = async (q: string, kind: string) =>
      (await runSearch(o, q, 10)).hits.find((h) => h.kind === kind)?.detail ?? '';
    assert.match(await detail(address, 'challenge'), /agent Zerox1 demo agent 2 /);
    assert.match(await detail(`${hex} 7`, 'batch'), /^Zerox1 demo agent 2 · epoch 7/);
    assert.match(await detail(hex, 'agent'), /^Zerox1 demo agent 2 · /);
    for (const k of ['challenge', 'batch', 'agent'])
      assert.doesNotMatch(
        await detail(k === 'challenge' ? address : k === 'batch' ? `${hex} 7` : hex, k),
        new RegExp(agentLabel(hex)),
      );
    // The batch's transaction opens the batch it submitted, not the agent's (much larger) page.
    const tx = (await runSearch(o, '5BatchSig4kq9WqVDemoAgent2Epoch7', 10)).hits.find((h) => h.kind === 'transaction');
    assert.equal(tx?.href, `/batches/${base58(hex)}/7`);
    // An agent hit carries when it was last seen, for the page to show in the viewer's zone.
    const a = (await runSearch(o, hex, 10)).hits.find((h) => h.kind === 'agent');
    assert.ok(a?.at && Number.isFinite(Date.parse(a.at)), `agent hit time: ${a?.at}`);
  } finally {
    await store.close();
  }
});
