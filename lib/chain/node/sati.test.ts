// SATI over JSON-RPC on the embedded chain: the registry initialized once, concurrent
// registrations taking consecutive member numbers, and a chain that uses SATI's mainnet
// addresses (program id and group mint) where agents register and are recognised by the same
// rule with SATI_MAINNET.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Connection, Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';
import { type EmbeddedChain, startEmbeddedChain } from '../../devchain/index';
import { ChainAccountError } from '../errors';
import {
  agentIndexAddress,
  agentIndexHolds,
  parseAgentRegisteredLogs,
  registryConfigAddress,
  SATI_MAINNET,
  satiRegistration,
} from '../sati';
import { loadSatiMembership } from '../wallet-reads';
import { ensureSatiRegistry, loadSatiRegistry, registerSatiAgent } from './sati';

async function open(p: Parameters<typeof startEmbeddedChain>[0]) {
  const chain = await startEmbeddedChain({ port: 0, wsCompanion: false, slotMs: 20, ...p });
  const connection = new Connection(chain.rpcUrl, { commitment: 'confirmed', wsEndpoint: chain.wsUrl });
  const payer = Keypair.generate();
  const sig = await connection.requestAirdrop(payer.publicKey, 100 * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature: sig, ...(await connection.getLatestBlockhash()) }, 'confirmed');
  const close = async () => {
    const ws = (connection as unknown as { _rpcWebSocket?: { close(): void; setAutoReconnect?(v: boolean): void } })
      ._rpcWebSocket;
    ws?.setAutoReconnect?.(false);
    try {
      ws?.close();
    } catch {
      /* not open */
    }
    await chain.close();
  };
  return { chain, connection, payer, close };
}

describe('On the embedded chain: our stand-in registry (mainnet addresses)', () => {
  let w: Awaited<ReturnType<typeof open>>;
  before(async () => {
    w = await open({ satiGroupMint: SATI_MAINNET.groupMint.toBase58() });
  });
  after(async () => {
    await w.close();
  });

  test(
    'no registry before initialize; ensureSatiRegistry takes ' +
      "the existing group mint with SATI's four accounts, once",
    async () => {
      await assert.rejects(loadSatiRegistry(w.connection), ChainAccountError);
      const first = await ensureSatiRegistry(w.connection, { authority: w.payer, groupMint: SATI_MAINNET.groupMint });
      assert.equal(first.created, true);
      assert.ok(first.groupMint.equals(SATI_MAINNET.groupMint));
      const again = await ensureSatiRegistry(w.connection, { authority: w.payer });
      assert.equal(again.created, false);
      assert.ok(again.groupMint.equals(SATI_MAINNET.groupMint));
    },
  );

  test(
    'concurrent registrations get consecutive member ' + 'numbers; each is a SATI agent by the mainnet rule',
    async () => {
      const owners = Array.from({ length: 5 }, () => Keypair.generate().publicKey);
      const regs = await Promise.all(
        owners.map((o, i) =>
          registerSatiAgent(w.connection, w.payer, o, {
            name: `agent ${i}`,
            uri: `https://example.org/${i}.json`,
            nonTransferable: i % 2 === 0,
          }),
        ),
      );
      assert.deepEqual(
        regs.map((r) => r.memberNumber).sort((a, b) => Number(a - b)),
        [1n, 2n, 3n, 4n, 5n],
      );
      const cfg = await loadSatiRegistry(w.connection);
      assert.equal(cfg.totalAgents, 5n);
      for (const [i, r] of regs.entries()) {
        const info = (await w.connection.getAccountInfo(r.agent))!;
        const reg = satiRegistration(
          { address: r.agent, owner: info.owner, data: info.data, lamports: info.lamports },
          cfg,
        );
        assert.ok(
          reg.ok &&
            reg.memberNumber === r.memberNumber &&
            reg.name === `agent ${i}` &&
            reg.nonTransferable === (i % 2 === 0),
        );
        const index = await w.connection.getAccountInfo(agentIndexAddress(r.memberNumber));
        assert.ok(
          agentIndexHolds(index && { owner: index.owner, data: index.data, lamports: index.lamports }, r.agent),
        );
        const m = await loadSatiMembership(w.connection, r.agent);
        assert.equal(m.uri, `https://example.org/${i}.json`);
        const tx = await w.connection.getTransaction(r.signature, {
          commitment: 'confirmed',
          maxSupportedTransactionVersion: 0,
        });
        const [ev] = parseAgentRegisteredLogs(tx?.meta?.logMessages ?? []);
        assert.ok(ev?.mint.equals(r.agent) && ev.owner.equals(owners[i]) && ev.memberNumber === r.memberNumber);
      }
      assert.ok(registryConfigAddress().equals(registryConfigAddress(SATI_MAINNET.program)));
    },
  );

  test('a mint that is no SATI agent: loadSatiMembership names the reason', async () => {
    await assert.rejects(
      loadSatiMembership(w.connection, Keypair.generate().publicKey),
      /not a registered SATI agent \(unregistered\)/,
    );
  });
});

describe('SATI stand-in at another program id (a deployment parameter)', () => {
  let chain: EmbeddedChain;
  let w: Awaited<ReturnType<typeof open>>;
  const program = Keypair.generate().publicKey;
  before(async () => {
    w = await open({ satiProgram: program.toBase58() });
    chain = w.chain;
  });
  after(async () => {
    await w.close();
  });

  test("loaded at the configured id, not at SATI's; registration follows the id", async () => {
    assert.ok(chain.programs.some((p) => p.name === 'sati_registry' && p.id === program.toBase58()));
    assert.ok(!chain.programs.some((p) => p.id === SATI_MAINNET.program.toBase58()));
    const cfg = await ensureSatiRegistry(w.connection, { authority: w.payer, program });
    const r = await registerSatiAgent(w.connection, w.payer, w.payer.publicKey, { name: 'x', uri: '', program });
    assert.equal(r.memberNumber, 1n);
    assert.equal(
      (await loadSatiMembership(w.connection, r.agent, program)).registry.groupMint.toBase58(),
      cfg.groupMint.toBase58(),
    );
  });
});
