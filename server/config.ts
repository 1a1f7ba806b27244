/**
 * The process's configuration (README.md "Configuration"): every environment variable the
 * observatory process reads goes through this one zod schema, checked once at start; a bad value
 * is refused with an error naming the variable. Unset or empty variables take their defaults.
 */

import { PublicKey } from '@solana/web3.js';
import { z } from 'zod';
import { type AlertsConfig, DEFAULT_ALERTS_CONFIG, type EnvWebhook } from '../lib/alerts';
import {
  CLUSTER_NAMES,
  CLUSTERS,
  type ClusterConfig,
  EMBEDDED_CLUSTER,
  SATI_REQUIRED,
  SATI_VARIABLES,
  type SatiAddresses,
} from '../lib/chain/cluster';
import { SATI_MAINNET } from '../lib/chain/sati';
import {
  DEFAULT_DATA_DIR,
  DEFAULT_DEMO_AGENTS,
  DEFAULT_INGEST_BUFFER,
  DEFAULT_OBSERVER_LISTEN,
  DEFAULT_PORT,
  DEFAULT_RELAY_RESERVATIONS,
  type ObservatoryConfig,
} from '../lib/observer/config';
import { DEFAULT_EPOCH_SECONDS } from '../lib/protocol/constants';
import { BaseError } from '../lib/protocol/errors';
import { DEFAULT_HEAVY_LIMITS, type HeavyLimits } from './heavy-gate';
import { LOG_LEVELS, type LogLevel } from './logger';
import { type BucketSpec, DEFAULT_RATE_LIMITS, type RateLimits } from './rate-limit';
import { DEFAULT_FAUCET_LIMITS, DEFAULT_RPC_LIMITS, type FaucetLimits, type RpcLimits } from './rpc-gate';
import { DEFAULT_STREAM_PER_CLIENT } from './stream';

/** CONNECTIONS_PER_CLIENT unless set: a browser uses about 6, a NAT of many users more. */
export const DEFAULT_CONNECTIONS_PER_CLIENT = 256;

/**
 * The demo's short epochs: with demo agents and no EPOCH_SECONDS, epochs last this long so
 * batches, lease payments and a resolved challenge show within minutes (the chain's programs take
 * the same epoch length when they are first initialized).
 */
export const DEMO_EPOCH_SECONDS = 20;
/** The embedded chain's JSON-RPC port unless CHAIN_PORT says otherwise. */
export const DEFAULT_CHAIN_PORT = 8899;

/** Checked configuration of the one observatory process. */
export interface ServerConfig extends ObservatoryConfig {
  /** HOST: the interface HTTP listens on; undefined = every interface (as `next start`). */
  host?: string;
  /** NODE_ENV; anything but production runs Next in dev mode. */
  nodeEnv: 'production' | 'development' | 'test';
  /** LOG_LEVEL (default info). */
  logLevel: LogLevel;
  /** CHAIN=off runs without a chain (no registry on chain, no indexer, no chain routes). */
  chain: boolean;
  /** CHAIN_PORT: the embedded chain's port (0 = ephemeral). */
  chainPort: number;
  /**
   * RATE_LIMIT_API / _EXPORT / _MCP: per-client token buckets (server/rate-limit.ts); a class set to `off` is absent.
   */
  rateLimits: RateLimits;
  /**
   * HEAVY_PER_CLIENT, HEAVY_QUEUE, HEAVY_WAIT_MS, HEAVY_BUDGET: heavy reads' slots and time budget per client
   * (server/heavy-gate.ts).
   */
  heavy: HeavyLimits;
  /** SATI_REGISTER_URL: where the My agents page sends owners to register an identity on a real cluster. */
  satiRegisterUrl?: string;
  /**
   * PUBLIC_RPC_URL: the JSON-RPC URL Explorer links name for a chain Explorer does not know (lib/chain/explorer.ts).
   */
  publicRpcUrl?: string;
  /** PHOTON_URL: a Photon indexer, where SATI's compressed feedback (and so its reputation) is read. */
  photonUrl?: string;
  /**
   * DISCOVERY_ALLOW_PRIVATE: on a cluster, let SATI discovery read registration files and dial
   * mesh endpoints at loopback and private addresses (a local cluster on one machine). The
   * embedded chain always allows them (its demo agents listen on loopback).
   */
  discoveryAllowPrivate: boolean;
  /** CONNECTIONS_PER_CLIENT: open HTTP connections per client address (server/http-gate.ts); null = off. */
  connectionsPerClient: number | null;
  /** STREAM_PER_CLIENT: /api/stream sockets per client address. */
  streamPerClient: number;
  /** RPC_MAX_BATCH, RATE_LIMIT_RPC, RATE_LIMIT_RPC_HEAVY: the chain proxy's limits (server/rpc-gate.ts). */
  rpcLimits: RpcLimits;
  /**
   * FAUCET (on|off) with FAUCET_PER_HOUR and FAUCET_WALLET_PER_HOUR: the faucet's budgets, or null
   * when it is off. Default on only with the embedded chain and demo agents; on a cluster it
   * cannot be turned on.
   */
  faucet: FaucetLimits | null;
  /**
   * CLUSTER with SOLANA_RPC_URL and the address variables: SATI's addresses, our programs' ids,
   * the USDC mint and the bootstrap list (lib/chain/cluster.ts); the embedded chain's row when
   * neither CLUSTER nor SOLANA_RPC_URL is set.
   */
  cluster: ClusterConfig;
  /**
   * ALERT_MAX_AGENTS, ALERT_MAX_RULES, ALERT_DELIVERIES_PER_HOUR, ALERT_RULE_PER_HOUR,
   * ALERT_WEBHOOK_ALLOW_PRIVATE, ALERT_WEBHOOKS, ALERT_EVAL_MS, ALERT_RETRY_BASE_MS and PUBLIC_URL:
   * the alert evaluator, its caps and the deployment's own webhooks (lib/alerts, docs/app.md
   * "Alerts and watchlists").
   */
  alerts: AlertsConfig;
  /**
   * DISPUTE_REVIEWERS: base58 wallet addresses whose signed opinions count on the dispute desk
   * (status, counts, the disputes dataset); everyone else's are kept and shown as not counted.
   * Empty by default: no opinion counts until the deployment names its reviewers.
   */
  disputeReviewers: string[];
  /**
   * DEMO_LEASE_PAUSE `<agent index>@<unix seconds>`: that demo agent pays no lease until then (alerts' demo and e2e).
   */
  demoLeasePause?: { index: number; untilMs: number };
}

