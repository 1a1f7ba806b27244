// The indexer's live path stores the chain's own block time of each transaction: a real embedded
// chain whose Clock sysvar lags the time its transactions are stamped with (no new slot in
// between), a Haggle negotiation created and joined there, applied from the log subscription.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { acceptNegotiation, createNegotiation, ensureHaggleConfig } from '../chain/node/haggle';
import { newChainAgent, startChainWorld } from '../chain/node/testing';
import { openStore } from '../store/index';
import { startChainIndexer } from './index';

test(
  'live notifications are stored with the block time ' + 'getTransaction reports, not the Clock sysvar at arrival',
  async () => {
    // No slot timer: the Clock sysvar moves only with setEpoch.
    const w = await startChainWorld({ epochSeconds: 10n, slotMs: 0 });
    const store = await openStore({ dataDir: ':memory:', epochSeconds: 10 });
    const indexer = await startChainIndexer({ connection: w.connection, store, pollMs: 60_000 });
    try {
      const A = await newChainAgent(w);
      const B = await newChainAgent(w);
      const config = await ensureHaggleConfig(w.connection, {
        admin: w.admin,
        usdcMint: w.usdcMint,
        treasury: w.treasury,
      });
      await w.setEpoch(w.epoch() + 1n);
      await indexer.catchUp();
      const caughtUp = indexer.stats().catchup;
      const conv = Uint8Array.from(randomBytes(16));
      const ref = { buyer: A.owner.publicKey, seller: B.owner.publicKey, conversationId: conv };
      // Transactions stamped 7 s and 9 s after the slot's Clock.
      w.moveClock(7_000);
      await createNegotiation(w.connection, {
        ...ref,
        buyer: A.owner,
        config,
        deposit: 2000n,
        deadline: w.epoch() * 10n + 3600n,
        responseWindow: 600,
        decayBps: 50,
        maxRounds: 6,
        protocolFeeBps: 200,
        zopaDetection: false,
      });
      w.moveClock(2_000);
      await acceptNegotiation(w.connection, { ...ref, seller: B.owner });
      let negs = await store.onChainNegotiations(conv);
      for (let i = 0; i < 200 && (negs.length === 0 || negs[0].transitions.length < 2); i++) {
        await new Promise((r) => setTimeout(r, 25));
        await indexer.idle();
        negs = await store.onChainNegotiations(conv);
      }
      assert.equal(indexer.stats().catchup, caughtUp, 'no catch-up pass applied them (pollMs is a minute)');
      assert.equal(negs.length, 1);
      assert.equal(negs[0].transitions.length, 2, 'both transactions applied from the subscription');
      for (const t of negs[0].transitions) {
        const tx = await w.connection.getTransaction(t.signature, {
          commitment: 'confirmed',
          maxSupportedTransactionVersion: 0,
        });
        assert.ok(tx?.blockTime);
        assert.equal(t.at?.getTime(), tx.blockTime * 1000, `${t.kind} stored at the block's time`);
      }
      assert.equal(negs[0].createdAt?.getTime(), negs[0].transitions[0].at?.getTime());
    } finally {
      await indexer.stop();
      await store.close();
      await w.close();
    }
  },
);
