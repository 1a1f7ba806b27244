// Drives the embedded chain with an unmodified @solana/web3.js Connection and @solana/spl-token
// (airdrop, transfers, token mint/accounts, signatureSubscribe, history,
// getProgramAccounts filters, getTokenAccountsByOwner, our programs).

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createMint,
  getAccount,
  getOrCreateAssociatedTokenAccount,
  mintTo,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  transfer,
} from '@solana/spl-token';
import {
  type Commitment,
  Connection,
  Ed25519Program,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  sendAndConfirmTransaction,
  Transaction,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { type EmbeddedChain, startEmbeddedChain } from './index';

let chain: EmbeddedChain;
let conn: Connection;
const payer = Keypair.generate();
const bob = Keypair.generate();
const commitment: Commitment = 'confirmed';

async function airdrop(to: PublicKey, sol: number): Promise<string> {
  const sig = await conn.requestAirdrop(to, sol * LAMPORTS_PER_SOL);
  const bh = await conn.getLatestBlockhash();
  const res = await conn.confirmTransaction({ signature: sig, ...bh }, commitment);
  assert.equal(res.value.err, null);
  return sig;
}

before(async () => {
  chain = await startEmbeddedChain({ port: 0, slotMs: 100 });
  conn = new Connection(chain.rpcUrl, commitment); // ws derived as port + 1: the companion listener
  assert.ok(chain.companionWsUrl, 'companion ws listener is up');
  await airdrop(payer.publicKey, 10);
});

/** web3.js reconnects forever once its socket drops: close the sockets before the server. */
function closeSockets(...conns: Connection[]): void {
  for (const c of conns) {
    const ws = (c as unknown as { _rpcWebSocket: { setAutoReconnect(on: boolean): void; close(): void } })
      ._rpcWebSocket;
    ws.setAutoReconnect(false);
    ws.close();
  }
}
const extraConns: Connection[] = [];

after(async () => {
  closeSockets(conn, ...extraConns);
  await chain.close();
});

describe('embedded chain through @solana/web3.js Connection', () => {
  test('cluster info', async () => {
    assert.deepEqual(await conn.getVersion(), { 'solana-core': '2.2.0', 'feature-set': 3294202862 });
    assert.equal(typeof (await conn.getGenesisHash()), 'string');
    // Slots advance with time (slotMs 100 here): wait for the first tick rather than race it.
    let slot = await conn.getSlot();
    for (let i = 0; i < 50 && slot < 1; i++) {
      await new Promise((r) => setTimeout(r, 50));
      slot = await conn.getSlot();
    }
    assert.ok(slot >= 1, `slot ${slot} did not advance`);
    const info = await conn.getEpochInfo();
    assert.equal(info.epoch, Math.floor(info.absoluteSlot / info.slotsInEpoch));
    const { blockhash, lastValidBlockHeight } = await conn.getLatestBlockhash();
    assert.equal((await conn.isBlockhashValid(blockhash)).value, true);
    assert.ok(lastValidBlockHeight >= (await conn.getBlockHeight()) + 140);
    assert.equal((await conn.isBlockhashValid('11111111111111111111111111111111')).value, false);
    assert.equal(await conn.getMinimumBalanceForRentExemption(165), 2039280);
  });

  test('airdrop and SOL transfer, balances and history', async () => {
    assert.equal(await conn.getBalance(payer.publicKey), 10 * LAMPORTS_PER_SOL);
    const tx = new Transaction().add(
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: bob.publicKey, lamports: LAMPORTS_PER_SOL }),
    );
    const sig = await sendAndConfirmTransaction(conn, tx, [payer], { commitment });
    assert.equal(await conn.getBalance(bob.publicKey), LAMPORTS_PER_SOL);
    assert.equal(await conn.getBalance(payer.publicKey), 9 * LAMPORTS_PER_SOL - 5000);

    const got = await conn.getTransaction(sig, { maxSupportedTransactionVersion: 0, commitment });
    assert.ok(got);
    assert.equal(got.meta?.err, null);
    assert.equal(got.meta?.fee, 5000);
    assert.deepEqual(got.meta?.preBalances, [10 * LAMPORTS_PER_SOL, 0, 1]);
    assert.deepEqual(got.meta?.postBalances, [9 * LAMPORTS_PER_SOL - 5000, LAMPORTS_PER_SOL, 1]);
    assert.deepEqual(got.meta?.logMessages, [
      'Program 11111111111111111111111111111111 invoke [1]',
      'Program 11111111111111111111111111111111 success',
    ]);
    assert.equal(got.meta?.computeUnitsConsumed, 150);
    assert.equal(got.transaction.message.staticAccountKeys[1].toBase58(), bob.publicKey.toBase58());
    assert.ok(got.slot >= 1);
    assert.equal(typeof got.blockTime, 'number');

    const sigs = await conn.getSignaturesForAddress(bob.publicKey);
    assert.deepEqual(
      sigs.map((s) => s.signature),
      [sig],
    );
    assert.equal(sigs[0].err, null);
    const st = await conn.getSignatureStatuses([
      sig,
      '1111111111111111111111111111111111111111111111111111111111111111',
    ]);
    assert.equal(st.value[0]?.confirmationStatus, 'finalized');
    assert.equal(st.value[1], null);
  });

  test(
    'a signature the Ed25519 precompile verifies is charged ' +
      'like a transaction signature, and getFeeForMessage says so',
    async () => {
      const signer = Keypair.generate();
      const message = new TextEncoder().encode('fee counts this signature');
      const check = Ed25519Program.createInstructionWithPrivateKey({ privateKey: signer.secretKey, message });
      const tx = new Transaction().add(check);
      tx.feePayer = payer.publicKey;
      tx.recentBlockhash = (await conn.getLatestBlockhash()).blockhash;
      assert.equal(
        (await conn.getFeeForMessage(tx.compileMessage(), commitment)).value,
        10_000,
        'one transaction signature + one verified by the precompile',
      );
      const plain = new Transaction().add(
        SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: bob.publicKey, lamports: 1 }),
      );
      plain.feePayer = payer.publicKey;
      plain.recentBlockhash = tx.recentBlockhash;
      assert.equal((await conn.getFeeForMessage(plain.compileMessage(), commitment)).value, 5000);
      const before = await conn.getBalance(payer.publicKey, commitment);
      const sig = await sendAndConfirmTransaction(conn, tx, [payer], { commitment });
      assert.equal(
        before - (await conn.getBalance(payer.publicKey, commitment)),
        10_000,
        'the ledger charged what getFeeForMessage said',
      );
      assert.equal(
        (await conn.getTransaction(sig, { maxSupportedTransactionVersion: 0, commitment }))?.meta?.fee,
        10_000,
      );
    },
  );

  test('SPL Token: mint, ATAs, mintTo, transfer; token queries and getProgramAccounts filters', async () => {
    const mint = await createMint(conn, payer, payer.publicKey, null, 6, undefined, { commitment });
    const a = await getOrCreateAssociatedTokenAccount(conn, payer, mint, payer.publicKey, false, commitment);
    const b = await getOrCreateAssociatedTokenAccount(conn, payer, mint, bob.publicKey, false, commitment);
    await mintTo(conn, payer, mint, a.address, payer, 5_000_000n, [], { commitment });
    const sig = await transfer(conn, payer, a.address, b.address, payer, 1_250_000n, [], { commitment });

    assert.equal((await getAccount(conn, b.address, commitment)).amount, 1_250_000n);
    const bal = await conn.getTokenAccountBalance(a.address);
    assert.deepEqual(bal.value, { amount: '3750000', decimals: 6, uiAmount: 3.75, uiAmountString: '3.75' });

    const byMint = await conn.getTokenAccountsByOwner(bob.publicKey, { mint });
    assert.deepEqual(
      byMint.value.map((v) => v.pubkey.toBase58()),
      [b.address.toBase58()],
    );
    const byProgram = await conn.getTokenAccountsByOwner(payer.publicKey, { programId: TOKEN_PROGRAM_ID });
    assert.deepEqual(
      byProgram.value.map((v) => v.pubkey.toBase58()),
      [a.address.toBase58()],
    );
    assert.equal(byProgram.value[0].account.data.length, 165);
    const parsed = await conn.getParsedTokenAccountsByOwner(bob.publicKey, { mint });
    const info = (
      parsed.value[0].account.data as { parsed: { info: { tokenAmount: { amount: string }; owner: string } } }
    ).parsed.info;
    assert.equal(info.tokenAmount.amount, '1250000');
    assert.equal(info.owner, bob.publicKey.toBase58());

    const gpa = await conn.getProgramAccounts(TOKEN_PROGRAM_ID, {
      filters: [{ dataSize: 165 }, { memcmp: { offset: 0, bytes: mint.toBase58() } }],
    });
    assert.deepEqual(gpa.map((x) => x.pubkey.toBase58()).sort(), [a.address.toBase58(), b.address.toBase58()].sort());
    const owned = await conn.getProgramAccounts(TOKEN_PROGRAM_ID, {
      filters: [{ memcmp: { offset: 32, bytes: bob.publicKey.toBase58() } }],
    });
    assert.deepEqual(
      owned.map((x) => x.pubkey.toBase58()),
      [b.address.toBase58()],
    );
    const mints = await conn.getProgramAccounts(TOKEN_PROGRAM_ID, {
      filters: [{ dataSize: 82 }, { memcmp: { offset: 4, bytes: payer.publicKey.toBase58() } }],
    });
    assert.deepEqual(
      mints.map((x) => x.pubkey.toBase58()),
      [mint.toBase58()],
    );

    const got = await conn.getTransaction(sig, { maxSupportedTransactionVersion: 0 });
    assert.deepEqual(got?.meta?.preTokenBalances?.map((t) => t.uiTokenAmount.amount).sort(), ['0', '5000000']);
    assert.deepEqual(got?.meta?.postTokenBalances?.map((t) => t.uiTokenAmount.amount).sort(), ['1250000', '3750000']);
    const logs = got?.meta?.logMessages ?? [];
    assert.deepEqual(
      [logs[0], logs.at(-1)],
      [`Program ${TOKEN_PROGRAM_ID.toBase58()} invoke [1]`, `Program ${TOKEN_PROGRAM_ID.toBase58()} success`],
    );
    const supply = await conn.getTokenSupply(mint);
    assert.equal(supply.value.amount, '5000000');
  });

  test('Token-2022 mint and accounts, programId filter', async () => {
    const mint = await createMint(
      conn,
      payer,
      payer.publicKey,
      null,
      0,
      undefined,
      { commitment },
      TOKEN_2022_PROGRAM_ID,
    );
    const a = await getOrCreateAssociatedTokenAccount(
      conn,
      payer,
      mint,
      bob.publicKey,
      false,
      commitment,
      undefined,
      TOKEN_2022_PROGRAM_ID,
    );
    await mintTo(conn, payer, mint, a.address, payer, 1n, [], { commitment }, TOKEN_2022_PROGRAM_ID);
    const res = await conn.getTokenAccountsByOwner(bob.publicKey, { programId: TOKEN_2022_PROGRAM_ID });
    assert.deepEqual(
      res.value.map((v) => v.pubkey.toBase58()),
      [a.address.toBase58()],
    );
    assert.equal(res.value[0].account.owner.toBase58(), TOKEN_2022_PROGRAM_ID.toBase58());
    assert.equal((await getAccount(conn, a.address, commitment, TOKEN_2022_PROGRAM_ID)).amount, 1n);
  });

  test('signatureSubscribe, logsSubscribe, accountSubscribe, slotSubscribe on the same port', async () => {
    const ws = new Connection(chain.rpcUrl, { commitment, wsEndpoint: chain.wsUrl });
    extraConns.push(ws);
    const carol = Keypair.generate();
    const logs = new Promise<{ signature: string; logs: string[] }>((resolve) => {
      const id = ws.onLogs(carol.publicKey, (l) => (void ws.removeOnLogsListener(id), resolve(l)), commitment);
    });
    const account = new Promise<number>((resolve) => {
      const id = ws.onAccountChange(
        carol.publicKey,
        (acc) => (void ws.removeAccountChangeListener(id), resolve(acc.lamports)),
        { commitment },
      );
    });
    const slot = new Promise<number>((resolve) => {
      const id = ws.onSlotChange((s) => (void ws.removeSlotChangeListener(id), resolve(s.slot)));
    });
    await new Promise((r) => setTimeout(r, 300)); // let the subscriptions reach the server
    const tx = new Transaction().add(
      SystemProgram.transfer({
        fromPubkey: payer.publicKey,
        toPubkey: carol.publicKey,
        lamports: 2 * LAMPORTS_PER_SOL,
      }),
    );
    const sig = await sendAndConfirmTransaction(ws, tx, [payer], { commitment });
    const l = await logs;
    assert.equal(l.signature, sig);
    assert.deepEqual(l.logs, [
      'Program 11111111111111111111111111111111 invoke [1]',
      'Program 11111111111111111111111111111111 success',
    ]);
    assert.equal(await account, 2 * LAMPORTS_PER_SOL);
    assert.ok((await slot) >= 1);
  });

  test('failed transactions: preflight error with logs; skipPreflight lands with err', async () => {
    const poor = Keypair.generate();
    await airdrop(poor.publicKey, 1);
    const tooMuch = () =>
      new Transaction().add(
        SystemProgram.transfer({ fromPubkey: poor.publicKey, toPubkey: bob.publicKey, lamports: 5 * LAMPORTS_PER_SOL }),
      );
    await assert.rejects(
      sendAndConfirmTransaction(conn, tooMuch(), [poor]),
      (err: Error & { transactionLogs?: string[] }) => {
        assert.match(err.message, /custom program error: 0x1/);
        assert.ok(err.transactionLogs?.some((l) => l.includes('insufficient lamports')));
        return true;
      },
    );
    const t = tooMuch();
    const { blockhash, lastValidBlockHeight } = await conn.getLatestBlockhash();
    t.recentBlockhash = blockhash;
    t.feePayer = poor.publicKey;
    t.sign(poor);
    const sig = await conn.sendRawTransaction(t.serialize(), { skipPreflight: true });
    const res = await conn.confirmTransaction({ signature: sig, blockhash, lastValidBlockHeight }, commitment);
    assert.deepEqual(res.value.err, { InstructionError: [0, { Custom: 1 }] });
    const got = await conn.getTransaction(sig, { maxSupportedTransactionVersion: 0 });
    assert.deepEqual(got?.meta?.err, { InstructionError: [0, { Custom: 1 }] });
    assert.equal(await conn.getBalance(poor.publicKey), LAMPORTS_PER_SOL - 5000);
    const sigs = await conn.getSignaturesForAddress(poor.publicKey);
    assert.deepEqual(sigs[0].err, { InstructionError: [0, { Custom: 1 }] });
  });

  test('v0 transaction with memo; simulate; getSignaturesForAddress before/until/limit', async () => {
    const dave = Keypair.generate();
    await airdrop(dave.publicKey, 1);
    const memo = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');
    const sigs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { blockhash } = await conn.getLatestBlockhash();
      const msg = new TransactionMessage({
        payerKey: dave.publicKey,
        recentBlockhash: blockhash,
        instructions: [
          new TransactionInstruction({
            programId: memo,
            keys: [{ pubkey: dave.publicKey, isSigner: true, isWritable: true }],
            data: Buffer.from(`hello ${i}`),
          }),
        ],
      }).compileToV0Message();
      const vtx = new VersionedTransaction(msg);
      vtx.sign([dave]);
      if (i === 0) {
        const sim = await conn.simulateTransaction(vtx, { sigVerify: true });
        assert.equal(sim.value.err, null);
        assert.deepEqual(sim.value.logs?.slice(3, 5), ['Program log: Memo (len 7)', 'Program log: hello 0']);
        assert.ok((sim.value.unitsConsumed ?? 0) > 0);
      }
      const sig = await conn.sendTransaction(vtx);
      const bh = await conn.getLatestBlockhash();
      await conn.confirmTransaction({ signature: sig, ...bh }, commitment);
      sigs.push(sig);
    }
    await assert.rejects(conn.getTransaction(sigs[0]), /maxSupportedTransactionVersion/);
    const got = await conn.getTransaction(sigs[0], { maxSupportedTransactionVersion: 0 });
    assert.equal(got?.version, 0);
    const all = await conn.getSignaturesForAddress(dave.publicKey);
    assert.deepEqual(
      all.map((s) => s.signature),
      [sigs[2], sigs[1], sigs[0], all[3].signature],
    );
    assert.equal(all[0].memo, '[7] hello 2');
    const page = await conn.getSignaturesForAddress(dave.publicKey, { before: sigs[2], limit: 1 });
    assert.deepEqual(
      page.map((s) => s.signature),
      [sigs[1]],
    );
    const until = await conn.getSignaturesForAddress(dave.publicKey, { until: sigs[0] });
    assert.deepEqual(
      until.map((s) => s.signature),
      [sigs[2], sigs[1]],
    );
  });

  test('our programs execute when programs/bin/*.so exist', async (t) => {
    if (chain.programs.length === 0) return t.skip('no programs/bin/*.so built yet');
    for (const prog of chain.programs) {
      const ix = new TransactionInstruction({ programId: new PublicKey(prog.id), keys: [], data: Buffer.from([0xff]) });
      const tx = new Transaction().add(ix);
      const { blockhash, lastValidBlockHeight } = await conn.getLatestBlockhash();
      tx.recentBlockhash = blockhash;
      tx.feePayer = payer.publicKey;
      tx.sign(payer);
      const sig = await conn.sendRawTransaction(tx.serialize(), { skipPreflight: true });
      await conn.confirmTransaction({ signature: sig, blockhash, lastValidBlockHeight }, commitment);
      const got = await conn.getTransaction(sig, { maxSupportedTransactionVersion: 0 });
      const logs = got?.meta?.logMessages ?? [];
      assert.equal(logs[0], `Program ${prog.id} invoke [1]`, `${prog.name}: first log`);
      assert.ok(
        logs.some((l) => l.startsWith(`Program ${prog.id} consumed `)),
        `${prog.name}: ran in the VM`,
      );
    }
  });
});
