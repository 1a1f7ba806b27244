// The same-origin chain proxy forwards standard Solana methods to a real embedded chain and
// refuses the chain's development methods (zerox1_warpSlot) from browsers, alone or in a batch,
// so a visitor cannot move the observatory's chain; the test proves the warp itself works when
// sent to the chain directly, so the refusal is the proxy's doing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEV_METHODS, STANDARD_METHODS, startEmbeddedChain } from '../../../../lib/devchain';
import { registerServices, type Services } from '../../../_lib/services';
import { SOLANA_HTTP_METHODS } from '../../../_lib/rpc-proxy';
import { POST } from './route';

test('POST /api/chain/rpc forwards Solana methods and refuses zerox1_warpSlot', async () => {
  const chain = await startEmbeddedChain({ port: 0, slotMs: 0, wsCompanion: false, programs: [] });
  const services = { observatory: {}, reads: {}, config: {}, wallet: { embeddedRpcUrl: chain.rpcUrl } } as unknown as Services;
  registerServices(services);
  const post = async (body: unknown) => {
    const res = await POST(new Request('http://observatory.test/api/chain/rpc', { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }));
    return { status: res.status, body: (await res.json()) as { result?: unknown; error?: { code: number; message: string } } & unknown[] };
  };
  try {
    chain.tick();
    const slot = chain.ledger.slot;
    assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'getSlot' })).body.result, slot);

    const warp = { jsonrpc: '2.0', id: 7, method: 'zerox1_warpSlot', params: { slot: slot + 432_001 } };
    const alone = await post(warp);
    assert.equal(alone.status, 200);
    assert.equal(alone.body.error?.code, -32601);
    assert.match(alone.body.error!.message, /zerox1_warpSlot is not a standard Solana method/);
    assert.equal((alone.body as unknown as { id: number }).id, 7);
    const batch = await post([{ jsonrpc: '2.0', id: 1, method: 'getSlot' }, warp]);
    assert.equal(batch.body.error?.code, -32601, 'a batch carrying it is refused whole');
    assert.equal((await post('{"jsonrpc":"2.0","id":1,"method":')).body.error?.code, -32700);
    assert.equal(chain.ledger.slot, slot, 'the chain was not warped through the proxy');

    // Sent to the chain itself (as the e2e test process does), the same request warps it.
    const direct = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(warp) });
    assert.equal(((await direct.json()) as { result: { slot: number } }).result.slot, slot + 432_001);

    // Every method the embedded chain serves a wallet goes through; none of its development ones does.
    for (const m of STANDARD_METHODS) assert.ok(SOLANA_HTTP_METHODS.has(m), `${m} is forwarded`);
    for (const m of DEV_METHODS) assert.ok(!SOLANA_HTTP_METHODS.has(m), `${m} is refused`);
    assert.ok(DEV_METHODS.includes('zerox1_warpSlot'));
  } finally {
    registerServices(undefined);
    await chain.close();
  }
});
