// CLUSTER=custom against a second embedded chain standing in for a cluster with mainnet-like
// addresses: SATI's registry program at SATI's real program id, initialized with SATI's real
// group mint (the one account written as bytes: nobody holds that mint's key, so the group mint
// Token-2022 would create is copied to its address), no demo agents, no 0x01 deployment. An
// outside agent (its own libp2p node, nobody's bootstrap peer) registers there with SATI's
// register_agent and a data: registration file naming its zerox1-mesh endpoint: the observatory
// finds it from the registry, reads the file, dials it, names it, and stores the envelope it then
// sends; an envelope from a supply-1 Token-2022 NFT outside SATI's group is dropped as not_sati_member.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import {
  createInitializeGroupInstruction,
  createInitializeGroupPointerInstruction,
  createInitializeMint2Instruction,
  ExtensionType,
  getMintLen,
  TOKEN_2022_PROGRAM_ID,
} from '@solana/spl-token';
import { Connection, Keypair, LAMPORTS_PER_SOL, type PublicKey, SystemProgram } from '@solana/web3.js';
import { createAgentIdentity } from '../lib/chain/node/identity';
import { registerSatiAgent } from '../lib/chain/node/sati';
import { sendIxs } from '../lib/chain/node/send';
import { registryConfigAddress, SATI_MAINNET, satiInitializeInstruction } from '../lib/chain/sati';
import { type EmbeddedChain, startEmbeddedChain } from '../lib/devchain/index';
import { createMeshNode, type MeshNode } from '../lib/mesh';
import { buildEnvelope } from '../lib/protocol/envelope';
import { toHex } from '../lib/protocol/hex';
import { MsgType } from '../lib/protocol/types';
import { loadConfig } from './config';
import { createLogger } from './logger';
import { type Runtime, startRuntime } from './runtime';

let chain: EmbeddedChain;
let outside: MeshNode;
let runtime: Runtime;
let dir: string;

const ownerSeed = new Uint8Array(32).fill(0x3c);
const owner = Keypair.fromSeed(ownerSeed);
let agent: PublicKey;
let stranger: PublicKey;

async function until<T>(what: string, f: () => T | Promise<T>, ms = 60_000): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

