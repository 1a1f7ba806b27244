/**
 * `openStore`: the observatory's database (docs/architecture.md "Embedded defaults").
 * Embedded PGlite in `.data/pglite` by default, a Postgres server for `postgres://…`; migrations
 * applied at start with Prisma's schema engine; repositories over raw SQL (hot paths) and the
 * generated Prisma client (registry, reputation).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SignerRegistry } from '../protocol/types';
import { type AlertsPort, alertsPort } from './alerts';
import { type ChainPort, chainPort } from './chain';
import { type CollusionPort, collusionPort } from './collusion';
import { type DisputesPort, disputesPort } from './disputes';
import { type EnginePort, enginePort } from './engine';
import { type Db, openPglite, openPostgres } from './engine/db';
import { StoreClosedError, StoreError } from './engine/errors';
import { dropImage, imageKey, loadImage, saveImage } from './engine/memory-image';
import { applyMigrations, PRISMA_DIR } from './engine/migrate';
import { partitionKeeper } from './engine/partitions';
import type { Live, PortContext } from './engine/port';
import { registerRaw } from './engine/raw';
import { type EnvelopesPort, envelopesPort } from './envelopes';
import { type ExportPort, exportPort } from './export';
import type { PrismaClient } from './generated/client';
import { type IdentityPort, identityPort } from './identity';
import { type LogsPort, logsPort } from './logs';
import { type MeshHealthPort, meshHealthPort } from './mesh-health';
import { type ReconciliationPort, reconciliationPort } from './reconciliation';
import { type ReputationPort, reputationPort } from './reputation';
import { STATS_FOLD_MS, type StatsPort, statsFolder, statsPort } from './stats';

export interface StoreLogger {
  info(msg: string): void;
  warn(msg: string): void;
}

export interface OpenStoreParams {
  /** `postgres://…` or `postgresql://…` for a server; unset or `pglite:<dir>` for embedded PGlite. */
  databaseUrl?: string;
  /** PGlite directory when no URL is given (default `.data/pglite`); `':memory:'` = in memory. */
  dataDir?: string;
  /** Epoch length for the envelope `epoch` column (default 86,400 s, EPOCH_SECONDS). */
  epochSeconds?: number;
  logger?: StoreLogger;
  /** pg pool size (default 8). */
  poolSize?: number;
  /**
   * Keep the stats rollups as envelopes are stored (default true). false exists to measure what
   * they cost (bench:query); the stats charts then miss what this store ingests.
   */
  statsRollups?: boolean;
  /**
   * Milliseconds after an ingest that stored envelopes before their stats are folded into the
   * rollups (default STATS_FOLD_MS; 0: only before a chart read, on close and when foldStats is called).
   */
  statsFoldMs?: number;
}

/**
 * The store: one flat object of every feature's port (lib/store/README.md "Features and ports").
 * Nothing here runs raw SQL for a caller: tests and benches reach the handle through
 * lib/store/testing.ts.
 */
export interface Store
  extends EnginePort,
    EnvelopesPort,
    StatsPort,
    ReputationPort,
    IdentityPort,
    ChainPort,
    LogsPort,
    ReconciliationPort,
    DisputesPort,
    MeshHealthPort,
    CollusionPort,
    ExportPort,
    AlertsPort {
  /** Folds the pending stats, then closes the connection; later calls reject with StoreClosedError. */
  close(): Promise<void>;
}

const GENERATED = fileURLToPath(new URL('./generated/client.ts', import.meta.url));

async function loadPrisma(): Promise<typeof import('./generated/client')> {
  if (!existsSync(GENERATED)) {
    // Fresh checkout without postinstall: generate once, offline (prisma/generate.mjs).
    const r = spawnSync(process.execPath, [join(PRISMA_DIR, 'generate.mjs')], { stdio: 'inherit' });
    if (r.status !== 0) throw new StoreError('generating the Prisma client failed (run `npm run db:generate`)');
  }
  return import('./generated/client');
}