/** An environment variable is malformed; the message starts with the variable's name. */
export class ConfigError extends BaseError {
  override name = 'ConfigError';
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }
}

/** A multiaddr in string form: starts with `/`, has protocol/value parts, no whitespace. */
const multiaddr = z
  .string()
  .regex(/^(\/[A-Za-z0-9._~:%+-]+)+$/, 'not a multiaddr (expected e.g. /ip4/127.0.0.1/tcp/4001)')
  .refine((s) => s.split('/').length >= 3, 'a multiaddr needs at least one protocol/value pair');

/** Comma- or whitespace-separated list. */
function list(raw: string): string[] {
  return raw
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const intIn = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a non-negative integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const url = (protocols: string[]) =>
  z
    .string()
    .trim()
    .refine(
      (s) => {
        try {
          return protocols.includes(new URL(s).protocol);
        } catch {
          return false;
        }
      },
      `must be a URL with scheme ${protocols.map((p) => p.replace(':', '')).join(' or ')}`,
    );

const oneOf = <T extends string>(values: readonly T[]) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((s): s is T => (values as readonly string[]).includes(s), `must be one of ${values.join(', ')}`)
    .transform((s) => s as T);

/** `RATE:BURST` (requests per second refilled : bucket size) or `off`. */
const bucket = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^(off|\d+(\.\d+)?:\d+)$/, 'must be RATE:BURST (requests per second : burst, e.g. 20:100) or off')
  .transform((s): BucketSpec | null =>
    s === 'off' ? null : { perSecond: Number(s.split(':')[0]), burst: Number(s.split(':')[1]) },
  )
  .refine(
    (b) => b === null || (b.perSecond > 0 && b.burst >= 1 && b.burst <= 1_000_000),
    'RATE must be above 0 and BURST 1..1000000 (or off)',
  );

/** A base58 Solana address. */
const address = z
  .string()
  .trim()
  .refine((s) => {
    try {
      return new PublicKey(s).toBase58() === s;
    } catch {
      return false;
    }
  }, 'must be a base58 Solana address (32 bytes)')
  .transform((s) => new PublicKey(s));

