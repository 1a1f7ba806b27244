/**
 * Dataset releases (docs/datasets.md "Releases"): when an epoch is over, one immutable Parquet
 * snapshot per table of that epoch, `<dir>/<table>/epoch=<n>/<table>-epoch<n>.parquet`, and a
 * manifest `<dir>/epoch=<n>.manifest.json` with each table's schema version, row count and file
 * sha256, the on-chain batch roots the epoch's envelopes are committed under (with each
 * batch's uploaded log, the envelope ids in log order), and the signer keys of every sender, so
 * `npm run verify-dataset` can recheck the release with nothing but the files.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SignerRegistry } from '../protocol/types';
import type { ExportSource } from '../store/export';
import { exportTable } from './export';
import { envelopeRecord } from './rows';
import { hex, TABLE_NAMES, type TableName } from './schema';

export const MANIFEST_VERSION = 1;

export interface ReleaseManifest {
  manifestVersion: number;
  epoch: number;
  epochSeconds: number;
  /** [from, to) of the epoch, ISO-8601 UTC. */
  from: string;
  to: string;
  createdAt: string;
  tables: Record<TableName, { schemaVersion: number; rows: number; file: string; sha256: string }>;
  batches: { agent: string; root: string; batchHash: string; slot: string; status: string; log: string[] }[];
  /** Sender agent id (hex) → signer public keys (hex). */
  signers: Record<string, string[]>;
}

/** What createRelease needs of the store: its export reads and the signer registry. */
export interface ReleaseStore extends SignerRegistry { exportSource(): ExportSource }

export interface CreateReleaseParams {
  store: ReleaseStore;
  epoch: number;
  dir: string;
  /** Signer keys for the manifest; default the store's own table (pass the chain registry on chain). */
  registry?: SignerRegistry;
}

const manifestPath = (dir: string, epoch: number) => join(dir, `epoch=${epoch}.manifest.json`);

async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  h.update(readFileSync(path));
  return h.digest('hex');
}

/**
 * Writes the release of `epoch` once. An existing manifest means the release exists: it is
 * returned unchanged (releases are immutable). Files are written under a temp name and renamed;
 * the manifest is written last, so a crash leaves no manifest and the next run starts over.
 */
export async function createRelease(p: CreateReleaseParams): Promise<ReleaseManifest> {
  const mPath = manifestPath(p.dir, p.epoch);
  if (existsSync(mPath)) return JSON.parse(readFileSync(mPath, 'utf8')) as ReleaseManifest;
  const source = p.store.exportSource();
  const e = BigInt(source.epochSeconds) * 1_000_000n;
  const filter = { fromUs: BigInt(p.epoch) * e, toUs: BigInt(p.epoch + 1) * e };
  const tables = {} as ReleaseManifest['tables'];
  const senders = new Set<string>();
  for (const table of TABLE_NAMES) {
    const rel = join(table, `epoch=${p.epoch}`, `${table}-epoch${p.epoch}.parquet`);
    const path = join(p.dir, rel);
    mkdirSync(join(p.dir, table, `epoch=${p.epoch}`), { recursive: true });
    let rows = 0;
    const out = await exportTable({ source, table, format: 'parquet', filter, onRows: (n) => { rows = n; } });
    const tmp = `${path}.tmp-${process.pid}`;
    const file = createWriteStream(tmp);
    for await (const chunk of out.bytes) if (!file.write(chunk)) await new Promise<void>((r) => file.once('drain', () => r()));
    await new Promise<void>((r, j) => file.end((err?: Error | null) => (err ? j(err) : r())));
    renameSync(tmp, path);
    tables[table] = { schemaVersion: out.schema.version, rows, file: rel, sha256: await sha256File(path) };
  }
  // Signers: every sender of the epoch (decoded from the stored envelope bytes).
  for await (const page of source.scan('envelopes', filter)) for (const r of page) senders.add(hex(envelopeRecord(r).sender));
  const registry = p.registry ?? p.store;
  const signers: Record<string, string[]> = {};
  for (const s of [...senders].sort()) signers[s] = (await registry.keysFor(Uint8Array.from(Buffer.from(s, 'hex')))).map(hex);
  const batches: ReleaseManifest['batches'] = [];
  for (const b of await source.batchRoots(BigInt(p.epoch))) {
    const agent = b.agent_id as Uint8Array;
    batches.push({ agent: hex(agent), root: hex(b.root as Uint8Array), batchHash: hex(b.batch_hash as Uint8Array), slot: String(b.slot), status: String(b.status),
      log: (await source.epochLogIds(agent, BigInt(p.epoch))).map(hex) });
  }
  const iso = (us: bigint) => new Date(Number(us / 1000n)).toISOString();
  const manifest: ReleaseManifest = {
    manifestVersion: MANIFEST_VERSION, epoch: p.epoch, epochSeconds: source.epochSeconds, from: iso(filter.fromUs), to: iso(filter.toUs),
    createdAt: new Date().toISOString(), tables, batches, signers,
  };
  writeFileSync(`${mPath}.tmp`, JSON.stringify(manifest, null, 2));
  renameSync(`${mPath}.tmp`, mPath);
  return manifest;
}

