/**
 * NODE-ONLY (server): reads and writes the admin key with node:fs.
 *
 * The observatory's own deployment on the chain it starts with (docs/architecture.md
 * "Embedded defaults"): an admin wallet kept in the chain's data directory, a local USDC mint,
 * a treasury and the programs' Config accounts (haggle's too). Idempotent across restarts: the embedded
 * chain persists its state (lib/devchain/README.md "Persistence"), so on the second start
 * the Config accounts are found and only read. On the embedded chain the deployment also
 * initializes SATI's registry (the stand-in programs/sati_registry at the configured SATI id),
 * and stake_lock is initialized to accept that registry's members. Also the demo agents'
 * on-chain identities (SATI agents registered with register_agent, owned by their wallets,
 * 0x01 spec §10.1), funded with SOL and USDC.
 * Server-only.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Connection, Keypair, LAMPORTS_PER_SOL, type PublicKey } from '@solana/web3.js';
import { ChainAccountError } from '../errors';
import { type RegisterAgentArgs, SATI_MAINNET } from '../sati';
import { createUsdcMint, type EconomyConfig, fundUsdc, initializePrograms, loadEconomyConfig } from './economy';
import { ensureHaggleConfig } from './haggle';
import { ensureSatiRegistry, registerSatiAgent } from './sati';

/** Parameters of {@link ensureDeployment}. */
export interface EnsureDeploymentParams {
  connection: Connection;
  /** Where the admin key lives (`admin.json`); undefined = a fresh key each start (in-memory chain). */
  dataDir?: string;
  /** Epoch length written into the programs' configs when they are created (EPOCH_SECONDS). */
  epochSeconds: bigint;
  /** True on the embedded chain: the admin is airdropped SOL and the deployment created when absent. */
  create: boolean;
  /** The SATI program (default SATI's id): initialized here when `create`, and what stake_lock accepts. */
  satiProgram?: PublicKey;
  /**
   * An existing SATI group mint for a registry created here (e.g. SATI's mainnet address written by lib/devchain);
   * default: a new one.
   */
  satiGroupMint?: PublicKey;
  logger?: { info(msg: string): void; warn(msg: string): void };
}

/** A deployment the observatory can act on. */
export interface Deployment {
  config: EconomyConfig;
  /** Mint authority of the local USDC and payer of setup transactions (embedded chain only). */
  admin: Keypair | null;
  /** True when this call created the configs (first start on this data directory). */
  created: boolean;
}

function loadOrCreateAdmin(dataDir: string | undefined): Keypair {
  if (!dataDir) return Keypair.generate();
  const file = join(dataDir, 'admin.json');
  if (existsSync(file)) {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (Array.isArray(raw) && raw.length === 64) return Keypair.fromSecretKey(Uint8Array.from(raw as number[]));
    throw new ChainAccountError(`${file} is not a 64-byte secret key array`);
  }
  mkdirSync(dataDir, { recursive: true });
  const kp = Keypair.generate();
  writeFileSync(file, JSON.stringify(Array.from(kp.secretKey)), { mode: 0o600 });
  return kp;
}

async function airdrop(connection: Connection, to: PublicKey, sol: number): Promise<void> {
  const sig = await connection.requestAirdrop(to, sol * LAMPORTS_PER_SOL);
  await connection.confirmTransaction(
    { signature: sig, ...(await connection.getLatestBlockhash('confirmed')) },
    'confirmed',
  );
}

/**
 * Finds or creates the deployment (module comment). On a cluster (`create` false) it only reads
 * the stake_lock Config and throws ChainAccountError when the programs are not initialized.
 */
