/**
 * Dataset releases (docs/datasets.md "Releases"): when an epoch is over, one immutable Parquet
 * snapshot per table of that epoch, `<dir>/<table>/epoch-<n>/<table>-epoch<n>.parquet` (later
 * revisions under `revisions/`, the context file under `context/`, the newest of each epoch
 * copied into `latest/`, so a glob over one table's folder reads each row once), and a
 * manifest `<dir>/epoch=<n>.manifest.json` with each table's schema version, row count and file
 * sha256, the on-chain batch roots the epoch's envelopes are committed under (with each
 * batch's uploaded log, the envelope ids in log order), and the signer keys of every sender, so
 * `npm run verify-dataset` can recheck the release with nothing but the files.
 */
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  createWriteStream,
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { toHex } from '../protocol/hex';
import type { SignerRegistry } from '../protocol/types';
import type { ExportFilter, ExportReader, ExportSource } from '../store/export';
import { type CardRelease, cardMarkdown, citationCff, dataPackage } from './card';
import type { ReleaseChain } from './chain-evidence';
import { exportTable } from './export';
import { sourceAsOf } from './release-asof';
import { emptyHeld, knownMissingOf, signerEvidenceOf } from './release-chain';
import { type RevisionChanges, tableChanges } from './release-changes';
import {
  type AnchorStatement,
  anchorName,
  MANIFEST_VERSION,
  manifestFiles,
  parseManifestName,
  type ReleaseAnchorer,
  type ReleaseManifest,
  releaseNames,
} from './release-manifest';

/**
 * Rows per read while a release is made: releases run in the background of a serving process, and
 * each page is read and converted without a pause (PGlite answers a query synchronously), so a
 * small page keeps each stretch of work short; export.ts lets other work run between pages.
 */
export const RELEASE_PAGE_ROWS = 500;

import { envelopeRecord, envelopeRow } from './rows';
import { RELEASE_TABLE_NAMES, type ReleaseTableName, type Row } from './schema';
import { fileSha256, type SigningKey, signatureName, signManifest } from './signing';
import { CONTEXT_SCHEMA, TABLES } from './tables';
import { writeFormat } from './writers';
/**
 * Anchors the release `manifestFile` in `dir` unless its anchor record exists; the record is written after the anchor
 * confirmed.
 */
export async function anchorRelease(dir: string, manifestFile: string, anchor: ReleaseAnchorer): Promise<void> {
  const path = join(dir, anchorName(manifestFile));
  if (existsSync(path)) return;
  const m = JSON.parse(readFileSync(join(dir, manifestFile), 'utf8')) as ReleaseManifest;
  const a: AnchorStatement = {
    epoch: m.epoch,
    revision: m.revision ?? 0,
    id: fileSha256(join(dir, manifestFile)),
    asOfUs: m.asOfUs,
  };
  const tx = await anchor(a);
  writeSmallFile(dir, anchorName(manifestFile), JSON.stringify({ ...a, ...tx }, null, 2));
}

/** What createRelease needs of the store: its export reads and the signer registry. */
export interface ReleaseStore extends SignerRegistry {
  exportSource(reader?: ExportReader): ExportSource;
}

export interface CreateReleaseParams {
  store: ReleaseStore;
  epoch: number;
  dir: string;
  /** Signer keys for the manifest; default the store's own table (pass the chain registry on chain). */
  registry?: SignerRegistry;
  /** The instant the derived tables describe, unix µs (default: now). */
  asOfUs?: bigint;
  /** Signs the manifest (signing.ts); unsigned without. */
  signingKey?: SigningKey;
  /** Write revision `revision` of an epoch already released (default 0, the first release). */
  revision?: number;
  /** Mark the release final even with parts still moving (the settle time passed). */
  final?: boolean;
  /**
   * The chain (lib/chain/release-evidence.ts): signer evidence for every sender and the epoch's
   * accounts, so the manifest names what it does not hold. Without it the keys come from `registry`.
   */
  chain?: ReleaseChain;
  /** Why this revision is written (the manifest's `changes.reasons`). */
  reasons?: string[];
  /** Anchors the release on chain once it is signed (lib/chain/node/release-anchor.ts). */
  anchor?: ReleaseAnchorer;
}

/**
 * Points `latest/` at this revision's files: each is linked (a copy where links fail) under a temp
 * name and renamed over the older revision's, so a reader of `latest/<table>/*.parquet` gets every
 * epoch's newest revision, each row once. The revision's own files stay where its manifest names them.
 */