/** Summary of a release for GET /api/datasets. */
export interface ReleaseSummary {
  epoch: number; from: string; to: string; createdAt: string; batches: number;
  /** Paths relative to the release folder; GET /api/datasets/{path} serves them. */
  manifest: string;
  tables: Record<string, { rows: number; sha256: string; file: string }>;
}

/** Releases in `dir`, newest epoch first. */
export function listReleases(dir: string): ReleaseSummary[] {
  if (!existsSync(dir)) return [];
  const out: ReleaseSummary[] = [];
  for (const name of readdirSync(dir)) {
    if (!/^epoch=\d+\.manifest\.json$/.test(name)) continue;
    const m = JSON.parse(readFileSync(join(dir, name), 'utf8')) as ReleaseManifest;
    out.push({ epoch: m.epoch, from: m.from, to: m.to, createdAt: m.createdAt, batches: m.batches.length, manifest: name,
      tables: Object.fromEntries(Object.entries(m.tables).map(([k, v]) => [k, { rows: v.rows, sha256: v.sha256, file: v.file }])) });
  }
  return out.sort((a, b) => b.epoch - a.epoch);
}

export interface ReleaseScheduler {
  /** Stops the timer and waits for a release being written. */
  stop(): Promise<void>;
  /** Runs one check now (tests). */
  tick(): Promise<number[]>;
}

/**
 * Releases every finished epoch that has envelopes and no manifest yet. An epoch counts as
 * finished one whole epoch after it ends, so its batches (submitted after the boundary) and
 * uploaded logs are in. The server calls this once with its store; checks run a second after
 * start, then just after every epoch boundary, at least hourly (or every `everyMs`).
 */
export function startReleaseScheduler(p: {
  store: ReleaseStore; dir: string; registry?: SignerRegistry; everyMs?: number; now?: () => number;
  onError?: (e: unknown) => void; onRelease?: (m: ReleaseManifest) => void;
}): ReleaseScheduler {
  const source = p.store.exportSource();
  let running: Promise<number[]> | null = null;
  let stopped = false;
  const tick = () => (running ??= (async () => {
    const current = Math.floor((p.now?.() ?? Date.now()) / 1000 / source.epochSeconds);
    const made: number[] = [];
    for (const epoch of await source.epochs()) {
      if (epoch >= current - 1 || existsSync(manifestPath(p.dir, epoch))) continue;
      if (stopped) break;
      const m = await createRelease({ store: p.store, epoch, dir: p.dir, registry: p.registry });
      p.onRelease?.(m);
      made.push(epoch);
    }
    return made;
  })().finally(() => { running = null; }));
  const check = () => { tick().catch((e) => p.onError?.(e)); };
  // Checks run just after each epoch boundary (or every `everyMs`): finding the epochs with
  // envelopes scans the table, so once per epoch, not on a short timer. The first check, a
  // second after start, catches up on epochs that ended while the server was down.
  const epochMs = source.epochSeconds * 1000;
  // At least hourly: long epochs would overflow setTimeout's 2^31 ms.
  const next = () => p.everyMs ?? Math.min(epochMs - (Date.now() % epochMs) + 500, 3_600_000);
  let timer: NodeJS.Timeout;
  const schedule = (ms: number) => {
    timer = setTimeout(() => { check(); if (!stopped) schedule(next()); }, ms);
    timer.unref();
  };
  schedule(Math.min(next(), 1_000));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
    tick,
  };
}

/** Removes a half-written release of `epoch` (files without a manifest). */
export function removeRelease(dir: string, epoch: number): void {
  for (const t of TABLE_NAMES) rmSync(join(dir, t, `epoch=${epoch}`), { recursive: true, force: true });
  rmSync(manifestPath(dir, epoch), { force: true });
}
