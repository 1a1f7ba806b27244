/**
 * The services registry: how Next's route handlers and pages reach what the server process
 * started. Next bundles routes separately from the custom server (same process, different module
 * graphs), so the one slot lives on globalThis under a Symbol.for key, which every module copy
 * resolves to the same symbol. The server (server/runtime.ts) registers once it has started
 * everything and clears the slot on stop.
 *
 * Type-only imports: importing this from a route bundles no libp2p, Prisma, PGlite or litesvm.
 */
import 'server-only';
import type { AlertService } from '../../lib/alerts/service';
import type { ExplorerChain } from '../../lib/chain/explorer';
import type { ObservatoryConfig } from '../../lib/observer/config';
import type { Observatory } from '../../lib/observer/observatory';
import type { ExportSource } from '../../lib/store/export';
import type { LeaderStatus } from '../../lib/store/leader';
import type { RegistrationFile } from '../../lib/wire/chain-views';
import type { ReleaseStatusView } from '../../lib/wire/datasets';
import type { LimitsReport, MemoryReport } from '../../lib/wire/views';
import type { ChainReads, ReadStore } from './runtime';
import type { WalletServices } from './wallet-services';

/** Everything the web app uses from the running process. */
export interface Services {
  /** Live bus, health, uploads, the store the uploads go to. */
  readonly observatory: Observatory;
  /** The store's read queries. */
  readonly reads: ReadStore;
  /** Chain reads; absent when this process runs no chain. */
  readonly chain?: ChainReads;
  /** The browser wallet's chain config, faucet and challenge evidence; absent without a chain. */
  readonly wallet?: WalletServices;
  /** The chain Explorer links name (its cluster, and PUBLIC_RPC_URL or its own RPC URL); absent without a chain. */
  readonly explorer?: Omit<ExplorerChain, 'viewerHost'>;
  /** The checked configuration the process runs with. */
  readonly config: Readonly<ObservatoryConfig>;
  /** Dataset export and releases (docs/datasets.md); absent when the process offers none. */
  readonly datasets?: DatasetServices;
  /** The process's start-up timeline (phase, ms since process start) for /api/health. */
  readonly startup?: () => ReadonlyArray<{ phase: string; ms: number }>;
  /** The SATI registration file of one of this process's demo agents (hex id), or null. */
  readonly registrationFile?: (agentHex: string) => RegistrationFile | null;
  /** The HTTP server's limits and what they refused, for /api/health (set by server/main.ts). */
  readonly limits?: () => LimitsReport;
  /** The process's memory for /api/health (set by server/runtime.ts). */
  readonly memory?: () => Promise<MemoryReport>;
  /** Watchlists and alerts (lib/alerts); absent when this process evaluates none. */
  readonly alerts?: AlertService;
  /** Whether this process leads each run-once role (indexer, releases, alerts) or stands by. */
  readonly leaders?: () => LeaderStatus[];
  /** DISPUTE_REVIEWERS (base58): the reviewers whose opinions count on the dispute desk; absent or empty: none. */
  readonly disputeReviewers?: readonly string[];
}

/** What the datasets routes and page use: the store's export reads and the release folder. */
export interface DatasetServices {
  /** Export reads of the running store (lib/store/export/export.ts). */
  exportSource(): ExportSource;
  /** The release folder, `<DATA_DIR>/datasets`, written by server/datasets.ts. */
  readonly dir: string;
  /** The release scheduler's state (/api/health `datasets`); absent or undefined when no scheduler runs here. */
  releaseStatus?(): ReleaseStatusView | undefined;
}

const KEY = Symbol.for('zerox1.services');
type Holder = { [KEY]?: Services };

/**
 * Registers the running services, or clears them with `undefined`. Refuses to replace services
 * that are already registered: one process runs one observatory (clear first).
 */
export function registerServices(services: Services | undefined): void {
  const g = globalThis as Holder;
  if (services !== undefined) {
    if (!services.observatory || !services.reads || !services.config)
      throw new TypeError('services need observatory, reads and config');
    if (g[KEY] !== undefined && g[KEY] !== services)
      throw new Error('services are already registered in this process (register undefined first)');
  }
  g[KEY] = services;
}

/** The services of this process, or undefined before start and after stop. */
export function getServices(): Services | undefined {
  return (globalThis as Holder)[KEY];
}
