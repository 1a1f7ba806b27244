// The negotiations table's on-chain columns from a real embedded chain (our compiled haggle
// program) through the chain indexer into a real store: a negotiation settled on chain whose
// offers match its gossip, one rejected on chain after its gossip ran one COUNTER further, and
// one negotiated off chain only. Every on-chain column is read back exactly (u64 amounts as
// decimals) by the independent readers (csv-parse, JSON.parse, hyparquet); slots and block
// times come from the chain's own getTransaction. PGlite always; Postgres with TEST_DATABASE_URL.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Keypair } from '@solana/web3.js';
import { type HaggleConfig, type NegotiationRef, negotiationAddress } from '../chain/haggle';
import { fundUsdc } from '../chain/node/economy';
import {
  acceptNegotiation,
  acceptOffer,
  createNegotiation,
  ensureHaggleConfig,
  rejectNegotiation,
  submitOffer,
} from '../chain/node/haggle';
import { type ChainWorld, startChainWorld } from '../chain/node/testing';
import { startChainIndexer } from '../indexer/index';
import { publicKeyFromSeed } from '../protocol/crypto';
import { buildEnvelope } from '../protocol/envelope';
import { toHex } from '../protocol/hex';
import { encodeNeg1 } from '../protocol/neg1';
import { MsgType } from '../protocol/types';
import type { IngestItem } from '../store';
import { openStore, type Store } from '../store/index';
import { createTestDatabase, skipWithoutPostgres, testPostgresUrl } from '../store/testing';
import { agentSeed } from './deals-testing';
import { exportTable } from './export';
import { isoMicros } from './schema';
import { TABLES } from './tables';
import { collect, parquetKv, type ReadRow, readBack } from './testing';
import { FORMATS } from './writers';

const ONCHAIN = TABLES.negotiations.columns
  .slice(TABLES.negotiations.columns.findIndex((c) => c.name === 'onchain'))
  .map((c) => c.name);
type Expected = Record<string, string | null>;

/** One reader's cell as a canonical string (null for a null cell), so the three formats compare alike. */
function canon(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  if (v instanceof Date) return isoMicros(BigInt(v.getTime()) * 1000n);
  if (v instanceof Uint8Array) return toHex(v);
  return String(v);
}

/**
 * The gossiped side of a conversation: NEG1 offers (decay 50 bps, 6 rounds) and the closing message, signed by demo
 * agents 0 (buyer) and 1 (seller).
 */
function gossip(conv: Uint8Array, msgs: Array<[0 | 1, number, bigint]>, clock: { us: bigint }): IngestItem[] {
  const agents = [agentSeed(0), agentSeed(1)];
  return msgs.map(([from, msgType, price], round) => {
    clock.us += 1_000_000n;
    const payload = encodeNeg1({
      bidValue: price,
      tokenMint: new Uint8Array(32),
      serviceHash: new Uint8Array(32).fill(5),
      round,
      deadline: 0n,
      decayBps: 50,
      maxRounds: 6,
      verification: { tier: 0, testSuiteHash: new Uint8Array(0) },
      reason: msgType === MsgType.REJECT ? 4 : 0,
      metadata: new Uint8Array(0),
    });
    const b = buildEnvelope(
      {
        msgType,
        sender: agents[from],
        recipient: agents[1 - from],
        conversationId: conv,
        nonce: clock.us,
        timestamp: clock.us,
        payload,
        blockRef: 1n,
      },
      agents[from],
    );
    return {
      id: b.id,
      envelope: b.envelope,
      raw: b.bytes,
      source: 'stream',
      receivedAt: new Date(Number(clock.us / 1000n)),
    };
  });
}

const OFF_CHAIN: Expected = Object.fromEntries(ONCHAIN.map((c) => [c, null]));
Object.assign(OFF_CHAIN, { onchain: 'false', onchain_negotiations: '0' });

/**
 * Stores the gossip and indexes the chain into `store`, then exports through `exporter` (a store on the same database).
 */