function updateLatest(
  dir: string,
  names: ReturnType<typeof releaseNames>,
  files: { name: string; file: string }[],
): void {
  for (const f of files) {
    const to = join(dir, names.latest(f.name));
    mkdirSync(dirname(to), { recursive: true });
    const tmp = `${to}.tmp-${process.pid}`;
    rmSync(tmp, { force: true });
    try {
      linkSync(join(dir, f.file), tmp);
    } catch {
      copyFileSync(join(dir, f.file), tmp);
    }
    renameSync(tmp, to);
  }
}

/**
 * Writes a release of `epoch` once: revision 0 the first time, `p.revision` for a later one. An
 * existing manifest means that release exists: it is returned unchanged (releases are
 * immutable). Files are written under a temp name and renamed; the manifest is written last (and
 * signed after), so a crash leaves no manifest and the next run starts over.
 */
export async function createRelease(p: CreateReleaseParams): Promise<ReleaseManifest> {
  const revision = p.revision ?? 0;
  const names = releaseNames(p.epoch, revision);
  const mPath = join(p.dir, names.manifest);
  if (existsSync(mPath)) {
    // Written before, perhaps not anchored yet (the chain was unreachable): anchor it now.
    if (p.anchor) await anchorRelease(p.dir, names.manifest, p.anchor);
    return JSON.parse(readFileSync(mPath, 'utf8')) as ReleaseManifest;
  }
  let supersedes: string | null = null;
  let prevManifest: ReleaseManifest | null = null;
  if (revision > 0) {
    const prev = manifestFiles(p.dir)
      .get(p.epoch)
      ?.filter((n) => parseManifestName(n)!.revision < revision)
      .pop();
    if (!prev) throw new Error(`revision ${revision} of epoch ${p.epoch}: no earlier release to supersede`);
    supersedes = fileSha256(join(p.dir, prev));
    prevManifest = JSON.parse(readFileSync(join(p.dir, prev), 'utf8')) as ReleaseManifest;
  }
  const store = p.store.exportSource('release');
  const e = BigInt(store.epochSeconds) * 1_000_000n;
  const epochFilter = { fromUs: BigInt(p.epoch) * e, toUs: BigInt(p.epoch + 1) * e };
  // One instant for every derived row, recorded so a verifier re-derives the same outcomes.
  const asOfUs = p.asOfUs ?? BigInt(Date.now()) * 1000n;
  const tables = {} as ReleaseManifest['tables'];
  const senders = new Set<string>();
  const openNegotiations: string[] = [];
  const pendingChallenges: string[] = [];
  const held = emptyHeld();
  mkdirSync(p.dir, { recursive: true });
  // One state of the store for the whole release, though envelopes, logs and verdicts keep
  // arriving while it is written (a verifier re-derives every table from the others). First the
  // state tables: batches (with their uploaded logs, read after the rows), challenges and
  // reconciliation. Then the chain's slot: everything they hold is at or before it, and the
  // negotiations' on-chain columns are the chain's at that slot (release-asof.ts), however late the
  // indexer. Then the envelopes' snapshot (`maxSeq`), taken after the logs, so every envelope a log
  // names (stored before its log) is in it: every envelope read below (the envelopes, offers,
  // negotiations, feedback and disputes tables, the context file, the signers) is of that one
  // snapshot, and what arrives later is the next revision's (release-late.ts).
  let source = store;
  let chainSlot: bigint | null = null;
  const batches: ReleaseManifest['batches'] = [];
  const writeTable = async (table: ReleaseTableName, filter: ExportFilter) => {
    const rel = names.table(table);
    let rows = 0;
    let setAside = 0;
    const reasons: string[] = [];
    const out = await exportTable({
      source,
      table,
      format: 'parquet',
      filter,
      nowUs: asOfUs,
      pageSize: RELEASE_PAGE_ROWS,
      onRows: (n) => {
        rows = n;
      },
      onSetAside: (why) => {
        setAside++;
        if (reasons.length < 5) reasons.push(why);
      },
      // What is still moving, which on-chain accounts the release holds, and the manifest's batches, read off the rows
      // as they are written.
      onRow:
        table === 'negotiations'
          ? (r) => {
              const c = toHex(r.conversation_id as Uint8Array);
              held.conversations.add(c);
              if (r.onchain_address) held.negotiationAccounts.add(String(r.onchain_address));
              if (r.outcome === 'open') openNegotiations.push(c);
            }
          : table === 'challenges'
            ? (r) => {
                held.challenges.add(String(r.address));
                if (r.status === 'pending') pendingChallenges.push(String(r.address));
              }
            : table === 'batches'
              ? (r) => {
                  batches.push({
                    agent: toHex(r.agent_id as Uint8Array),
                    root: toHex(r.log_merkle_root as Uint8Array),
                    batchHash: toHex(r.batch_hash as Uint8Array),
                    slot: String(r.slot),
                    status: String(r.status),
                    log: [],
                  });
                  held.batchAgents.add(toHex(r.agent_id as Uint8Array));
                }
              : undefined,
    });
    const sha256 = await writeReleaseFile(p.dir, rel, out.bytes);
    tables[table] = {
      schemaVersion: out.schema.version,
      rows: rows - setAside,
      setAside,
      ...(setAside ? { setAsideReasons: reasons } : {}),
      file: rel,
      sha256,
    };
  };
  const STATE: readonly ReleaseTableName[] = ['batches', 'challenges', 'reconciliation'];
  for (const table of STATE) await writeTable(table, epochFilter);
  for (const b of batches) b.log = (await source.epochLogIds(Buffer.from(b.agent, 'hex'), BigInt(p.epoch))).map(toHex);
  if (p.chain?.slot) {
    chainSlot = BigInt(await p.chain.slot());
    if (p.chain.haggleEvents) source = sourceAsOf(store, { haggleEvents: p.chain.haggleEvents }, chainSlot);
  }
  const filter: ExportFilter = { ...epochFilter, maxSeq: await store.seqWatermark() };
  for (const table of RELEASE_TABLE_NAMES.filter((t) => !STATE.includes(t))) await writeTable(table, filter);
  // Context: the epoch's negotiations' envelopes dated outside it, as envelope rows.
  let contextRows = 0;
  async function* outside(): AsyncIterable<Row[]> {
    for await (const page of source.scan('conversations', filter, { pageSize: RELEASE_PAGE_ROWS })) {
      const rows = page
        .filter((r) => {
          const t = envelopeRecord(r).timestamp;
          return t < epochFilter.fromUs || t >= epochFilter.toUs;
        })
        .map(envelopeRow);
      contextRows += rows.length;
      if (rows.length) yield rows;
    }
  }
  const contextSha = await writeReleaseFile(p.dir, names.context, writeFormat('parquet', CONTEXT_SCHEMA, outside()));
  // Signers: every sender of the epoch and of its context (decoded from the stored envelope bytes).
  for await (const page of source.scan('envelopes', filter, { pageSize: RELEASE_PAGE_ROWS }))
    for (const r of page) senders.add(toHex(envelopeRecord(r).sender));
  for await (const page of source.scan('conversations', filter, { pageSize: RELEASE_PAGE_ROWS }))
    for (const r of page) senders.add(toHex(envelopeRecord(r).sender));
  const signers = await signerEvidenceOf(senders, p.registry ?? p.store, p.chain);
  const listed = p.chain ? await knownMissingOf(p.chain, p.epoch, epochFilter.fromUs, epochFilter.toUs, held) : null;
  const iso = (us: bigint) => new Date(Number(us / 1000n)).toISOString();
  const moving = { pendingChallenges: pendingChallenges.sort(), openNegotiations: openNegotiations.sort() };
  const final = p.final === true || (moving.pendingChallenges.length === 0 && moving.openNegotiations.length === 0);
  // The card (card.ts): README and datapackage are listed in the manifest, so the signature covers them.
  const cardRelease: CardRelease = {
    epoch: p.epoch,
    revision,
    from: iso(epochFilter.fromUs),
    to: iso(epochFilter.toUs),
    asOf: iso(asOfUs),
    epochSeconds: source.epochSeconds,
    final,
    supersedes,
    moving,
    files: [
      ...RELEASE_TABLE_NAMES.map((t) => ({
        name: t,
        file: tables[t].file,
        rows: tables[t].rows,
        sha256: tables[t].sha256,
        bytes: statSync(join(p.dir, tables[t].file)).size,
        schema: TABLES[t],
      })),
      {
        name: 'context' as const,
        file: names.context,
        rows: contextRows,
        sha256: contextSha,
        bytes: statSync(join(p.dir, names.context)).size,
        schema: CONTEXT_SCHEMA,
      },
    ],
  };
  const card = {
    readme: { file: names.readme, sha256: writeSmallFile(p.dir, names.readme, cardMarkdown(cardRelease)) },
    datapackage: {
      file: names.datapackage,
      sha256: writeSmallFile(p.dir, names.datapackage, JSON.stringify(dataPackage(cardRelease), null, 2)),
    },
    citation: names.citation,
  };
  const files = (m: Pick<ReleaseManifest, 'tables' | 'context'>) => ({
    ...m.tables,
    ...(m.context ? { context: m.context } : {}),
  });
  const changes: RevisionChanges | null = prevManifest
    ? {
        since: supersedes,
        reasons: p.reasons ?? [],
        tables: await tableChanges(
          p.dir,
          files(prevManifest),
          files({ tables, context: { rows: contextRows, file: names.context, sha256: contextSha } }),
        ),
      }
    : null;
  const manifest: ReleaseManifest = {
    manifestVersion: MANIFEST_VERSION,
    epoch: p.epoch,
    epochSeconds: source.epochSeconds,
    revision,
    supersedes,
    from: iso(epochFilter.fromUs),
    to: iso(epochFilter.toUs),
    createdAt: new Date().toISOString(),
    asOfUs: asOfUs.toString(),
    asOf: iso(asOfUs),
    moving,
    final,
    context: { rows: contextRows, file: names.context, sha256: contextSha },
    card,
    tables: Object.fromEntries(RELEASE_TABLE_NAMES.map((t) => [t, tables[t]])) as ReleaseManifest['tables'],
    batches,
    signers,
    knownMissing: listed?.knownMissing ?? null,
    chainSlot: listed ? String(chainSlot ?? listed.chainSlot) : null,
    changes,
  };
  writeFileSync(`${mPath}.tmp`, JSON.stringify(manifest, null, 2));
  renameSync(`${mPath}.tmp`, mPath);
  if (p.signingKey) signManifest(p.dir, names.manifest, p.signingKey);
  // Only a revision newer than every release of the epoch moves `latest/` (revisions are written in order).
  if (manifestFiles(p.dir).get(p.epoch)?.at(-1) === names.manifest) {
    updateLatest(p.dir, names, [
      ...RELEASE_TABLE_NAMES.map((t) => ({ name: t, file: tables[t].file })),
      { name: 'context', file: names.context },
    ]);
  }
  // CITATION.cff names the release id (the manifest's sha256), so it is written after the manifest, outside it.
  writeSmallFile(p.dir, names.citation, citationCff(cardRelease, fileSha256(mPath), names.manifest));
  if (p.anchor) await anchorRelease(p.dir, names.manifest, p.anchor);
  return manifest;
}