/** ALERT_WEBHOOKS as JSON: `[{url, format, secret?, agents: "all" | [ids], rules?: {kind: params}}]`. */
const envWebhooks = z
  .array(
    z.strictObject({
      url: z.string().regex(/^https?:\/\//i, 'must be an http(s) URL'),
      format: z.enum(['slack', 'discord', 'json']).default('json'),
      secret: z.string().min(16).max(256).optional(),
      agents: z
        .union([
          z.literal('all'),
          z
            .array(
              z
                .string()
                .regex(
                  /^(?:(?:0x)?[0-9a-fA-F]{64}|[1-9A-HJ-NP-Za-km-z]{32,44})$/,
                  'must be 64 hex characters or a base58 agent address',
                ),
            )
            .min(1),
        ])
        .default('all'),
      rules: z
        .partialRecord(
          z.enum([
            'offline',
            'lease_due',
            'lease_grace',
            'deactivated',
            'batch_missing',
            'batch_mismatch',
            'challenged',
            'challenge_resolved',
            'slashed',
            'reputation_drop',
            'drops_rate',
            'dispute',
          ]),
          z.record(z.string(), z.unknown()),
        )
        .optional(),
    }),
  )
  .max(20);

const fields = {
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  DATA_DIR: z.string().trim().min(1),
  PORT: intIn(0, 65_535),
  OBSERVER_LISTEN: z.string().transform(list).pipe(z.array(multiaddr).min(1, 'needs at least one multiaddr')),
  BOOTSTRAP: z.string().transform(list).pipe(z.array(multiaddr)),
  RELAY_RESERVATIONS: intIn(0, 4_096),
  LIBP2P_METRICS: oneOf(['on', 'off'] as const),
  DEMO_AGENTS: intIn(0, 64),
  EPOCH_SECONDS: intIn(1, 31_536_000),
  VERIFY_WORKERS: intIn(0, 64),
  INGEST_BUFFER_ENVELOPES: intIn(1_000, 100_000_000),
  INGEST_BUFFER_MB: intIn(1, 65_536),
  SOLANA_RPC_URL: url(['http:', 'https:']),
  SOLANA_WS_URL: url(['ws:', 'wss:']),
  HOST: z
    .string()
    .trim()
    .regex(
      /^(\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)$/,
      'must be a host name or an IP address (e.g. 127.0.0.1, ::, localhost)',
    ),
  NODE_ENV: oneOf(['production', 'development', 'test'] as const),
  LOG_LEVEL: oneOf(LOG_LEVELS),
  CHAIN: oneOf(['on', 'off'] as const),
  CHAIN_PORT: intIn(0, 65_534),
  RATE_LIMIT_API: bucket,
  RATE_LIMIT_EXPORT: bucket,
  RATE_LIMIT_MCP: bucket,
  HEAVY_PER_CLIENT: intIn(1, 1_000),
  HEAVY_QUEUE: intIn(0, 10_000),
  HEAVY_WAIT_MS: intIn(100, 600_000),
  // Milliseconds of heavy reads earned per second : banked at most.
  HEAVY_BUDGET: bucket,
  SATI_REGISTER_URL: url(['http:', 'https:']),
  PHOTON_URL: url(['http:', 'https:']),
  PUBLIC_RPC_URL: url(['http:', 'https:']),
  DISCOVERY_ALLOW_PRIVATE: oneOf(['0', '1'] as const),
  CONNECTIONS_PER_CLIENT: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.union([z.literal('off'), intIn(1, 1_000_000)], { error: 'must be an integer 1..1000000 or off' })),
  STREAM_PER_CLIENT: intIn(1, 100_000),
  RPC_MAX_BATCH: intIn(1, 1_000),
  RATE_LIMIT_RPC: bucket,
  RATE_LIMIT_RPC_HEAVY: bucket,
  FAUCET: oneOf(['on', 'off'] as const),
  FAUCET_PER_HOUR: intIn(1, 1_000_000),
  FAUCET_WALLET_PER_HOUR: intIn(1, 1_000_000),
  CLUSTER: oneOf(CLUSTER_NAMES),
  SATI_PROGRAM_ID: address,
  SATI_GROUP_MINT: address,
  SAS_PROGRAM_ID: address,
  SATI_CREDENTIAL: address,
  SATI_DELEGATE_SCHEMA: address,
  SATI_FEEDBACK_SCHEMA: address,
  SATI_FEEDBACK_PUBLIC_SCHEMA: address,
  SATI_LOOKUP_TABLE: address,
  USDC_MINT: address,
  ALERT_MAX_AGENTS: intIn(1, 100_000),
  ALERT_MAX_RULES: intIn(1, 1_000),
  ALERT_DELIVERIES_PER_HOUR: intIn(1, 1_000_000),
  ALERT_RULE_PER_HOUR: intIn(1, 1_000_000),
  ALERT_WEBHOOK_ALLOW_PRIVATE: oneOf(['0', '1'] as const),
  ALERT_WEBHOOKS: z.string().transform((s, ctx) => {
    const t = s.trim();
    if (!t.startsWith('[')) {
      // A plain list of URLs: json format, every agent, the default rules.
      const urls = list(t);
      for (const u of urls)
        if (!/^https?:\/\//i.test(u)) {
          ctx.addIssue({ code: 'custom', message: `${u} is not an http(s) URL` });
          return z.NEVER;
        }
      return urls.map((url): EnvWebhook => ({ url, format: 'json', agents: 'all' }));
    }
    let raw: unknown;
    try {
      raw = JSON.parse(t);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'neither a JSON array nor a list of URLs' });
      return z.NEVER;
    }
    const r = envWebhooks.safeParse(raw);
    if (!r.success) {
      ctx.addIssue({
        code: 'custom',
        message: r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      });
      return z.NEVER;
    }
    return r.data as EnvWebhook[];
  }),
  ALERT_EVAL_MS: intIn(100, 600_000),
  ALERT_RETRY_BASE_MS: intIn(10, 3_600_000),
  PUBLIC_URL: url(['http:', 'https:']),
  DISPUTE_REVIEWERS: z
    .string()
    .transform(list)
    .pipe(z.array(address).max(1_000, 'at most 1000 reviewers'))
    .transform((keys) => [...new Set(keys.map((k) => k.toBase58()))]),
  DEMO_LEASE_PAUSE: z
    .string()
    .trim()
    .regex(/^\d{1,2}@\d{9,11}$/, 'must be <agent index>@<unix seconds>, e.g. 2@1790000000')
    .transform((s) => ({ index: Number(s.split('@')[0]), untilMs: Number(s.split('@')[1]) * 1000 })),
} as const;

/** The variables {@link loadConfig} reads. */
export const CONFIG_VARIABLES = Object.keys(fields) as Array<keyof typeof fields>;
export type ConfigVariable = keyof typeof fields;

/** The groups the README's configuration table is split into, in order. */
export const CONFIG_GROUPS = [
  'Process and web',
  'Database and files',
  'Mesh and observer',
  'Chain',
  'Fair limits',
  'Alerts',
  'Demo and disputes',
] as const;

/**
 * What the README's configuration table says of one variable (README.md "Configuration",
 * rendered by `npm run docs:config`; a test fails when the README differs).
 */
export interface VariableDoc {
  group: (typeof CONFIG_GROUPS)[number];
  /** The default as a reader sees it; "unset" when there is none. */
  default: string;
  /** What it does and the values it takes (Markdown). */
  meaning: string;
  /** Where it is told at length: a Markdown file and the words of a heading or label in it. */
  doc?: readonly [file: string, section: string];
}

const bucketText = (b: BucketSpec | null | undefined) => (b ? `\`${b.perSecond}:${b.burst}\`` : '`off`');
const code = (v: string | number) => `\`${v}\``;

/**
 * Every variable's documentation, one entry per schema field (the type makes a missing one a
 * compile error). Defaults come from the same constants {@link loadConfig} uses.
 */
