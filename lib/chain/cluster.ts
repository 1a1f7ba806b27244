/**
 * Which chain the observatory acts on, as one table (docs/chain.md "Clusters"): for each cluster
 * the addresses of SATI (the identity registry and the Solana Attestation Service objects its
 * delegations live in), our programs' ids, the USDC mint and the mesh's bootstrap list. The
 * process picks a row with CLUSTER (server/config.ts); `custom` has no row and every address comes
 * from a variable. Browser-safe: plain data and PublicKeys.
 */
import { PublicKey } from '@solana/web3.js';
import { PROGRAM_IDS } from './gen/ids';
import { SATI_MAINNET, type SatiAddresses } from './sati';

export type { SatiAddresses };

/** Program ids of the 0x01 programs (programs/ids.json). */
export type ProgramIds = { readonly [K in keyof typeof PROGRAM_IDS]: PublicKey };

/** Cluster names CLUSTER accepts. */
export const CLUSTER_NAMES = ['mainnet', 'devnet', 'custom'] as const;
export type ClusterName = (typeof CLUSTER_NAMES)[number];

/** One row of the table. */
export interface ClusterPreset {
  /** The public JSON-RPC endpoint used when SOLANA_RPC_URL is unset. */
  rpcUrl: string;
  sati: SatiAddresses;
  programs: ProgramIds;
  usdcMint: PublicKey;
  /** Multiaddrs of mesh peers to dial at start (BOOTSTRAP adds to them). */
  bootstrap: readonly string[];
}

/**
 * The table. Our programs keep the ids of programs/ids.json on every cluster: the instruction
 * builders are generated with them. No public 0x01 bootstrap node is published yet, so the
 * presets' lists are empty and BOOTSTRAP supplies peers.
 */
export const CLUSTERS: { readonly mainnet: ClusterPreset; readonly devnet: ClusterPreset } = Object.freeze({
  mainnet: Object.freeze({
    rpcUrl: 'https://api.mainnet-beta.solana.com',
    sati: SATI_MAINNET,
    programs: PROGRAM_IDS,
    // Circle's USDC.
    usdcMint: new PublicKey('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'),
    bootstrap: Object.freeze([]),
  }),
  devnet: Object.freeze({
    rpcUrl: 'https://api.devnet.solana.com',
    // Same program and SAS objects as mainnet; the group mint is read from RegistryConfig anyway.
    sati: SATI_MAINNET,
    programs: PROGRAM_IDS,
    // Circle's devnet USDC.
    usdcMint: new PublicKey('4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU'),
    bootstrap: Object.freeze([]),
  }),
});

/**
 * The embedded chain's addresses: our own registry program runs at SATI's program id and the SAS
 * objects keep their mainnet addresses (the demo writes the attestation accounts directly); the
 * group mint is the one the local registry was initialized with (read from RegistryConfig).
 */
export const EMBEDDED_SATI: SatiAddresses = SATI_MAINNET;

/** What the process acts on once CLUSTER (or its absence) is resolved. */
export interface ClusterConfig {
  /** `embedded` = the chain this process starts. */
  name: ClusterName | 'embedded';
  sati: SatiAddresses;
  programs: ProgramIds;
  /** The USDC mint; null on the embedded chain, which creates its own. */
  usdcMint: PublicKey | null;
  bootstrap: readonly string[];
}

/** The embedded chain's row. */
export const EMBEDDED_CLUSTER: ClusterConfig = Object.freeze({
  name: 'embedded',
  sati: EMBEDDED_SATI,
  programs: PROGRAM_IDS,
  usdcMint: null,
  bootstrap: Object.freeze([]),
});

/**
 * The variables that name each SATI address. With CLUSTER=custom the first five are required
 * (identity depends on them); the feedback schemas and the lookup table default to mainnet's
 * (nothing here depends on them but the optional Photon reads).
 */
export const SATI_VARIABLES = {
  program: 'SATI_PROGRAM_ID',
  groupMint: 'SATI_GROUP_MINT',
  sas: 'SAS_PROGRAM_ID',
  credential: 'SATI_CREDENTIAL',
  delegateSchema: 'SATI_DELEGATE_SCHEMA',
  feedbackSchema: 'SATI_FEEDBACK_SCHEMA',
  feedbackPublicSchema: 'SATI_FEEDBACK_PUBLIC_SCHEMA',
  lookupTable: 'SATI_LOOKUP_TABLE',
} as const satisfies Record<keyof SatiAddresses, string>;

/** The SATI addresses CLUSTER=custom cannot do without. */
export const SATI_REQUIRED: readonly (keyof SatiAddresses)[] = [
  'program',
  'groupMint',
  'sas',
  'credential',
  'delegateSchema',
];

/** The JSON-friendly form of a ClusterConfig (logs, /api/health, pages). */
export function clusterSummary(c: ClusterConfig): {
  name: string;
  sati: Record<keyof SatiAddresses, string>;
  programs: Record<string, string>;
  usdcMint: string | null;
  bootstrap: string[];
} {
  const b58 = <T extends Record<string, PublicKey>>(o: T) =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k, v.toBase58()])) as Record<keyof T, string>;
  return {
    name: c.name,
    sati: b58(c.sati as unknown as Record<keyof SatiAddresses, PublicKey>),
    programs: b58(c.programs as unknown as Record<string, PublicKey>),
    usdcMint: c.usdcMint?.toBase58() ?? null,
    bootstrap: [...c.bootstrap],
  };
}
