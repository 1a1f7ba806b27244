// The same-origin chain proxy forwards standard Solana methods to a real embedded chain and
// refuses the chain's development methods (zerox1_warpSlot) from browsers, alone or in a batch,
// so a visitor cannot move the observatory's chain; the test proves the warp itself works when
// sent to the chain directly, so the refusal is the proxy's doing. Its limits are checked on the
// same real chain: batch cap, the budget of expensive calls, airdrops only from the faucet.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';
import { CLIENT_HEADER } from '../app/_lib/client';
import { registerServices, type Services } from '../app/_lib/services';
import { POST } from '../app/api/chain/rpc/route';
import { createConnection } from '../lib/chain/node/rpc';
import { SOLANA_HTTP_METHODS } from '../lib/chain/node/rpc-proxy';
import { DEV_METHODS, type EmbeddedChain, STANDARD_METHODS, startEmbeddedChain } from '../lib/devchain';
import type { Store } from '../lib/store';
import type { ChainRuntime } from './chain';
import { DEFAULT_RPC_LIMITS, type FaucetLimits, type RpcLimits } from './rpc-gate';
import { walletServices } from './wallet';

type RpcBody = { result?: unknown; error?: { code: number; message: string }; id?: unknown } & unknown[];

/** The proxy over a real embedded chain, with the wallet services server/runtime.ts builds. */
async function withProxy(
  opts: { rpcLimits?: RpcLimits; faucet?: FaucetLimits | null },
  fn: (p: {
    chain: EmbeddedChain;
    post: (body: unknown, client?: string) => Promise<{ status: number; headers: Headers; body: RpcBody }>;
  }) => Promise<void>,
) {
  const chain = await startEmbeddedChain({ port: 0, slotMs: 0, wsCompanion: false, programs: [] });
  const runtime = {
    embedded: true,
    rpcUrl: chain.rpcUrl,
    connection: createConnection({ rpcUrl: chain.rpcUrl, wsUrl: chain.wsUrl }),
    faucetAccount: chain.faucet,
    deployment: { admin: Keypair.generate(), config: {} },
  } as unknown as ChainRuntime;
  const wallet = walletServices({ chain: runtime, store: {} as Store, rpcLimits: opts.rpcLimits, faucet: opts.faucet });
  registerServices({ observatory: {}, reads: {}, config: {}, wallet } as unknown as Services);
  const post = async (body: unknown, client = '10.0.0.1') => {
    const res = await POST(
      new Request('http://observatory.test/api/chain/rpc', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [CLIENT_HEADER]: client },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    );
    return { status: res.status, headers: res.headers, body: (await res.json()) as RpcBody };
  };
  try {
    await fn({ chain, post });
  } finally {
    registerServices(undefined);
    wallet.close?.();
    await chain.close();
  }
}

const call = (method: string, id: number, params?: unknown) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params !== undefined && { params }),
});

test('POST /api/chain/rpc forwards Solana methods and refuses zerox1_warpSlot', async () => {
  await withProxy({}, async ({ chain, post }) => {
    chain.tick();
    const slot = chain.ledger.slot;
    assert.equal((await post({ jsonrpc: '2.0', id: 1, method: 'getSlot' })).body.result, slot);

    const warp = { jsonrpc: '2.0', id: 7, method: 'zerox1_warpSlot', params: { slot: slot + 432_001 } };
    const alone = await post(warp);
    assert.equal(alone.status, 200);
    assert.equal(alone.body.error?.code, -32601);
    assert.match(alone.body.error!.message, /zerox1_warpSlot is not a standard Solana method/);
    assert.equal(alone.body.id, 7);
    const batch = await post([{ jsonrpc: '2.0', id: 1, method: 'getSlot' }, warp]);
    assert.equal(batch.body.error?.code, -32601, 'a batch carrying it is refused whole');
    assert.equal((await post('{"jsonrpc":"2.0","id":1,"method":')).body.error?.code, -32700);
    assert.equal(chain.ledger.slot, slot, 'the chain was not warped through the proxy');

    // Sent to the chain itself (as the e2e test process does), the same request warps it.
    const direct = await fetch(chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(warp),
    });
    assert.equal(((await direct.json()) as { result: { slot: number } }).result.slot, slot + 432_001);

    // Every method the embedded chain serves a wallet goes through; none of its development ones does.
    for (const m of STANDARD_METHODS) assert.ok(SOLANA_HTTP_METHODS.has(m), `${m} is forwarded`);
    for (const m of DEV_METHODS) assert.ok(!SOLANA_HTTP_METHODS.has(m), `${m} is refused`);
    assert.ok(DEV_METHODS.includes('zerox1_warpSlot'));
  });
});