before(async () => {
  chain = await startEmbeddedChain({ port: 0, wsCompanion: false });
  const connection = new Connection(chain.rpcUrl, { commitment: 'confirmed', wsEndpoint: chain.wsUrl });
  const sig = await connection.requestAirdrop(owner.publicKey, 10 * LAMPORTS_PER_SOL);
  await connection.confirmTransaction({ signature: sig, ...(await connection.getLatestBlockhash()) }, 'confirmed');
  // SATI's group mint at its real address: a TokenGroup mint made by Token-2022 (update authority
  // = the registry PDA) on a key of ours, its bytes copied to satiG7i9… with the address swapped.
  const registry = registryConfigAddress(SATI_MAINNET.program);
  const tmp = Keypair.generate();
  const space = getMintLen([ExtensionType.GroupPointer]);
  await sendIxs(
    connection,
    [
      SystemProgram.createAccount({
        fromPubkey: owner.publicKey,
        newAccountPubkey: tmp.publicKey,
        space,
        lamports: await connection.getMinimumBalanceForRentExemption(space + 84),
        programId: TOKEN_2022_PROGRAM_ID,
      }),
      createInitializeGroupPointerInstruction(tmp.publicKey, registry, tmp.publicKey, TOKEN_2022_PROGRAM_ID),
      createInitializeMint2Instruction(tmp.publicKey, 0, owner.publicKey, null, TOKEN_2022_PROGRAM_ID),
      createInitializeGroupInstruction({
        programId: TOKEN_2022_PROGRAM_ID,
        group: tmp.publicKey,
        mint: tmp.publicKey,
        mintAuthority: owner.publicKey,
        updateAuthority: registry,
        maxSize: 1_000_000n,
      }),
    ],
    [owner, tmp],
  );
  const made = (await connection.getAccountInfo(tmp.publicKey))!;
  const data = Uint8Array.from(made.data);
  const from = tmp.publicKey.toBytes(),
    to = SATI_MAINNET.groupMint.toBytes();
  for (let i = 0; i + 32 <= data.length; i++) if (from.every((b, j) => data[i + j] === b)) data.set(to, i);
  chain.writeAccount(SATI_MAINNET.groupMint.toBase58(), {
    lamports: BigInt(made.lamports),
    data,
    owner: TOKEN_2022_PROGRAM_ID.toBase58(),
  });
  await sendIxs(
    connection,
    [satiInitializeInstruction({ authority: owner.publicKey, groupMint: SATI_MAINNET.groupMint })],
    [owner],
  );

  outside = await createMeshNode({ listen: ['/ip4/127.0.0.1/tcp/0'], validate: () => 'accept', dht: false });
  const mesh = outside.multiaddrs().find((m) => m.includes('/tcp/'))!;
  const uri = `data:application/json,${JSON.stringify({
    name: 'Outsider',
    services: [{ name: 'zerox1-mesh', endpoint: mesh }],
  })}`;
  assert.ok(uri.length <= 200, `SATI keeps at most 200 bytes of uri (${uri.length})`);
  agent = (await registerSatiAgent(connection, owner, owner.publicKey, { name: 'Outsider', symbol: 'OUT', uri })).agent;
  // A supply-1 Token-2022 NFT that is not a member of SATI's group, held by the same wallet.
  stranger = (await createAgentIdentity(connection, { payer: owner })).agent;
  const ws = (connection as unknown as { _rpcWebSocket?: { close(): void; setAutoReconnect?(v: boolean): void } })
    ._rpcWebSocket;
  ws?.setAutoReconnect?.(false);
  try {
    ws?.close();
  } catch {
    /* not open */
  }

  dir = mkdtempSync(join(tmpdir(), 'zx-cluster-'));
  const config = loadConfig({
    CLUSTER: 'custom',
    SOLANA_RPC_URL: chain.rpcUrl,
    SOLANA_WS_URL: chain.wsUrl,
    SATI_PROGRAM_ID: SATI_MAINNET.program.toBase58(),
    SATI_GROUP_MINT: SATI_MAINNET.groupMint.toBase58(),
    SAS_PROGRAM_ID: SATI_MAINNET.sas.toBase58(),
    SATI_CREDENTIAL: SATI_MAINNET.credential.toBase58(),
    SATI_DELEGATE_SCHEMA: SATI_MAINNET.delegateSchema.toBase58(),
    USDC_MINT: Keypair.generate().publicKey.toBase58(),
    DEMO_AGENTS: '0',
    DATA_DIR: dir,
    OBSERVER_LISTEN: '/ip4/127.0.0.1/tcp/0',
    VERIFY_WORKERS: '0',
    LOG_LEVEL: 'error',
    // The outside agent listens on loopback: a cluster on one machine.
    DISCOVERY_ALLOW_PRIVATE: '1',
  });
  runtime = await startRuntime(config, createLogger('test', 'error'));
});

after(async () => {
  await runtime?.stop();
  await outside?.stop();
  await chain?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('an outside SATI agent is discovered from its registration file and its envelopes stored', async () => {
  assert.equal(runtime.chain?.embedded, false);
  assert.equal(runtime.chain?.cluster.name, 'custom');
  const hex = toHex(agent.toBytes());
  const profile = await until('discovery of the outside agent', () => {
    const p = runtime.chain?.discovery?.profile(hex);
    return p?.dialed ? p : null;
  });
  assert.equal(profile.name, 'Outsider');
  assert.equal(profile.dialed, 'ok');
  assert.equal(
    profile.meshEndpoint,
    outside.multiaddrs().find((m) => m.includes('/tcp/')),
  );
  await until('the observer connected to the outside agent', () =>
    runtime.observatory.mesh.peers().includes(outside.peerId),
  );
  await until(
    'the agent named by its SATI name',
    async () => (await runtime.store.getAgent(agent.toBytes()))?.label === 'Outsider',
  );

  const env = (sender: PublicKey, nonce: bigint) =>
    buildEnvelope(
      {
        msgType: MsgType.ADVERTISE,
        sender: sender.toBytes(),
        timestamp: BigInt(Date.now()) * 1000n,
        nonce,
        conversationId: new Uint8Array(16),
        payload: Uint8Array.of(1, 2, 3),
      },
      ownerSeed,
    );
  const good = env(agent, 1n);
  const observer = runtime.observatory.mesh.multiaddrs().find((m) => m.includes('/tcp/'))!;
  await outside.sendEnvelope(observer, good.bytes);
  await until('the envelope stored', async () => {
    await runtime.observatory.flush();
    return runtime.store.getEnvelope(good.id);
  });

  const before = runtime.observatory.dropCounts().not_sati_member ?? 0;
  await outside.sendEnvelope(observer, env(stranger, 1n).bytes);
  await until(
    'the non-member dropped as not_sati_member',
    () => (runtime.observatory.dropCounts().not_sati_member ?? 0) > before,
  );
});
