/**
 * NODE-ONLY (server, scripts, tests): Keypair senders for SATI, built with lib/chain/sati.ts.
 *
 * - {@link ensureSatiRegistry}: the embedded chain's registry (programs/sati_registry, loaded at
 *   the configured SATI id) is initialized once, with a group mint created by `initialize`
 *   from a fresh keypair; everyone reads the group from RegistryConfig afterwards, so its
 *   address needs no configuration.
 * - {@link registerSatiAgent}: SATI's `register_agent`, the same transaction a wallet sends to the
 *   real SATI. The new member's AgentIndex is the PDA of total_agents + 1, so two registrations
 *   built from the same RegistryConfig collide; submissions are serialized per connection
 *   (confirmations still overlap) and a lost race is rebuilt from a fresh read.
 */
import { type Connection, Keypair, PublicKey } from '@solana/web3.js';
import { ChainAccountError, ChainTransactionError } from '../errors';
import { ERRORS as SATI_REGISTRY_ERRORS } from '../gen/sati_registry';
import { identityTokenAccount } from '../identity';
import {
  decodeRegistryConfig,
  type RegisterAgentArgs,
  type RegistryConfig,
  registerAgentInstruction,
  registryConfigAddress,
  SATI_MAINNET,
  satiInitializeInstruction,
} from '../sati';
import { sendIxs, submitIxs } from './send';

/** Reads SATI's RegistryConfig at `program`; ChainAccountError when there is none. */
export async function loadSatiRegistry(
  connection: Connection,
  program: PublicKey = SATI_MAINNET.program,
  commitment: 'processed' | 'confirmed' = 'confirmed',
): Promise<RegistryConfig> {
  const info = await connection.getAccountInfo(registryConfigAddress(program), commitment);
  const cfg = info?.owner.equals(program) ? decodeRegistryConfig(info.data) : null;
  if (!cfg)
    throw new ChainAccountError(
      `no SATI registry at ${program.toBase58()} (RegistryConfig ${registryConfigAddress(program).toBase58()} missing)`,
    );
  return cfg;
}

/** Parameters of {@link ensureSatiRegistry}. */
export interface EnsureSatiRegistryParams {
  /** Pays and becomes the registry authority. */
  authority: Keypair;
  program?: PublicKey;
  /**
   * A Keypair: the group mint `initialize` creates (default: a generated one). A PublicKey: a
   * group mint that already exists with the registry PDA as update authority (SATI's four
   * accounts, as on a cluster; lib/devchain writes one at SATI's group address with `satiGroupMint`).
   */
  groupMint?: Keypair | PublicKey;
}

/** Initializes the stand-in registry when its RegistryConfig is absent; returns the config either way. */
export async function ensureSatiRegistry(
  connection: Connection,
  p: EnsureSatiRegistryParams,
): Promise<RegistryConfig & { created: boolean }> {
  if (!(p?.authority instanceof Keypair)) throw new TypeError('authority must be a Keypair');
  const program = p.program ?? SATI_MAINNET.program;
  try {
    return { ...(await loadSatiRegistry(connection, program)), created: false };
  } catch (e) {
    if (!(e instanceof ChainAccountError)) throw e;
  }
  if (p.groupMint instanceof PublicKey) {
    await sendIxs(
      connection,
      [satiInitializeInstruction({ authority: p.authority.publicKey, groupMint: p.groupMint, program })],
      [p.authority],
    );
  } else {
    const group = p.groupMint ?? Keypair.generate();
    await sendIxs(
      connection,
      [
        satiInitializeInstruction({
          authority: p.authority.publicKey,
          groupMint: group.publicKey,
          program,
          createGroupMint: true,
        }),
      ],
      [p.authority, group],
    );
  }
  return { ...(await loadSatiRegistry(connection, program)), created: true };
}

/**
 * What {@link registerSatiAgent} registers (SATI's arguments; symbol defaults to "AGENT", transferable unless asked).
 */
export interface RegisterSatiAgentArgs extends Partial<Omit<RegisterAgentArgs, 'name' | 'uri'>> {
  name: string;
  uri: string;
  /** The agent mint keypair, so the id is known before confirmation (default: generated). */
  mint?: Keypair;
  program?: PublicKey;
}

/** A registered agent. */
export interface SatiAgentRegistration {
  /** The agent id: the Token-2022 mint. */
  agent: PublicKey;
  owner: PublicKey;
  /** The owner's associated Token-2022 account holding the NFT. */
  tokenAccount: PublicKey;
  memberNumber: bigint;
  signature: string;
}

const submitting = new WeakMap<Connection, Promise<unknown>>();
const MAX_ATTEMPTS = 8;
/** The real SATI (Anchor) refuses an AgentIndex that is not the PDA of total_agents + 1 with ConstraintSeeds. */
const ANCHOR_CONSTRAINT_SEEDS = 2006;

/**
 * Registers an agent with SATI's register_agent (module comment): `payer` signs and pays,
 * `owner` receives the NFT and need not sign. Throws ChainTransactionError when refused.
 */
export async function registerSatiAgent(
  connection: Connection,
  payer: Keypair,
  owner: PublicKey,
  args: RegisterSatiAgentArgs,
): Promise<SatiAgentRegistration> {
  if (!(payer instanceof Keypair)) throw new TypeError('payer must be a Keypair');
  if (!(owner instanceof PublicKey)) throw new TypeError('owner must be a PublicKey');
  const program = args?.program ?? SATI_MAINNET.program;
  const mint = args.mint ?? Keypair.generate();
  for (let attempt = 1; ; attempt++) {
    // Only the read-build-submit step is serialized: the next registration reads the config this one just moved.
    const prev = submitting.get(connection) ?? Promise.resolve();
    const step = prev
      .catch(() => undefined)
      .then(async () => {
        const cfg = await loadSatiRegistry(connection, program, 'processed');
        const ix = registerAgentInstruction({
          payer: payer.publicKey,
          owner,
          agentMint: mint.publicKey,
          registry: cfg,
          program,
          name: args.name,
          symbol: args.symbol ?? 'AGENT',
          uri: args.uri,
          additionalMetadata: args.additionalMetadata ?? null,
          nonTransferable: args.nonTransferable ?? false,
        });
        const sent = await submitIxs(connection, [ix], [payer, mint]);
        return { ...sent, memberNumber: cfg.totalAgents + 1n };
      });
    submitting.set(connection, step);
    try {
      const { confirmed, memberNumber } = await step;
      const signature = await confirmed;
      return {
        agent: mint.publicKey,
        owner,
        tokenAccount: identityTokenAccount(mint.publicKey, owner),
        memberNumber,
        signature,
      };
    } catch (e) {
      // Another registration took this member number first (the AgentIndex PDA no longer matches): rebuild.
      const raced =
        e instanceof ChainTransactionError &&
        (e.code === SATI_REGISTRY_ERRORS.WrongPda || e.code === ANCHOR_CONSTRAINT_SEEDS);
      if (!raced || attempt >= MAX_ATTEMPTS) throw e;
    }
  }
}