test('a batch over the cap is refused whole with 413 and a JSON-RPC error naming the cap', async () => {
  await withProxy({ rpcLimits: { ...DEFAULT_RPC_LIMITS, calls: null, heavy: null } }, async ({ post }) => {
    const ok = await post(Array.from({ length: 50 }, (_, i) => call('getSlot', i)));
    assert.equal(ok.status, 200);
    assert.equal(ok.body.length, 50);
    const over = await post(Array.from({ length: 51 }, (_, i) => call('getSlot', i)));
    assert.equal(over.status, 413);
    assert.equal(over.body.error?.code, -32600);
    assert.match(over.body.error!.message, /batch of 51 calls is over this proxy's cap of 50/);
    const thousand = await post(
      Array.from({ length: 1000 }, (_, i) => call('getProgramAccounts', i, ['11111111111111111111111111111111'])),
    );
    assert.equal(thousand.status, 413);
    assert.equal((await post([])).status, 413, 'an empty batch');
  });
});

test('expensive methods spend their own, smaller budget per client', async () => {
  const limits: RpcLimits = {
    ...DEFAULT_RPC_LIMITS,
    calls: { perSecond: 100, burst: 100 },
    heavy: { perSecond: 0.5, burst: 5 },
  };
  await withProxy({ rpcLimits: limits }, async ({ post }) => {
    const gpa = (i: number) => call('getProgramAccounts', i, ['TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA']);
    const five = await post([gpa(1), gpa(2), gpa(3), gpa(4), gpa(5)]);
    assert.equal(five.status, 200);
    assert.equal(five.body.length, 5);
    const sixth = await post(gpa(6));
    assert.equal(sixth.status, 429);
    assert.equal(sixth.headers.get('retry-after'), '2');
    assert.equal(sixth.body.id, 6);
    assert.match(sixth.body.error!.message, /too many expensive chain calls .* from this client/);
    // Cheap calls still pass, and another client has its own budget.
    assert.equal((await post(call('getSlot', 7))).status, 200);
    // getMultipleAccounts of a few keys is as cheap as that many getAccountInfo; of many, expensive.
    const keys = (n: number) => Array.from({ length: n }, () => Keypair.generate().publicKey.toBase58());
    const few = await post(call('getMultipleAccounts', 9, [keys(10)]));
    assert.equal(few.status, 200, JSON.stringify(few.body));
    assert.equal((few.body.result as { value: unknown[] }).value.length, 10);
    const many = await post(call('getMultipleAccounts', 10, [keys(11)]));
    assert.equal(many.status, 429, 'eleven keys spend the expensive budget, which is empty');
    assert.equal((await post(gpa(8), '10.0.0.2')).status, 200);
    // A batch that could never fit the budget says so (413) instead of asking to retry.
    const six = await post(
      Array.from({ length: 6 }, (_, i) => gpa(i)),
      '10.0.0.3',
    );
    assert.equal(six.status, 413);
    assert.match(six.body.error!.message, /6 expensive calls .* over this client's budget of 5/);
    // That refusal cost nothing: the same client's next five go through.
    assert.equal((await post([gpa(1), gpa(2), gpa(3), gpa(4), gpa(5)], '10.0.0.3')).status, 200);
  });
});

test('requestAirdrop through the proxy: off without the faucet, capped at one drop, limited per wallet', async () => {
  const to = Keypair.generate().publicKey.toBase58();
  await withProxy({ faucet: null }, async ({ chain, post }) => {
    const r = await post(call('requestAirdrop', 1, [to, LAMPORTS_PER_SOL]));
    assert.equal(r.body.error?.code, -32601);
    assert.match(r.body.error!.message, /requestAirdrop is not served here: the faucet is off/);
    assert.equal(chain.ledger.history.signaturesFor(to, { limit: 10 }).length, 0);
  });
  await withProxy({ faucet: { perClientPerHour: 10, perWalletPerHour: 2 } }, async ({ post }) => {
    const huge = await post(call('requestAirdrop', 1, [to, 1_000_000 * LAMPORTS_PER_SOL]));
    assert.equal(huge.body.error?.code, -32602);
    assert.match(
      huge.body.error!.message,
      /airdrop of 1000000000000000 lamports is over this server's cap of 2000000000/,
    );
    for (let i = 0; i < 2; i++)
      assert.equal(typeof (await post(call('requestAirdrop', 2, [to, LAMPORTS_PER_SOL]))).body.result, 'string');
    const third = await post(call('requestAirdrop', 3, [to, LAMPORTS_PER_SOL]), '10.0.0.9');
    assert.equal(third.status, 429);
    assert.match(third.body.error!.message, /at most 2 drops per hour to one wallet/);
    assert.ok(Number(third.headers.get('retry-after')) > 0);
  });
});
