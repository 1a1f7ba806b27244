/**
 * The process's configuration (README.md "Configuration"): every environment variable the
 * observatory process reads goes through this one zod schema, checked once at start; a bad value
 * is refused with an error naming the variable. Unset or empty variables take their defaults.
 */
import { z } from 'zod';
import { DEFAULT_EPOCH_SECONDS } from '../lib/protocol/constants';
import { DEFAULT_DATA_DIR, DEFAULT_DEMO_AGENTS, DEFAULT_OBSERVER_LISTEN, DEFAULT_PORT, type ObservatoryConfig } from '../lib/observer/config';
import { LOG_LEVELS, type LogLevel } from './logger';
import { DEFAULT_RATE_LIMITS, type BucketSpec, type RateLimits } from './rate-limit';

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
  /** RATE_LIMIT_API / _EXPORT / _MCP: per-client token buckets (server/rate-limit.ts); a class set to `off` is absent. */
  rateLimits: RateLimits;
  /** SATI_REGISTER_URL: where the My agents page sends owners to register an identity on a real cluster. */
  satiRegisterUrl?: string;
}

/** An environment variable is malformed; the message starts with the variable's name. */
export class ConfigError extends Error {
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
    .refine((s) => {
      try {
        return protocols.includes(new URL(s).protocol);
      } catch {
        return false;
      }
    }, `must be a URL with scheme ${protocols.map((p) => p.replace(':', '')).join(' or ')}`);

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
  .transform((s): BucketSpec | null => (s === 'off' ? null : { perSecond: Number(s.split(':')[0]), burst: Number(s.split(':')[1]) }))
  .refine((b) => b === null || (b.perSecond > 0 && b.burst >= 1 && b.burst <= 1_000_000), 'RATE must be above 0 and BURST 1..1000000 (or off)');

const fields = {
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  DATA_DIR: z.string().trim().min(1),
  PORT: intIn(0, 65_535),
  OBSERVER_LISTEN: z.string().transform(list).pipe(z.array(multiaddr).min(1, 'needs at least one multiaddr')),
  BOOTSTRAP: z.string().transform(list).pipe(z.array(multiaddr)),
  DEMO_AGENTS: intIn(0, 64),
  EPOCH_SECONDS: intIn(1, 31_536_000),
  VERIFY_WORKERS: intIn(0, 64),
  INGEST_BUFFER_ENVELOPES: intIn(1_000, 100_000_000),
  INGEST_BUFFER_MB: intIn(1, 65_536),
  SOLANA_RPC_URL: url(['http:', 'https:']),
  SOLANA_WS_URL: url(['ws:', 'wss:']),
  HOST: z.string().trim().regex(/^(\[[0-9A-Fa-f:.]+\]|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*|[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?)$/, 'must be a host name or an IP address (e.g. 127.0.0.1, ::, localhost)'),
  NODE_ENV: oneOf(['production', 'development', 'test'] as const),
  LOG_LEVEL: oneOf(LOG_LEVELS),
  CHAIN: oneOf(['on', 'off'] as const),
  CHAIN_PORT: intIn(0, 65_534),
  RATE_LIMIT_API: bucket,
  RATE_LIMIT_EXPORT: bucket,
  RATE_LIMIT_MCP: bucket,
  SATI_REGISTER_URL: url(['http:', 'https:']),
} as const;

/** The variables {@link loadConfig} reads. */
export const CONFIG_VARIABLES = Object.keys(fields) as Array<keyof typeof fields>;

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
  return {
    databaseUrl: parse(env, 'DATABASE_URL'),
    dataDir: parse(env, 'DATA_DIR') ?? DEFAULT_DATA_DIR,
    port: parse(env, 'PORT') ?? DEFAULT_PORT,
    listen: parse(env, 'OBSERVER_LISTEN') ?? [...DEFAULT_OBSERVER_LISTEN],
    bootstrap: parse(env, 'BOOTSTRAP') ?? [],
    demoAgents,
    epochSeconds: parse(env, 'EPOCH_SECONDS') ?? (demoAgents > 0 ? DEMO_EPOCH_SECONDS : DEFAULT_EPOCH_SECONDS),
    verifyWorkers: parse(env, 'VERIFY_WORKERS'),
    ingestBuffer: ingestBuffer(env),
    solanaRpcUrl: parse(env, 'SOLANA_RPC_URL'),
    solanaWsUrl: parse(env, 'SOLANA_WS_URL'),
    host: host?.replace(/^\[(.*)\]$/, '$1'),
    nodeEnv: parse(env, 'NODE_ENV') ?? 'development',
    logLevel: parse(env, 'LOG_LEVEL') ?? 'info',
    chain: (parse(env, 'CHAIN') ?? 'on') === 'on',
    chainPort: parse(env, 'CHAIN_PORT') ?? DEFAULT_CHAIN_PORT,
    rateLimits: rateLimits(env),
    satiRegisterUrl: parse(env, 'SATI_REGISTER_URL'),
  };
}

function ingestBuffer(env: Env): ServerConfig['ingestBuffer'] {
  const maxEnvelopes = parse(env, 'INGEST_BUFFER_ENVELOPES');
  const mb = parse(env, 'INGEST_BUFFER_MB');
  if (maxEnvelopes === undefined && mb === undefined) return undefined;
  return { ...(maxEnvelopes !== undefined && { maxEnvelopes }), ...(mb !== undefined && { maxBytes: mb * 1024 * 1024 }) };
}

function rateLimits(env: Env): RateLimits {
  const out: RateLimits = {};
  for (const [cls, key] of [['api', 'RATE_LIMIT_API'], ['export', 'RATE_LIMIT_EXPORT'], ['mcp', 'RATE_LIMIT_MCP']] as const) {
    const v = parse(env, key);
    if (v === undefined) out[cls] = DEFAULT_RATE_LIMITS[cls];
    else if (v !== null) out[cls] = v;
  }
  return out;
}
