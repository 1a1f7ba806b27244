/**
 * NODE-ONLY (tests, benches): starts an embedded chain and signs with Keypairs.
 *
 * Test and bench world for lib/chain (not runtime API): an embedded chain on 127.0.0.1:0 with a
 * controllable clock, a web3.js Connection to it, a USDC mint, a treasury and the four programs
 * initialized through lib/chain/node/economy.ts, and agents' epoch logs built with lib/protocol.
 */
import { Connection, Keypair, LAMPORTS_PER_SOL, type PublicKey } from '@solana/web3.js';
import { type EmbeddedChain, startEmbeddedChain } from '../../devchain/index';
import { buildEnvelope } from '../../protocol/envelope';
import { encodeNeg1, type Neg1Payload } from '../../protocol/neg1';
import { encodeFeedback } from '../../protocol/payloads';
import { type Envelope, MsgType } from '../../protocol/types';
import type { RegistryConfig } from '../sati';
import { createUsdcMint, type EconomyConfig, fundUsdc, initializePrograms } from './economy';
import { ensureSatiRegistry, registerSatiAgent } from './sati';

export interface ChainWorld {
  chain: EmbeddedChain;
  connection: Connection;
  admin: Keypair;
  usdcMint: PublicKey;
  treasury: PublicKey;
  config: EconomyConfig;
  /** SATI's registry on this chain (the stand-in at SATI's id), as initialized. */
  sati: RegistryConfig;
  epochSeconds: bigint;
  /** Current protocol epoch of the chain clock. */
  epoch(): bigint;
  /** Moves the chain clock to `offsetSeconds` into protocol epoch `e` and waits for a slot. */
  setEpoch(e: bigint, offsetSeconds?: number): Promise<void>;
  /**
   * Moves the time the chain stamps transactions with by `ms`, with no new slot: the Clock sysvar
   * keeps the last slot's time until the next one (with a long `slotMs`, until `setEpoch`).
   */
  moveClock(ms: number): void;
  airdrop(to: PublicKey, sol?: number): Promise<void>;
  /** A wallet with SOL and `usdc` base units of USDC. */
  wallet(usdc?: bigint): Promise<Keypair>;
  close(): Promise<void>;
}

/**
 * `historyLimit`: transactions the chain's history keeps (a small ring lets a test lose old history, as a long-running
 * chain does).
 */
export async function startChainWorld(
  p: { epochSeconds?: bigint; startEpoch?: bigint; slotMs?: number; historyLimit?: number } = {},
): Promise<ChainWorld> {
  const epochSeconds = p.epochSeconds ?? 10n;
  let nowMs = Number((p.startEpoch ?? 180_000_000n) * epochSeconds) * 1000 + 1000;
  const chain = await startEmbeddedChain({
    port: 0,
    slotMs: p.slotMs ?? 20,
    wsCompanion: false,
    now: () => nowMs,
    historyLimit: p.historyLimit,
  });
  const connection = new Connection(chain.rpcUrl, { commitment: 'confirmed', wsEndpoint: chain.wsUrl });
  const airdrop = async (to: PublicKey, sol = 10) => {
    const sig = await connection.requestAirdrop(to, sol * LAMPORTS_PER_SOL);
    const bh = await connection.getLatestBlockhash();
    await connection.confirmTransaction({ signature: sig, ...bh }, 'confirmed');
  };
  const admin = Keypair.generate();
  await airdrop(admin.publicKey, 100);
  const usdcMint = await createUsdcMint(connection, { payer: admin });
  const treasury = await fundUsdc(connection, {
    payer: admin,
    mintAuthority: admin,
    usdcMint,
    owner: admin.publicKey,
    amount: 0n,
  });
  const sati = await ensureSatiRegistry(connection, { authority: admin });
  const config = await initializePrograms(connection, { admin, usdcMint, treasury, epochSeconds });
  const world: ChainWorld = {
    chain,
    connection,
    admin,
    usdcMint,
    treasury,
    config,
    sati,
    epochSeconds,
    epoch: () => BigInt(Math.floor(nowMs / 1000)) / epochSeconds,
    async setEpoch(e, offsetSeconds = 1) {
      nowMs = Number(e * epochSeconds) * 1000 + offsetSeconds * 1000;
      chain.tick();
    },
    moveClock(ms) {
      nowMs += ms;
    },
    airdrop,
    async wallet(usdc = 0n) {
      const kp = Keypair.generate();
      await airdrop(kp.publicKey, 10);
      if (usdc > 0n)
        await fundUsdc(connection, { payer: admin, mintAuthority: admin, usdcMint, owner: kp.publicKey, amount: usdc });
      return kp;
    },
    async close() {
      // web3.js would keep reconnecting its PubSub socket to a closed server: close it first.
      const ws = (connection as unknown as { _rpcWebSocket?: { close(): void; setAutoReconnect?(v: boolean): void } })
        ._rpcWebSocket;
      ws?.setAutoReconnect?.(false);
      try {
        ws?.close();
      } catch {
        /* not open */
      }
      await chain.close();
    },
  };
  return world;
}