async function story(store: Store, exporter: Store = store): Promise<void> {
  const w: ChainWorld = await startChainWorld();
  try {
    const config: HaggleConfig = await ensureHaggleConfig(w.connection, {
      admin: w.admin,
      usdcMint: w.usdcMint,
      treasury: w.treasury,
    });
    const buyer = await w.wallet(10_000n);
    const seller = await w.wallet();
    // The seller's USDC account, for the payout at settlement.
    await fundUsdc(w.connection, {
      payer: w.admin,
      mintAuthority: w.admin,
      usdcMint: w.usdcMint,
      owner: seller.publicKey,
      amount: 0n,
    });
    const at = async (sig: string) => {
      const tx = await w.connection.getTransaction(sig, { commitment: 'confirmed', maxSupportedTransactionVersion: 0 });
      assert.ok(tx && tx.blockTime !== null && tx.blockTime !== undefined, `transaction ${sig} with a block time`);
      return { slot: String(tx.slot), time: isoMicros(BigInt(tx.blockTime!) * 1_000_000n) };
    };
    const open = async (deposit: bigint, decayBps: number) => {
      const ref: NegotiationRef = {
        buyer: buyer.publicKey,
        seller: seller.publicKey,
        conversationId: Uint8Array.from(randomBytes(16)),
      };
      const sig = await createNegotiation(w.connection, {
        ...ref,
        buyer,
        config,
        deposit,
        deadline: w.epoch() * w.epochSeconds + 3600n,
        responseWindow: 600,
        decayBps,
        maxRounds: 6,
        protocolFeeBps: 200,
        zopaDetection: false,
      });
      await acceptNegotiation(w.connection, { ...ref, seller });
      return { ref, sig, created: await at(sig) };
    };
    const offer = (ref: NegotiationRef, party: Keypair, amount: bigint) =>
      submitOffer(w.connection, { ...ref, config, party, amount });
    const base = (o: { ref: NegotiationRef; sig: string; created: { slot: string; time: string } }) => ({
      onchain: 'true',
      onchain_negotiations: '1',
      onchain_address: negotiationAddress(o.ref).toBase58(),
      onchain_create_signature: o.sig,
      onchain_buyer: buyer.publicKey.toBase58(),
      onchain_seller: seller.publicKey.toBase58(),
      onchain_protocol_fee_bps: '200',
      onchain_max_rounds: '6',
      escrow_held: '0',
      onchain_buyer_reservation: null,
      onchain_seller_reservation: null,
      onchain_zopa: null,
      onchain_created_slot: o.created.slot,
      onchain_created_at: o.created.time,
    });

    // Settled: 400, 900, 600 on chain as gossiped; 600 accepted at 2% fee out of 2000 − 28 decayed.
    const settled = await open(2000n, 50);
    await offer(settled.ref, buyer, 400n);
    await offer(settled.ref, seller, 900n);
    await offer(settled.ref, buyer, 600n);
    const settledEnd = await at(await acceptOffer(w.connection, { ...settled.ref, config, party: seller }));
    // Rejected: the buyer's 300 on chain (1% decay of 1000), the seller rejects; the gossip had a COUNTER 700 the chain
    // never saw.
    const rejected = await open(1000n, 100);
    await offer(rejected.ref, buyer, 300n);
    const rejectedEnd = await at(await rejectNegotiation(w.connection, { ...rejected.ref, config, party: seller }));
    const offChain = Uint8Array.from(randomBytes(16));

    const clock = { us: 1_767_225_600_000_000n };
    const { PROPOSE, COUNTER, ACCEPT, REJECT } = MsgType;
    for (const i of [0, 1])
      await store.registerSignerKey({ agentId: agentSeed(i), publicKey: publicKeyFromSeed(agentSeed(i)) });
    await store.ingestEnvelopes([
      ...gossip(
        settled.ref.conversationId,
        [
          [0, PROPOSE, 400n],
          [1, COUNTER, 900n],
          [0, COUNTER, 600n],
          [1, ACCEPT, 600n],
        ],
        clock,
      ),
      ...gossip(
        rejected.ref.conversationId,
        [
          [0, PROPOSE, 300n],
          [1, COUNTER, 700n],
          [0, REJECT, 700n],
        ],
        clock,
      ),
      ...gossip(
        offChain,
        [
          [0, PROPOSE, 1000n],
          [1, ACCEPT, 1000n],
        ],
        clock,
      ),
    ]);
    const indexer = await startChainIndexer({ connection: w.connection, store, pollMs: 60_000 });
    try {
      await indexer.idle();
    } finally {
      await indexer.stop();
    }

    const expected = new Map<string, Expected>([
      [
        toHex(settled.ref.conversationId),
        {
          ...OFF_CHAIN,
          ...base(settled),
          onchain_status: 'settled',
          onchain_decay_bps: '50',
          escrow_deposited: '2000',
          escrow_decayed_total: '28',
          rounds_onchain: '3',
          onchain_last_offer: '600',
          settled_amount: '600',
          settled_amount_to_seller: '588',
          protocol_fee: '12',
          refund_to_buyer: '1372',
          onchain_last_slot: settledEnd.slot,
          onchain_last_at: settledEnd.time,
          onchain_closed_at: settledEnd.time,
          onchain_offer_differences: '0',
          onchain_matches_gossip: 'true',
        },
      ],
      [
        toHex(rejected.ref.conversationId),
        {
          ...OFF_CHAIN,
          ...base(rejected),
          onchain_status: 'rejected',
          onchain_refund_reason: 'rejected',
          onchain_decay_bps: '100',
          escrow_deposited: '1000',
          escrow_decayed_total: '10',
          rounds_onchain: '1',
          onchain_last_offer: '300',
          refund_to_buyer: '990',
          onchain_last_slot: rejectedEnd.slot,
          onchain_last_at: rejectedEnd.time,
          onchain_closed_at: rejectedEnd.time,
          onchain_offer_differences: '1',
          onchain_matches_gossip: 'false',
        },
      ],
      [toHex(offChain), OFF_CHAIN],
    ]);
    const source = exporter.exportSource();
    for (const format of FORMATS) {
      // Pages of 2 envelopes: a conversation's envelopes span pages, and so do its on-chain rows.
      // Two exports at once, so on the two-connection pool below both cursors hold a connection.
      const [bytes, again] = await Promise.all(
        [0, 1].map(async () =>
          collect((await exportTable({ source, table: 'negotiations', format, pageSize: 2 })).bytes),
        ),
      );
      assert.ok(bytes.equals(again), `${format}: the same bytes twice`);
      const rows = await readBack(format, bytes);
      assert.equal(rows.length, 3, format);
      if (format === 'parquet')
        assert.equal(parquetKv(bytes)['zerox1.schema_version'], String(TABLES.negotiations.version));
      for (const r of rows as ReadRow[]) {
        const want = expected.get(canon(r.conversation_id)!);
        assert.ok(want, `${format}: an expected conversation`);
        assert.deepEqual(Object.fromEntries(ONCHAIN.map((c) => [c, canon(r[c])])), want, `${format}: ${r.outcome}`);
      }
    }
  } finally {
    await w.close();
  }
}

describe('negotiations: on-chain Haggle columns', () => {
  test('PGlite: settled, rejected and off-chain negotiations, exact in CSV, JSONL and Parquet', async () => {
    const store = await openStore({ dataDir: ':memory:', epochSeconds: 10 });
    try {
      await story(store);
    } finally {
      await store.close();
    }
  });

  // Two exports at once through a two-connection pool: each cursor holds one connection, so each
  // export's on-chain reads must run on its own; reads that asked the pool for another would wait
  // for each other forever (the timeout fails it). The indexer writes through its own store.
  test('Postgres, two exports at once through a two-connection pool: same', {
    skip: skipWithoutPostgres(),
    timeout: 120_000,
  }, async () => {
    const db = await createTestDatabase(testPostgresUrl()!, 'zx_export_onchain');
    const store = await openStore({ databaseUrl: db.url, epochSeconds: 10 });
    const exporter = await openStore({ databaseUrl: db.url, epochSeconds: 10, poolSize: 2 });
    try {
      await story(store, exporter);
    } finally {
      await exporter.close();
      await store.close();
      await db.drop();
    }
  });
});
