/**
 * Observatory configuration from the environment (issue 3 "Config from env"), checked once at
 * start with zod; every error names the variable. Defaults: embedded PGlite in `.data/`,
 * PORT 3000, loopback TCP + WebSocket listeners, 8 demo agents, 86,400 s epochs
 * (0x01 spec §8, DEFAULT_EPOCH_SECONDS).
 */
import { z } from 'zod';
import { DEFAULT_EPOCH_SECONDS } from '../protocol/constants';
import { ConfigError } from './errors';

/** Default listen addresses of the observer node: TCP and WebSockets on loopback, ephemeral ports. */
export const DEFAULT_OBSERVER_LISTEN = ['/ip4/127.0.0.1/tcp/0', '/ip4/127.0.0.1/tcp/0/ws'] as const;
export const DEFAULT_PORT = 3000;
export const DEFAULT_DEMO_AGENTS = 8;
export const DEFAULT_DATA_DIR = '.data';

/** Checked configuration of one observatory process. */
export interface ObservatoryConfig {
  /** postgres://… ; undefined = embedded PGlite in `dataDir`. */
  databaseUrl?: string;
  dataDir: string;
  port: number;
  /** Multiaddrs the observer's libp2p node listens on. */
  listen: string[];
  /** Multiaddrs of peers to dial at start. */
  bootstrap: string[];
  /** Demo agents to run beside the observer; 0 disables the demo mesh. */
  demoAgents: number;
  epochSeconds: number;
  /** Worker threads checking live signatures; undefined = available cores − 1 (at least 1), 0 = none. */
  verifyWorkers?: number;
  solanaRpcUrl?: string;
  solanaWsUrl?: string;
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

const fields = {
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  DATA_DIR: z.string().trim().min(1),
  PORT: intIn(0, 65_535),
  OBSERVER_LISTEN: z.string().transform(list).pipe(z.array(multiaddr).min(1, 'needs at least one multiaddr')),
  BOOTSTRAP: z.string().transform(list).pipe(z.array(multiaddr)),
  DEMO_AGENTS: intIn(0, 64),
  EPOCH_SECONDS: intIn(1, 31_536_000),
  VERIFY_WORKERS: intIn(0, 64),
  SOLANA_RPC_URL: url(['http:', 'https:']),
  SOLANA_WS_URL: url(['ws:', 'wss:']),
} as const;

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
 * Reads and checks the observatory configuration from `env` (normally `process.env`).
 * Unset or empty variables take their defaults. Throws {@link ConfigError} naming the first
 * bad variable.
 */
export function loadConfig(env: Env = process.env): ObservatoryConfig {
  if (env === null || typeof env !== 'object') throw new TypeError('env must be an object');
  return {
    databaseUrl: parse(env, 'DATABASE_URL'),
    dataDir: parse(env, 'DATA_DIR') ?? DEFAULT_DATA_DIR,
    port: parse(env, 'PORT') ?? DEFAULT_PORT,
    listen: parse(env, 'OBSERVER_LISTEN') ?? [...DEFAULT_OBSERVER_LISTEN],
    bootstrap: parse(env, 'BOOTSTRAP') ?? [],
    demoAgents: parse(env, 'DEMO_AGENTS') ?? DEFAULT_DEMO_AGENTS,
    epochSeconds: parse(env, 'EPOCH_SECONDS') ?? DEFAULT_EPOCH_SECONDS,
    verifyWorkers: parse(env, 'VERIFY_WORKERS'),
    solanaRpcUrl: parse(env, 'SOLANA_RPC_URL'),
    solanaWsUrl: parse(env, 'SOLANA_WS_URL'),
  };
}