/** Writes a small text file atomically (temp name, then rename) and returns its sha256. */
function writeSmallFile(dir: string, name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
  return createHash('sha256').update(text).digest('hex');
}

/**
 * Writes `chunks` to `<dir>/<rel>` under a temporary name, renamed once complete (a failed write
 * removes its temporary file), and returns the file's sha256.
 */
async function writeReleaseFile(dir: string, rel: string, chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const path = join(dir, rel);
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  const file = createWriteStream(tmp);
  const h = createHash('sha256');
  try {
    const done = new Promise<void>((r, j) => {
      file.once('error', j);
      file.once('finish', r);
    });
    done.catch(() => undefined); // awaited below; an early error must not go unhandled meanwhile
    for await (const chunk of chunks) {
      h.update(chunk);
      if (!file.write(chunk)) await Promise.race([new Promise<void>((r) => file.once('drain', () => r())), done]);
    }
    file.end();
    await done;
    renameSync(tmp, path);
  } catch (e) {
    file.destroy();
    rmSync(tmp, { force: true });
    throw e;
  }
  return h.digest('hex');
}

/** Removes every release of `epoch` (its files, manifests and signatures). */
export function removeRelease(dir: string, epoch: number): void {
  for (const t of RELEASE_TABLE_NAMES) {
    for (const d of [join(t, `epoch-${epoch}`), join('revisions', t, `epoch-${epoch}`)])
      rmSync(join(dir, d), { recursive: true, force: true });
  }
  for (const t of [...RELEASE_TABLE_NAMES, 'context'])
    rmSync(join(dir, releaseNames(epoch).latest(t)), { force: true });
  rmSync(join(dir, 'context', `epoch-${epoch}`), { recursive: true, force: true });
  for (const name of manifestFiles(dir).get(epoch) ?? []) {
    const base = name.replace(/\.manifest\.json$/, '');
    for (const f of [
      name,
      signatureName(name),
      anchorName(name),
      `${base}.README.md`,
      `${base}.datapackage.json`,
      `${base}.CITATION.cff`,
    ])
      rmSync(join(dir, f), { force: true });
  }
}