export const CONFIG_DOCS: { readonly [K in ConfigVariable]: VariableDoc } = {
  PORT: {
    group: 'Process and web',
    default: code(DEFAULT_PORT),
    meaning: 'HTTP port of the web app, the API and `/api/stream`.',
  },
  HOST: {
    group: 'Process and web',
    default: 'every interface',
    meaning: 'Interface HTTP listens on (a host name or an IP address, e.g. `127.0.0.1`, `::`).',
  },
  NODE_ENV: {
    group: 'Process and web',
    default: '`development` (`npm start` sets `production`)',
    meaning: '`production`, `development` or `test`; anything but `production` runs Next in development mode.',
  },
  LOG_LEVEL: { group: 'Process and web', default: '`info`', meaning: '`debug`, `info`, `warn` or `error`.' },
  PUBLIC_URL: {
    group: 'Process and web',
    default: '`http://localhost:PORT`',
    meaning: "The deployment's own base URL, used for links in alert messages.",
    doc: ['docs/app.md', 'Alerts and watchlists'],
  },
  DATABASE_URL: {
    group: 'Database and files',
    default: 'unset: PGlite in `<DATA_DIR>/pglite`',
    meaning: '`postgres://` or `postgresql://` URL of a Postgres server instead of the embedded PGlite.',
    doc: ['docs/architecture.md', 'Embedded defaults, real parts'],
  },
  DATA_DIR: {
    group: 'Database and files',
    default: code(DEFAULT_DATA_DIR),
    meaning:
      'Folder of PGlite (`pglite/`), the embedded chain (`chain/`) and dataset ' +
      'releases (`datasets/`). Deleting it with the server stopped starts a fresh demo.',
  },
  OBSERVER_LISTEN: {
    group: 'Mesh and observer',
    default: DEFAULT_OBSERVER_LISTEN.map(code).join(' '),
    meaning:
      "Multiaddrs the observer's libp2p node listens on (comma- or space-separated); " +
      'a `/ws` address on a routable interface lets browsers reach it.',
    doc: ['lib/mesh/README.md', 'Stack and why'],
  },
  BOOTSTRAP: {
    group: 'Mesh and observer',
    default: "the cluster's list (none on the embedded chain)",
    meaning: "Multiaddrs of peers to dial at start, added to the cluster's bootstrap list.",
    doc: ['docs/chain.md', 'Clusters'],
  },
  RELAY_RESERVATIONS: {
    group: 'Mesh and observer',
    default: code(DEFAULT_RELAY_RESERVATIONS),
    meaning:
      "Browser nodes that may hold a slot on the observer's circuit relay at once " +
      '(they signal WebRTC to each other through it); `0` turns the relay off.',
    doc: ['docs/protocol.md', 'Browser nodes'],
  },
  LIBP2P_METRICS: {
    group: 'Mesh and observer',
    default: '`off`',
    meaning:
      "`on` adds libp2p's own connection, stream and transport metrics to `/metrics`, at a CPU cost per envelope.",
    doc: ['docs/app.md', 'Mesh health'],
  },
  VERIFY_WORKERS: {
    group: 'Mesh and observer',
    default: 'cores − 1, at least 1',
    meaning: "Worker threads that check live envelopes' signatures; `0` checks them on the event loop.",
  },
  INGEST_BUFFER_ENVELOPES: {
    group: 'Mesh and observer',
    default: code(DEFAULT_INGEST_BUFFER.maxEnvelopes),
    meaning:
      'Accepted envelopes the observer holds in memory while the database is unreachable ' +
      'or behind; past it new envelopes are dropped (`store_unavailable`, `store_backlog`).',
    doc: ['lib/observer/README.md', 'Database outage'],
  },
  INGEST_BUFFER_MB: {
    group: 'Mesh and observer',
    default: code(DEFAULT_INGEST_BUFFER.maxBytes / 2 ** 20),
    meaning: "The same bound in MiB of the envelopes' raw bytes; whichever is reached first applies.",
    doc: ['lib/observer/README.md', 'Database outage'],
  },
  EPOCH_SECONDS: {
    group: 'Mesh and observer',
    default: `${code(DEFAULT_EPOCH_SECONDS)}; **${code(DEMO_EPOCH_SECONDS)} when \`DEMO_AGENTS\` > 0 and it is unset**`,
    meaning:
      "Epoch length: batches, leases, challenges and releases count in epochs. The demo's short epochs show " +
      "batches within two epochs and a resolved challenge about three epochs after the cheating batch's.",
    doc: ['docs/chain.md', 'Epochs, leases, stakes, challenges'],
  },
  CHAIN: {
    group: 'Chain',
    default: '`on`',
    meaning:
      '`off` runs without a chain: no registry on chain, no indexer, ' +
      "no chain routes; signers come from the store's local table.",
  },
  CHAIN_PORT: {
    group: 'Chain',
    default: code(DEFAULT_CHAIN_PORT),
    meaning:
      "Port of the embedded chain's JSON-RPC (state in `<DATA_DIR>/chain`); " +
      'an ephemeral port with a warning when it is taken; `0` = ephemeral.',
  },
  SOLANA_RPC_URL: {
    group: 'Chain',
    default: 'unset: the embedded chain (on `mainnet`/`devnet` the public endpoint)',
    meaning:
      'JSON-RPC of a cluster instead of the embedded chain; alone it selects `mainnet` or `devnet` ' +
      'when its host names one, else `CLUSTER` is required. The browser wallet uses the same chain.',
    doc: ['docs/chain.md', 'Clusters'],
  },
  SOLANA_WS_URL: {
    group: 'Chain',
    default: 'derived from `SOLANA_RPC_URL` (port + 1)',
    meaning: 'PubSub (WebSocket) endpoint of that cluster.',
  },
  CLUSTER: {
    group: 'Chain',
    default: 'unset: the embedded chain',
    meaning:
      "`mainnet`, `devnet` or `custom`: one table gives SATI's addresses, our programs' ids, " +
      'the USDC mint and the bootstrap list. `custom` needs `SOLANA_RPC_URL`, the five ' +
      'required SATI addresses and `USDC_MINT`, and refuses to start naming the one missing.',
    doc: ['docs/chain.md', 'Clusters'],
  },
  SATI_PROGRAM_ID: {
    group: 'Chain',
    default: "the cluster's",
    meaning:
      "SATI's registry program (required with `CLUSTER=custom`; " +
      'refused on the embedded chain, as is every address below).',
    doc: ['docs/chain.md', 'Addresses'],
  },
  SATI_GROUP_MINT: {
    group: 'Chain',
    default: "the cluster's",
    meaning: "SATI's agent group mint (required with `custom`).",
    doc: ['docs/chain.md', 'Addresses'],
  },
  SAS_PROGRAM_ID: {
    group: 'Chain',
    default: "the cluster's",
    meaning: 'The Solana Attestation Service program (required with `custom`).',
    doc: ['docs/chain.md', 'Addresses'],
  },
  SATI_CREDENTIAL: {
    group: 'Chain',
    default: "the cluster's",
    meaning: "SATI's SAS credential (required with `custom`).",
    doc: ['docs/chain.md', 'Addresses'],
  },
  SATI_DELEGATE_SCHEMA: {
    group: 'Chain',
    default: "the cluster's",
    meaning: 'The SAS schema of delegations: who may sign for an agent (required with `custom`).',
    doc: ['docs/chain.md', 'Who may sign for an agent'],
  },
  SATI_FEEDBACK_SCHEMA: {
    group: 'Chain',
    default: "the cluster's (mainnet's on `custom`)",
    meaning: 'The SAS schema of SATI feedback (optional).',
    doc: ['docs/chain.md', 'Addresses'],
  },
  SATI_FEEDBACK_PUBLIC_SCHEMA: {
    group: 'Chain',
    default: "the cluster's (mainnet's on `custom`)",
    meaning: 'The SAS schema of SATI public feedback (optional).',
    doc: ['docs/chain.md', 'Addresses'],
  },
  SATI_LOOKUP_TABLE: {
    group: 'Chain',
    default: "the cluster's (mainnet's on `custom`)",
    meaning: "SATI's address lookup table (optional).",
    doc: ['docs/chain.md', 'Addresses'],
  },
  USDC_MINT: {
    group: 'Chain',
    default: "the cluster's (the deployment's own on the embedded chain)",
    meaning: 'The USDC mint stakes, leases and Haggle escrows are counted in (required with `custom`).',
    doc: ['docs/chain.md', 'Clusters'],
  },
  PUBLIC_RPC_URL: {
    group: 'Chain',
    default: "unset: the chain's own RPC URL",
    meaning:
      'The JSON-RPC URL Solana Explorer links name (`customUrl`) for the embedded chain or a ' +
      'custom cluster; a loopback or private URL is linked only for a viewer on the same machine.',
    doc: ['docs/app.md', 'Explorer links'],
  },
  SATI_REGISTER_URL: {
    group: 'Chain',
    default: 'unset',
    meaning: 'On a cluster, where "My agents" sends owners to register an identity.',
    doc: ['docs/app.md', 'Wallet'],
  },
  PHOTON_URL: {
    group: 'Chain',
    default: 'unset',
    meaning:
      "A Photon indexer, where SATI's compressed feedback (its " +
      'reputation) is read; shown as configured but not queried yet.',
    doc: ['docs/app.md', 'SATI reputation'],
  },
  DISCOVERY_ALLOW_PRIVATE: {
    group: 'Chain',
    default: '`0`',
    meaning:
      '`1` lets SATI discovery on a cluster read registration files and dial mesh endpoints at ' +
      'loopback and private addresses (a cluster on one machine); the embedded chain always allows them.',
    doc: ['docs/chain.md', 'Discovery'],
  },
  RATE_LIMIT_API: {
    group: 'Fair limits',
    default: bucketText(DEFAULT_RATE_LIMITS.api),
    meaning: 'Per-client token bucket of API requests, `RATE:BURST` (requests per second : burst) or `off`.',
    doc: ['docs/app.md', 'Fair limits'],
  },
  RATE_LIMIT_EXPORT: {
    group: 'Fair limits',
    default: bucketText(DEFAULT_RATE_LIMITS.export),
    meaning: 'The same for dataset exports.',
    doc: ['docs/app.md', 'Fair limits'],
  },
  RATE_LIMIT_MCP: {
    group: 'Fair limits',
    default: bucketText(DEFAULT_RATE_LIMITS.mcp),
    meaning: 'The same for MCP calls.',
    doc: ['docs/app.md', 'Fair limits'],
  },
  HEAVY_PER_CLIENT: {
    group: 'Fair limits',
    default: code(DEFAULT_HEAVY_LIMITS.perClient),
    meaning: 'Heavy reads (replay pages, lists, collusion windows, search, MCP calls) one client runs at once.',
    doc: ['docs/app.md', 'Fair limits'],
  },
  HEAVY_QUEUE: {
    group: 'Fair limits',
    default: code(DEFAULT_HEAVY_LIMITS.queue),
    meaning: 'Heavy reads of one client waiting beyond those; one more is answered `429`.',
    doc: ['docs/app.md', 'Fair limits'],
  },
  HEAVY_WAIT_MS: {
    group: 'Fair limits',
    default: code(DEFAULT_HEAVY_LIMITS.waitMs),
    meaning: 'Longest wait of a queued heavy read, in ms.',
    doc: ['docs/app.md', 'Fair limits'],
  },
  HEAVY_BUDGET: {
    group: 'Fair limits',
    default: bucketText(DEFAULT_HEAVY_LIMITS.budget),
    meaning: 'Milliseconds of heavy reads a client earns per second and may bank, `RATE:BURST` or `off`.',
    doc: ['docs/app.md', 'Fair limits'],
  },
  CONNECTIONS_PER_CLIENT: {
    group: 'Fair limits',
    default: code(DEFAULT_CONNECTIONS_PER_CLIENT),
    meaning: 'Open HTTP connections per client address, or `off`.',
    doc: ['docs/app.md', 'Fair limits'],
  },
  STREAM_PER_CLIENT: {
    group: 'Fair limits',
    default: code(DEFAULT_STREAM_PER_CLIENT),
    meaning: '`/api/stream` sockets per client address.',
    doc: ['docs/app.md', 'Fair limits'],
  },
  RPC_MAX_BATCH: {
    group: 'Fair limits',
    default: code(DEFAULT_RPC_LIMITS.maxBatch),
    meaning: 'Calls per request to the chain proxy.',
    doc: ['docs/app.md', 'Fair limits'],
  },
  RATE_LIMIT_RPC: {
    group: 'Fair limits',
    default: bucketText(DEFAULT_RPC_LIMITS.calls),
    meaning: "The chain proxy's per-client budget of calls, `RATE:BURST` or `off`.",
    doc: ['docs/app.md', 'Fair limits'],
  },
  RATE_LIMIT_RPC_HEAVY: {
    group: 'Fair limits',
    default: bucketText(DEFAULT_RPC_LIMITS.heavy),
    meaning: "The chain proxy's per-client budget of expensive calls, `RATE:BURST` or `off`.",
    doc: ['docs/app.md', 'Fair limits'],
  },
  FAUCET: {
    group: 'Fair limits',
    default: '`on` with the embedded chain and demo agents, else `off`',
    meaning: "`on` or `off`: the faucet of the embedded chain's SOL and demo USDC; refused on a cluster.",
    doc: ['docs/app.md', 'Fair limits'],
  },
  FAUCET_PER_HOUR: {
    group: 'Fair limits',
    default: code(DEFAULT_FAUCET_LIMITS.perClientPerHour),
    meaning: 'Faucet drops per client address an hour.',
    doc: ['docs/app.md', 'Fair limits'],
  },
  FAUCET_WALLET_PER_HOUR: {
    group: 'Fair limits',
    default: code(DEFAULT_FAUCET_LIMITS.perWalletPerHour),
    meaning: 'Faucet drops per receiving wallet an hour.',
    doc: ['docs/app.md', 'Fair limits'],
  },
  ALERT_MAX_AGENTS: {
    group: 'Alerts',
    default: code(DEFAULT_ALERTS_CONFIG.caps.agents),
    meaning: 'Watched agents, and as many conversations, per watchlist.',
    doc: ['docs/app.md', 'Alerts and watchlists'],
  },
  ALERT_MAX_RULES: {
    group: 'Alerts',
    default: code(DEFAULT_ALERTS_CONFIG.caps.rules),
    meaning: 'Enabled rules per watchlist.',
    doc: ['docs/app.md', 'Alerts and watchlists'],
  },
  ALERT_DELIVERIES_PER_HOUR: {
    group: 'Alerts',
    default: code(DEFAULT_ALERTS_CONFIG.caps.deliveriesPerHour),
    meaning: 'Webhook deliveries per watchlist an hour.',
    doc: ['docs/app.md', 'Delivery'],
  },
  ALERT_RULE_PER_HOUR: {
    group: 'Alerts',
    default: code(DEFAULT_ALERTS_CONFIG.ruleAlertsPerHour),
    meaning: 'Alerts of one rule of one watchlist an hour, then throttled.',
    doc: ['docs/app.md', 'Alerts and watchlists'],
  },
  ALERT_WEBHOOK_ALLOW_PRIVATE: {
    group: 'Alerts',
    default: '`0`',
    meaning: '`1` lets webhooks reach loopback and private addresses.',
    doc: ['docs/app.md', 'Delivery'],
  },
  ALERT_WEBHOOKS: {
    group: 'Alerts',
    default: 'none',
    meaning:
      "The deployment's own webhooks, watching every agent: a list " +
      'of URLs, or JSON `[{url, format, secret?, agents, rules?}]`.',
    doc: ['docs/app.md', 'Delivery'],
  },
  ALERT_EVAL_MS: {
    group: 'Alerts',
    default: code(DEFAULT_ALERTS_CONFIG.tickMs),
    meaning: 'How often alert conditions are evaluated, in ms.',
    doc: ['docs/app.md', 'Alerts and watchlists'],
  },
  ALERT_RETRY_BASE_MS: {
    group: 'Alerts',
    default: code(DEFAULT_ALERTS_CONFIG.retryBaseMs),
    meaning: 'The first webhook retry delay in ms, doubling, 8 attempts.',
    doc: ['docs/app.md', 'Delivery'],
  },
  DEMO_AGENTS: {
    group: 'Demo and disputes',
    default: code(DEFAULT_DEMO_AGENTS),
    meaning: 'Demo agents beside the observer, each its own libp2p node and process; `0` disables the demo mesh.',
    doc: ['docs/app.md', 'Demo on chain'],
  },
  DEMO_LEASE_PAUSE: {
    group: 'Demo and disputes',
    default: 'unset',
    meaning: "`<agent index>@<unix seconds>`: that demo agent pays no lease until then (the alerts' demo and e2e).",
    doc: ['docs/app.md', 'Demo on chain'],
  },
  DISPUTE_REVIEWERS: {
    group: 'Demo and disputes',
    default: 'none',
    meaning:
      'Base58 wallet addresses, comma-separated, whose signed opinions count ' +
      "on the dispute desk; everyone else's are kept and shown as not counted.",
    doc: ['docs/app.md', 'Dispute desk'],
  },
};