function pickDatabase(p: OpenStoreParams): { kind: 'postgres'; url: string } | { kind: 'pglite'; dir?: string } {
  const url = p.databaseUrl?.trim();
  if (url) {
    if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
    if (url.startsWith('pglite:')) {
      const dir = url.slice('pglite:'.length);
      return { kind: 'pglite', dir: dir === ':memory:' || dir === '' ? undefined : resolve(dir) };
    }
    throw new TypeError('databaseUrl (DATABASE_URL) must start with postgres://, postgresql:// or pglite:');
  }
  const dir = p.dataDir ?? '.data/pglite';
  return { kind: 'pglite', dir: dir === ':memory:' ? undefined : resolve(dir) };
}

/** PGlite on disk, or in memory from the migrated empty image when one was taken (memory-image.ts). */
async function openMemoryOrFile(dir: string | undefined): Promise<Db> {
  if (dir) return openPglite(dir);
  const key = await imageKey();
  const image = await loadImage(key);
  if (!image) return openPglite(undefined);
  try {
    return await openPglite(undefined, { image });
  } catch {
    await dropImage(key);
    return openPglite(undefined);
  }
}

/**
 * Opens the store, applies pending migrations and returns its repositories.
 * Throws StoreError/MigrationError when the database is unreachable or migrations fail.
 */
export async function openStore(params: OpenStoreParams = {}): Promise<Store> {
  const epochSeconds = params.epochSeconds ?? 86_400;
  if (!Number.isInteger(epochSeconds) || epochSeconds < 1)
    throw new RangeError('epochSeconds must be a positive integer');
  const target = pickDatabase(params);
  const log = params.logger;
  const db: Db =
    target.kind === 'postgres' ? await openPostgres(target.url, params.poolSize) : await openMemoryOrFile(target.dir);
  let prisma: PrismaClient;
  const partitions = partitionKeeper(db, epochSeconds, { warn: (m) => log?.warn(m) });
  try {
    const m = await applyMigrations({ db, factory: db.adapter, log: (l) => log?.info(`schema-engine: ${l}`) });
    if (m.applied.length) log?.info(`store: applied migrations ${m.applied.join(', ')}`);
    // A fresh in-memory database, migrated and still empty: the image later in-memory opens load.
    if (target.kind === 'pglite' && !target.dir && m.applied.length && db.dumpImage)
      await saveImage(await imageKey(), await db.dumpImage());
    const { PrismaClient } = await loadPrisma();
    prisma = new PrismaClient({ adapter: db.adapter });
    await partitions.start();
  } catch (e) {
    await db.close().catch(() => undefined);
    throw e;
  }
  let closed = false;
  const isClosed = () => closed;
  const live: Live = (fn) => (closed ? Promise.reject(new StoreClosedError()) : fn());
  const ctx: PortContext = { db, prisma, live, epochSeconds };

  // Ingest leaves its stats in stats_pending; the folder brings them to the rollups (stats/folder.ts).
  const folder = statsFolder(db, {
    rollups: params.statsRollups !== false,
    foldMs: params.statsFoldMs ?? STATS_FOLD_MS,
    isClosed,
    log,
  });

  const store: Store = {
    ...enginePort(ctx, partitions, isClosed),
    ...envelopesPort(ctx, {
      beforeIngest: () => partitions.beforeIngest(),
      statsRollups: folder.rollups,
      stored: folder.stored,
    }),
    ...statsPort(ctx, folder),
    ...reputationPort(ctx),
    ...identityPort(ctx),
    ...chainPort(ctx),
    ...logsPort(ctx),
    ...reconciliationPort(ctx),
    ...disputesPort(ctx),
    ...meshHealthPort(ctx),
    ...collusionPort(ctx),
    ...exportPort(ctx),
    ...alertsPort(ctx),
    close: async () => {
      if (closed) return;
      await folder.flush();
      closed = true;
      await prisma.$disconnect().catch(() => undefined);
      await db.close();
    },
  };
  store satisfies SignerRegistry;
  registerRaw(store, { db, prisma, live });
  return store;
}
