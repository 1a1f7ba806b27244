// The SDK used the way a browser wallet uses it, on the embedded chain over JSON-RPC: build
// with public keys only -> Transaction with a feePayer PublicKey -> simulateTransaction (no
// signature) -> sign with the Keypair only at the end -> send -> confirm; then read the account.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Connection, Keypair, Transaction, type TransactionInstruction } from '@solana/web3.js';
import {
  decodeRegistryConfig,
  decodeTokenAccount,
  decodeTransactionError,
  identityTokenAccount,
  loadEconomyConfig,
  loadSatiMembership,
  lockStakeInstructions,
  registerAgentInstruction,
  registryConfigAddress,
  STAKE_STATUS,
  stakeLock,
} from './index';
import { startChainWorld } from './node/testing';

async function unsignedTx(connection: Connection, feePayer: Keypair['publicKey'], ixs: TransactionInstruction[]) {
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed');
  return {
    tx: new Transaction({ feePayer, blockhash, lastValidBlockHeight }).add(...ixs),
    blockhash,
    lastValidBlockHeight,
  };
}

test(
  'wallet flow: identity and lock_stake built from public ' +
    'keys, simulated unsigned, signed last, confirmed on chain',
  async () => {
    const w = await startChainWorld();
    try {
      const owner = await w.wallet(50_000_000n); // the wallet's key; only its public key is used until signing
      const connection = w.connection;
      const config = await loadEconomyConfig(connection);

      // Identity: SATI's register_agent, as "My agents" sends it; the fresh mint is a second signer the page generates.
      const mint = Keypair.generate();
      const registry = decodeRegistryConfig(
        (await connection.getAccountInfo(registryConfigAddress(config.satiProgram)))!.data,
      )!;
      const id = await unsignedTx(connection, owner.publicKey, [
        registerAgentInstruction({
          payer: owner.publicKey,
          agentMint: mint.publicKey,
          registry,
          program: config.satiProgram,
          name: 'wallet agent',
          symbol: 'AGENT',
          uri: 'data:application/json,{}',
          nonTransferable: true,
        }),
      ]);
      id.tx.partialSign(mint);
      id.tx.partialSign(owner);
      const idSig = await connection.sendRawTransaction(id.tx.serialize());
      assert.equal(
        (
          await connection.confirmTransaction(
            { signature: idSig, blockhash: id.blockhash, lastValidBlockHeight: id.lastValidBlockHeight },
            'confirmed',
          )
        ).value.err,
        null,
      );
      const holding = decodeTokenAccount(
        (await connection.getAccountInfo(identityTokenAccount(mint.publicKey, owner.publicKey)))!.data,
      );
      assert.ok(holding?.owner.equals(owner.publicKey));
      assert.equal(holding?.amount, 1n);
      const agent = mint.publicKey;
      const { memberNumber } = await loadSatiMembership(connection, agent, config.satiProgram);

      // A stake below MIN_STAKE: the simulation fails and the browser decoder names the program error.
      const low = await unsignedTx(
        connection,
        owner.publicKey,
        lockStakeInstructions({ owner: owner.publicKey, agent, amount: 1n, config, memberNumber }),
      );
      const lowSim = await connection.simulateTransaction(low.tx);
      assert.notEqual(lowSim.value.err, null);
      const decoded = decodeTransactionError(lowSim.value.err, lowSim.value.logs);
      assert.equal(decoded.code, stakeLock.ERRORS.BelowMinStake);
      assert.equal(decoded.name, 'BelowMinStake');

      // The real stake: simulate unsigned, then sign with the Keypair, send, confirm.
      const amount = 12_000_000n;
      const lock = await unsignedTx(
        connection,
        owner.publicKey,
        lockStakeInstructions({ owner: owner.publicKey, agent, amount, config, memberNumber }),
      );
      const sim = await connection.simulateTransaction(lock.tx);
      assert.equal(sim.value.err, null, JSON.stringify(sim.value.logs));
      assert.equal(
        lock.tx.signatures.every((s) => s.signature === null),
        true,
        'simulation needed no signature',
      );
      lock.tx.sign(owner);
      const sig = await connection.sendRawTransaction(lock.tx.serialize());
      assert.equal(
        (
          await connection.confirmTransaction(
            { signature: sig, blockhash: lock.blockhash, lastValidBlockHeight: lock.lastValidBlockHeight },
            'confirmed',
          )
        ).value.err,
        null,
      );

      const stake = stakeLock.decodeStake(
        (await connection.getAccountInfo(stakeLock.findStakePda(agent)[0], 'confirmed'))!.data,
      );
      assert.ok(stake, 'the Stake account exists');
      assert.equal(stake.amount, amount);
      assert.ok(stake.owner.equals(owner.publicKey));
      assert.ok(stake.agent.equals(agent));
      assert.equal(stake.status, STAKE_STATUS.locked);
    } finally {
      await w.close();
    }
  },
);