type Env = Record<string, string | undefined>;

function parse<K extends keyof typeof fields>(env: Env, key: K): z.output<(typeof fields)[K]> | undefined {
  const raw = env[key];
  if (raw === undefined || raw.trim() === '') return undefined;
  const r = fields[key].safeParse(raw);
  if (!r.success) {
    const msg = r.error.issues.map((i) => (i.path.length ? `item ${i.path.join('.')}: ` : '') + i.message).join('; ');
    throw new ConfigError(key, `${msg} (got ${JSON.stringify(raw)})`);
  }
  return r.data as z.output<(typeof fields)[K]>;
}

/**
 * Reads and checks the configuration from `env` (normally `process.env`). Throws
 * {@link ConfigError} naming the first bad variable. With demo agents and no EPOCH_SECONDS,
 * epochs last {@link DEMO_EPOCH_SECONDS}.
 */
export function loadConfig(env: Env = process.env): ServerConfig {
  if (env === null || typeof env !== 'object') throw new TypeError('env must be an object');
  const demoAgents = parse(env, 'DEMO_AGENTS') ?? DEFAULT_DEMO_AGENTS;
  const host = parse(env, 'HOST');
  const cluster = clusterOf(env);
  const solanaRpcUrl =
    parse(env, 'SOLANA_RPC_URL') ??
    (cluster.name === 'mainnet' || cluster.name === 'devnet' ? CLUSTERS[cluster.name].rpcUrl : undefined);
  return {
    databaseUrl: parse(env, 'DATABASE_URL'),
    dataDir: parse(env, 'DATA_DIR') ?? DEFAULT_DATA_DIR,
    port: parse(env, 'PORT') ?? DEFAULT_PORT,
    listen: parse(env, 'OBSERVER_LISTEN') ?? [...DEFAULT_OBSERVER_LISTEN],
    bootstrap: [...new Set([...cluster.bootstrap, ...(parse(env, 'BOOTSTRAP') ?? [])])],
    relayReservations: parse(env, 'RELAY_RESERVATIONS') ?? DEFAULT_RELAY_RESERVATIONS,
    libp2pMetrics: (parse(env, 'LIBP2P_METRICS') ?? 'off') === 'on',
    demoAgents,
    epochSeconds: parse(env, 'EPOCH_SECONDS') ?? (demoAgents > 0 ? DEMO_EPOCH_SECONDS : DEFAULT_EPOCH_SECONDS),
    verifyWorkers: parse(env, 'VERIFY_WORKERS'),
    ingestBuffer: ingestBuffer(env),
    solanaRpcUrl,
    solanaWsUrl: parse(env, 'SOLANA_WS_URL'),
    host: host?.replace(/^\[(.*)\]$/, '$1'),
    nodeEnv: parse(env, 'NODE_ENV') ?? 'development',
    logLevel: parse(env, 'LOG_LEVEL') ?? 'info',
    chain: (parse(env, 'CHAIN') ?? 'on') === 'on',
    chainPort: parse(env, 'CHAIN_PORT') ?? DEFAULT_CHAIN_PORT,
    rateLimits: rateLimits(env),
    heavy: heavyLimits(env),
    satiRegisterUrl: parse(env, 'SATI_REGISTER_URL'),
    photonUrl: parse(env, 'PHOTON_URL'),
    publicRpcUrl: parse(env, 'PUBLIC_RPC_URL'),
    discoveryAllowPrivate: parse(env, 'DISCOVERY_ALLOW_PRIVATE') === '1',
    connectionsPerClient: connectionsPerClient(env),
    streamPerClient: parse(env, 'STREAM_PER_CLIENT') ?? DEFAULT_STREAM_PER_CLIENT,
    rpcLimits: rpcLimits(env),
    faucet: faucet(env, demoAgents, cluster),
    cluster,
    alerts: alertsConfig(env),
    disputeReviewers: parse(env, 'DISPUTE_REVIEWERS') ?? [],
    demoLeasePause: parse(env, 'DEMO_LEASE_PAUSE'),
  };
}