export async function ensureDeployment(p: EnsureDeploymentParams): Promise<Deployment> {
  if (typeof p?.epochSeconds !== 'bigint' || p.epochSeconds <= 0n)
    throw new RangeError('epochSeconds must be a positive bigint');
  if (!p.create) return { config: await loadEconomyConfig(p.connection), admin: null, created: false };
  const admin = loadOrCreateAdmin(p.dataDir);
  if ((await p.connection.getBalance(admin.publicKey, 'confirmed')) < 100 * LAMPORTS_PER_SOL)
    await airdrop(p.connection, admin.publicKey, 1_000);
  const satiProgram = p.satiProgram ?? SATI_MAINNET.program;
  const sati = await ensureSatiRegistry(p.connection, {
    authority: admin,
    program: satiProgram,
    groupMint: p.satiGroupMint,
  });
  if (sati.created)
    p.logger?.info(
      `chain: SATI registry initialized at ${satiProgram.toBase58()} (group mint ${sati.groupMint.toBase58()})`,
    );
  try {
    const config = await loadEconomyConfig(p.connection);
    if (config.epochSeconds !== p.epochSeconds) {
      p.logger?.warn(
        `chain: programs keep epoch_seconds ${config.epochSeconds} from their first ` +
          `start (EPOCH_SECONDS is ${p.epochSeconds}); start on a new DATA_DIR to change it`,
      );
    }
    // A data directory from before haggle existed gets its config on this start.
    await ensureHaggleConfig(p.connection, { admin, usdcMint: config.usdcMint, treasury: config.treasury });
    return { config, admin, created: false };
  } catch (e) {
    if (!(e instanceof ChainAccountError)) throw e;
  }
  const usdcMint = await createUsdcMint(p.connection, { payer: admin });
  const treasury = await fundUsdc(p.connection, {
    payer: admin,
    mintAuthority: admin,
    usdcMint,
    owner: admin.publicKey,
    amount: 0n,
  });
  const config = await initializePrograms(p.connection, {
    admin,
    usdcMint,
    treasury,
    epochSeconds: p.epochSeconds,
    satiProgram,
  });
  await ensureHaggleConfig(p.connection, { admin, usdcMint, treasury });
  p.logger?.info(
    `chain: created USDC mint ${usdcMint.toBase58()} and initialized the programs (epoch ${p.epochSeconds} s)`,
  );
  return { config, admin, created: true };
}

/** One demo agent's identity: the wallet (signer of its envelopes) and the NFT mint (its agent id). */
export interface DemoIdentity {
  owner: Keypair;
  agent: PublicKey;
  /** Its SATI member number. */
  memberNumber: bigint;
}

/** What a demo agent registers with SATI (register_agent's arguments). */
export type DemoRegistration = Partial<RegisterAgentArgs> & { name: string; uri: string };

/** Options of {@link createDemoIdentities}. */
export interface CreateDemoIdentitiesParams {
  admin: Keypair;
  config: EconomyConfig;
  /** One wallet seed per agent (the wallet owns the identity and signs the agent's envelopes). */
  seeds: readonly Uint8Array[];
  /** One mint seed per agent, so the agent ids are known before the chain confirms them; default random. */
  mintSeeds?: readonly Uint8Array[];
  usdc: bigint;
  /** register_agent arguments per agent (default: name "demo agent <i + 1>", empty uri, transferable). */
  registrations?: readonly DemoRegistration[];
  /** The SATI program (default: the economy config's). */
  satiProgram?: PublicKey;
  /** Called as soon as agent `i`'s identity is confirmed (before its SOL and USDC arrive). */
  onIdentity?: (i: number, agent: PublicKey) => void;
}

/**
 * Registers a SATI agent for each wallet seed: register_agent with the wallet as owner (the admin
 * pays, so the identity is the first transaction and does not wait for the airdrop), then a SOL
 * airdrop and `usdc` base units of the local USDC (admin = mint authority) in parallel.
 */
export async function createDemoIdentities(
  connection: Connection,
  p: CreateDemoIdentitiesParams,
): Promise<DemoIdentity[]> {
  if (!Array.isArray(p?.seeds)) throw new TypeError('seeds must be an array of 32-byte seeds');
  if (p.mintSeeds !== undefined && (!Array.isArray(p.mintSeeds) || p.mintSeeds.length !== p.seeds.length))
    throw new TypeError('mintSeeds must have one seed per wallet seed');
  if (p.registrations !== undefined && (!Array.isArray(p.registrations) || p.registrations.length !== p.seeds.length))
    throw new TypeError('registrations must have one entry per wallet seed');
  const program = p.satiProgram ?? p.config.satiProgram ?? SATI_MAINNET.program;
  return Promise.all(
    p.seeds.map(async (seed, i) => {
      if (!(seed instanceof Uint8Array) || seed.length !== 32) throw new TypeError(`seeds[${i}] must be 32 bytes`);
      const mintSeed = p.mintSeeds?.[i];
      if (mintSeed !== undefined && (!(mintSeed instanceof Uint8Array) || mintSeed.length !== 32))
        throw new TypeError(`mintSeeds[${i}] must be 32 bytes`);
      const owner = Keypair.fromSeed(seed);
      const reg = p.registrations?.[i] ?? { name: `demo agent ${i + 1}`, uri: '' };
      const id = await registerSatiAgent(connection, p.admin, owner.publicKey, {
        ...reg,
        program,
        mint: mintSeed ? Keypair.fromSeed(mintSeed) : undefined,
      });
      p.onIdentity?.(i, id.agent);
      await Promise.all([
        airdrop(connection, owner.publicKey, 10),
        fundUsdc(connection, {
          payer: p.admin,
          mintAuthority: p.admin,
          usdcMint: p.config.usdcMint,
          owner: owner.publicKey,
          amount: p.usdc,
        }),
      ]);
      return { owner, agent: id.agent, memberNumber: id.memberNumber };
    }),
  );
}