/** An agent on the world's chain: registered through SATI's register_agent, NFT owned by `owner`, with USDC. */
export async function newChainAgent(
  w: ChainWorld,
  usdc = 100_000_000n,
): Promise<{ owner: Keypair; agent: PublicKey; seed: Uint8Array }> {
  const owner = await w.wallet(usdc);
  const id = await registerSatiAgent(w.connection, owner, owner.publicKey, {
    name: 'test agent',
    uri: 'data:application/json,{}',
  });
  return { owner, agent: id.agent, seed: owner.secretKey.slice(0, 32) };
}

const neg1 = (bidValue: bigint, round: number): Neg1Payload => ({
  bidValue,
  tokenMint: new Uint8Array(32),
  serviceHash: new Uint8Array(32).fill(7),
  round,
  deadline: 0n,
  decayBps: 50,
  maxRounds: 10,
  verification: { tier: 1, testSuiteHash: new Uint8Array(0) },
  reason: 0,
  metadata: new Uint8Array(0),
});

/** One built envelope with its id and bytes (IngestItem material). */
export interface BuiltEnvelope {
  envelope: Envelope;
  bytes: Uint8Array;
  id: Uint8Array;
}

/**
 * An agent's log for `epoch` (timestamps inside the epoch, increasing): a NEG1 negotiation with a
 * counterparty (PROPOSE sent, COUNTER received, COUNTER and ACCEPT sent), a FEEDBACK received,
 * plus `extra` ADVERTISE broadcasts. Index 0 is the PROPOSE (the bid a cheat leaves out).
 */
export function epochLog(p: {
  agent: PublicKey;
  seed: Uint8Array;
  epoch: bigint;
  epochSeconds: bigint;
  extra?: number;
  tag?: number;
}): BuiltEnvelope[] {
  const a = p.agent.toBytes();
  const cpSeed = new Uint8Array(32).fill(0x42 + (p.tag ?? 0));
  const cp = new Uint8Array(32).fill(0xc1);
  cp[0] = p.tag ?? 0;
  const conv = Uint8Array.from({ length: 16 }, (_, i) => 0xa0 + i + (p.tag ?? 0));
  const t0 = p.epoch * p.epochSeconds * 1_000_000n + 100_000n;
  let nonce = 1n;
  const mk = (msgType: number, recipient: Uint8Array, payload: Uint8Array, from = a, key = p.seed) =>
    buildEnvelope(
      {
        msgType,
        sender: from,
        recipient,
        timestamp: t0 + nonce * 1000n,
        blockRef: 1000n + nonce,
        nonce: nonce++,
        conversationId: conv,
        payload,
      },
      key,
    );
  const out = [
    mk(MsgType.PROPOSE, cp, encodeNeg1(neg1(1_500_000n, 0))),
    mk(MsgType.COUNTER, a, encodeNeg1(neg1(1_450_000n, 1)), cp, cpSeed),
    mk(MsgType.COUNTER, cp, encodeNeg1(neg1(1_470_000n, 2))),
    mk(MsgType.ACCEPT, cp, encodeNeg1(neg1(1_460_000n, 3))),
    mk(
      MsgType.FEEDBACK,
      a,
      encodeFeedback({ conversationId: conv, targetAgent: a, score: 80, outcome: 2, isDispute: false, role: 0 }),
      cp,
      cpSeed,
    ),
  ];
  for (let i = 0; i < (p.extra ?? 0); i++) out.push(mk(MsgType.ADVERTISE, new Uint8Array(32), Uint8Array.of(i & 0xff)));
  return out;
}