function alertsConfig(env: Env): AlertsConfig {
  const d = DEFAULT_ALERTS_CONFIG;
  return {
    caps: {
      ...d.caps,
      agents: parse(env, 'ALERT_MAX_AGENTS') ?? d.caps.agents,
      rules: parse(env, 'ALERT_MAX_RULES') ?? d.caps.rules,
      deliveriesPerHour: parse(env, 'ALERT_DELIVERIES_PER_HOUR') ?? d.caps.deliveriesPerHour,
    },
    ruleAlertsPerHour: parse(env, 'ALERT_RULE_PER_HOUR') ?? d.ruleAlertsPerHour,
    allowPrivateWebhooks: parse(env, 'ALERT_WEBHOOK_ALLOW_PRIVATE') === '1',
    envWebhooks: parse(env, 'ALERT_WEBHOOKS') ?? [],
    tickMs: parse(env, 'ALERT_EVAL_MS') ?? d.tickMs,
    retryBaseMs: parse(env, 'ALERT_RETRY_BASE_MS') ?? d.retryBaseMs,
    publicUrl: parse(env, 'PUBLIC_URL') ?? `http://localhost:${parse(env, 'PORT') ?? DEFAULT_PORT}`,
  };
}

/** The public cluster a JSON-RPC URL's host names, when it names one. */
function presetOfUrl(rpcUrl: string): 'mainnet' | 'devnet' | null {
  const host = new URL(rpcUrl).hostname;
  return /(^|[.-])devnet([.-]|$)/.test(host) ? 'devnet' : /(^|[.-])mainnet([.-]|$)/.test(host) ? 'mainnet' : null;
}

/**
 * Resolves the cluster row (lib/chain/cluster.ts). Neither CLUSTER nor SOLANA_RPC_URL: the
 * embedded chain. SOLANA_RPC_URL alone: the public cluster its host names, else CLUSTER is
 * required. `custom` has no row: SOLANA_RPC_URL, every SATI address and USDC_MINT must be set.
 * On a named cluster each address variable overrides its entry; on the embedded chain they are
 * refused (our own registry answers at SATI's id there).
 */
function clusterOf(env: Env): ClusterConfig {
  const rpc = parse(env, 'SOLANA_RPC_URL');
  const name = parse(env, 'CLUSTER') ?? (rpc === undefined ? null : presetOfUrl(rpc));
  const satiKeys = Object.keys(SATI_VARIABLES) as Array<keyof SatiAddresses>;
  if (name === null) {
    if (rpc !== undefined)
      throw new ConfigError(
        'CLUSTER',
        `SOLANA_RPC_URL (${rpc}) names neither mainnet nor devnet: set CLUSTER=mainnet, devnet or custom`,
      );
    for (const v of [...satiKeys.map((k) => SATI_VARIABLES[k]), 'USDC_MINT'] as const) {
      if (parse(env, v) !== undefined)
        throw new ConfigError(
          v,
          'applies to a cluster (CLUSTER or SOLANA_RPC_URL); the embedded ' +
            "chain runs its own registry at SATI's id and its own USDC mint",
        );
    }
    return EMBEDDED_CLUSTER;
  }
  if (name === 'custom') {
    if (rpc === undefined)
      throw new ConfigError(
        'SOLANA_RPC_URL',
        'is required with CLUSTER=custom (the JSON-RPC endpoint of that cluster)',
      );
    const need = (v: keyof typeof fields & string): PublicKey => {
      const k = parse(env, v as 'USDC_MINT');
      if (k === undefined) throw new ConfigError(v, 'is required with CLUSTER=custom (a base58 address)');
      return k;
    };
    const sati = Object.fromEntries(
      satiKeys.map((k) => [
        k,
        SATI_REQUIRED.includes(k) ? need(SATI_VARIABLES[k]) : (parse(env, SATI_VARIABLES[k]) ?? SATI_MAINNET[k]),
      ]),
    ) as unknown as SatiAddresses;
    return Object.freeze({
      name,
      sati: Object.freeze(sati),
      programs: EMBEDDED_CLUSTER.programs,
      usdcMint: need('USDC_MINT'),
      bootstrap: Object.freeze([]),
    });
  }
  const row = CLUSTERS[name];
  const sati = Object.fromEntries(
    satiKeys.map((k) => [k, parse(env, SATI_VARIABLES[k]) ?? row.sati[k]]),
  ) as unknown as SatiAddresses;
  return Object.freeze({
    name,
    sati: Object.freeze(sati),
    programs: row.programs,
    usdcMint: parse(env, 'USDC_MINT') ?? row.usdcMint,
    bootstrap: row.bootstrap,
  });
}

function connectionsPerClient(env: Env): number | null {
  const v = parse(env, 'CONNECTIONS_PER_CLIENT');
  return v === undefined ? DEFAULT_CONNECTIONS_PER_CLIENT : v === 'off' ? null : v;
}

function rpcLimits(env: Env): RpcLimits {
  const calls = parse(env, 'RATE_LIMIT_RPC');
  const heavy = parse(env, 'RATE_LIMIT_RPC_HEAVY');
  return {
    ...DEFAULT_RPC_LIMITS,
    maxBatch: parse(env, 'RPC_MAX_BATCH') ?? DEFAULT_RPC_LIMITS.maxBatch,
    calls: calls === undefined ? DEFAULT_RPC_LIMITS.calls : calls,
    heavy: heavy === undefined ? DEFAULT_RPC_LIMITS.heavy : heavy,
  };
}

/**
 * The faucet hands out the embedded chain's SOL and mints demo USDC: on by default only where
 * that is the point (the embedded chain with demo agents); FAUCET=on turns it on without demo
 * agents, and is refused where there is no embedded chain.
 */
function faucet(env: Env, demoAgents: number, cluster: ClusterConfig): FaucetLimits | null {
  const setting = parse(env, 'FAUCET');
  const embedded = cluster.name === 'embedded' && (parse(env, 'CHAIN') ?? 'on') === 'on';
  if (setting === 'on' && !embedded)
    throw new ConfigError(
      'FAUCET',
      `on needs the embedded chain, and ` +
        (cluster.name !== 'embedded'
          ? `${parse(env, 'CLUSTER') ? 'CLUSTER' : 'SOLANA_RPC_URL'} names a cluster`
          : 'CHAIN=off runs none') +
        ` ` +
        `(got "on")`,
    );
  const on = setting === undefined ? embedded && demoAgents > 0 : setting === 'on';
  if (!on) return null;
  return {
    perClientPerHour: parse(env, 'FAUCET_PER_HOUR') ?? DEFAULT_FAUCET_LIMITS.perClientPerHour,
    perWalletPerHour: parse(env, 'FAUCET_WALLET_PER_HOUR') ?? DEFAULT_FAUCET_LIMITS.perWalletPerHour,
  };
}

function ingestBuffer(env: Env): ServerConfig['ingestBuffer'] {
  const maxEnvelopes = parse(env, 'INGEST_BUFFER_ENVELOPES');
  const mb = parse(env, 'INGEST_BUFFER_MB');
  if (maxEnvelopes === undefined && mb === undefined) return undefined;
  return {
    ...(maxEnvelopes !== undefined && { maxEnvelopes }),
    ...(mb !== undefined && { maxBytes: mb * 1024 * 1024 }),
  };
}

function heavyLimits(env: Env): HeavyLimits {
  const d = DEFAULT_HEAVY_LIMITS;
  const budget = parse(env, 'HEAVY_BUDGET');
  return {
    perClient: parse(env, 'HEAVY_PER_CLIENT') ?? d.perClient,
    queue: parse(env, 'HEAVY_QUEUE') ?? d.queue,
    waitMs: parse(env, 'HEAVY_WAIT_MS') ?? d.waitMs,
    budget: budget === undefined ? d.budget : budget,
  };
}

function rateLimits(env: Env): RateLimits {
  const out: RateLimits = {};
  for (const [cls, key] of [
    ['api', 'RATE_LIMIT_API'],
    ['export', 'RATE_LIMIT_EXPORT'],
    ['mcp', 'RATE_LIMIT_MCP'],
  ] as const) {
    const v = parse(env, key);
    if (v === undefined) out[cls] = DEFAULT_RATE_LIMITS[cls];
    else if (v !== null) out[cls] = v;
  }
  return out;
}
