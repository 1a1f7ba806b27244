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
  readdirSync,
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
import type { KnownMissing, ReleaseChain, SignerEvidence } from './chain-evidence';
import { exportTable, tableRows } from './export';
import { sourceAsOf } from './release-asof';
import { emptyHeld, knownMissingOf, signerEvidenceOf } from './release-chain';
import { type RevisionChanges, tableChanges } from './release-changes';
import { lateChanges } from './release-late';
import { envelopeRecord, envelopeRow } from './rows';
import { RELEASE_TABLE_NAMES, type ReleaseTableName, type Row } from './schema';
import { fileSha256, type SigningKey, signatureName, signManifest } from './signing';
import { CONTEXT_SCHEMA, TABLES } from './tables';
import { writeFormat } from './writers';

/**
 * 2: each table carries `setAside`. 3: `asOfUs` (the instant the derived tables describe) and
 * `context` (the out-of-epoch envelopes of the epoch's negotiations), so the derived tables can
 * be re-derived from the release's own envelopes; `revision`, `supersedes` and `moving` (final
 * states: later revisions of an epoch once its moving parts settle). 4: `signers` carries each
 * sender's evidence (chain-evidence.ts: the SATI owner and DelegateV1 attestations with their
 * windows and account bytes), `knownMissing` names the epoch's on-chain accounts the release does
 * not hold, and `supersedes` is a stated id: a revision verifies without the older ones' files.
 * 5: `changes` (what a revision changed and why, release-changes.ts); rows in a declared order
 * (verify-order.ts); each release anchored on chain (release-anchor.ts in lib/chain).
 */
export const MANIFEST_VERSION = 5;

export interface ReleaseManifest {
  manifestVersion: number;
  epoch: number;
  epochSeconds: number;
  /** 0 for an epoch's first release; each revision of the epoch counts up. */
  revision: number;
  /** The release id (manifest sha256) of the revision this one replaces; null for revision 0. */
  supersedes: string | null;
  /** [from, to) of the epoch, ISO-8601 UTC. */
  from: string;
  to: string;
  createdAt: string;
  /**
   * The instant the derived tables describe, unix µs in decimal: a negotiation with a deadline
   * before it is `expired`, after it `open` (negotiation.ts). Re-deriving needs it.
   */
  asOfUs: string;
  /** `asOfUs` as ISO-8601 UTC. */
  asOf: string;
  /**
   * What was still moving at `asOf`: challenges of the epoch not yet resolved (addresses) and
   * negotiations still open (conversation ids, hex). Empty lists: the epoch has settled, and
   * `final` is true (also when the scheduler's settle time passed with parts still moving).
   */
  moving: { pendingChallenges: string[]; openNegotiations: string[] };
  final: boolean;
  /**
   * Envelopes of the epoch's negotiations dated outside the epoch (a negotiation that crosses an
   * epoch boundary), in the envelopes table's columns: with the epoch's own envelopes they are
   * every message the offers and negotiations rows were computed from.
   */
  context: { rows: number; file: string; sha256: string };
  /**
   * The dataset card (card.ts): README.md and the Frictionless datapackage.json, hashed here so
   * the signature covers them; `citation` names the CITATION.cff written after the manifest (it
   * holds the release id, the manifest's own sha256).
   */
  card?: { readme: { file: string; sha256: string }; datapackage: { file: string; sha256: string }; citation: string };
  /**
   * `rows` are the rows in the file; `setAside` the epoch's rows left out because a value does not
   * fit its Parquet column (writers.ts parquetMisfit), `setAsideReasons` the first few reasons.
   */
  tables: Record<
    ReleaseTableName,
    { schemaVersion: number; rows: number; setAside: number; setAsideReasons?: string[]; file: string; sha256: string }
  >;
  batches: { agent: string; root: string; batchHash: string; slot: string; status: string; log: string[] }[];
  /**
   * Sender agent id (hex) → who may sign for it (chain-evidence.ts SignerEvidence; before version
   * 4 a plain list of the keys valid when the release was written).
   */
  signers: Record<string, SignerEvidence | string[]>;
  /**
   * The epoch's on-chain accounts (BehaviorLog batches, challenges, open Haggle negotiations)
   * the release does not hold, each with why; null when the release was written without the chain.
   */
  knownMissing?: KnownMissing[] | null;
  /**
   * The slot the chain's accounts were listed at (null without the chain): an account submitted
   * later (a challenge opened after the release) is one a later revision holds, not an omission.
   */
  chainSlot?: string | null;
  /**
   * What this revision changed against the one it supersedes (release-changes.ts): why it was
   * written and, per table, rows added, removed and changed; null for revision 0.
   */
  changes?: RevisionChanges | null;
}

/** What an anchor states (lib/chain/release-anchor.ts): the release id of an epoch's revision and its asOf. */
export interface AnchorStatement {
  epoch: number;
  revision: number;
  id: string;
  asOfUs: string;
}
/** Posts an anchor on chain (lib/chain/node/release-anchor.ts bound to the signing key); returns its transaction. */
export type ReleaseAnchorer = (a: AnchorStatement) => Promise<{ signature: string; slot: string }>;

/** `<manifest base>.anchor.json`: the anchor transaction of a release, written once it is confirmed. */
export const anchorName = (manifestFile: string) => manifestFile.replace(/\.manifest\.json$/, '.anchor.json');

/** Anchors the release `manifestFile` in `dir` unless its anchor record exists; the record is written after the anchor confirmed. */
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
 * File names of revision `revision` of `epoch`'s release, relative to the release folder. Folders
 * are `epoch-<n>`, never `key=value`: DuckDB and Arrow read `epoch=<n>` folders as a hive partition
 * and would add (or override) an `epoch` column. Revision 0 of a table sits in the table's own
 * folder and later revisions under `revisions/`, the context file under `context/`, so a glob over
 * every `.parquet` under `<table>/` reads each row once; `latest` is where the newest revision's copy goes.
 */
export function releaseNames(epoch: number, revision = 0) {
  const r = revision ? `.r${revision}` : '';
  return {
    manifest: `epoch=${epoch}${r}.manifest.json`,
    readme: `epoch=${epoch}${r}.README.md`,
    datapackage: `epoch=${epoch}${r}.datapackage.json`,
    citation: `epoch=${epoch}${r}.CITATION.cff`,
    table: (t: string) =>
      revision
        ? join('revisions', t, `epoch-${epoch}`, `${t}-epoch${epoch}${r}.parquet`)
        : join(t, `epoch-${epoch}`, `${t}-epoch${epoch}.parquet`),
    context: join('context', `epoch-${epoch}`, `context-epoch${epoch}${r}.parquet`),
    latest: (t: string) => join('latest', t, `${t}-epoch${epoch}.parquet`),
  };
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

/** A manifest file name's epoch and revision, or null when it is not one. */
export function parseManifestName(name: string): { epoch: number; revision: number } | null {
  const m = /^epoch=(0|[1-9]\d{0,9})(?:\.r([1-9]\d{0,3}))?\.manifest\.json$/.exec(name);
  return m ? { epoch: Number(m[1]), revision: m[2] ? Number(m[2]) : 0 } : null;
}

/** The manifests in `dir` by epoch, each epoch's revisions in order (oldest first). */
export function manifestFiles(dir: string): Map<number, string[]> {
  const out = new Map<number, { revision: number; name: string }[]>();
  if (!existsSync(dir)) return new Map();
  for (const name of readdirSync(dir)) {
    const m = parseManifestName(name);
    if (!m) continue;
    out.set(m.epoch, [...(out.get(m.epoch) ?? []), { revision: m.revision, name }]);
  }
  return new Map([...out].map(([e, l]) => [e, l.sort((a, b) => a.revision - b.revision).map((x) => x.name)]));
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
      // What is still moving, which on-chain accounts the release holds, and the manifest's batches, read off the rows as they are written.
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

/** One release file set as GET /api/datasets lists it. */
export interface ReleaseRevisionSummary {
  revision: number;
  /** The release id: sha256 of the manifest file. */
  id: string;
  supersedes: string | null;
  createdAt: string;
  asOf: string | null;
  final: boolean;
  moving: { pendingChallenges: number; openNegotiations: number };
  /** Paths relative to the release folder; GET /api/datasets/{path} serves them. */
  manifest: string;
  /** The detached signature (signing.ts), when the release is signed. */
  signature: string | null;
  /** The dataset card's files (card.ts): README.md, datapackage.json, CITATION.cff; null before manifest version 3's card. */
  card: { readme: string; datapackage: string; citation: string } | null;
  /** The context file (the epoch's negotiations' envelopes dated outside it): verifying needs it. */
  context: { rows: number; sha256: string; file: string } | null;
  /**
   * Every file of this revision a verifier needs, relative paths: manifest, signature, card,
   * tables and context. Downloading these and running verify-dataset checks the revision alone.
   */
  files: string[];
  tables: Record<string, { rows: number; sha256: string; file: string; setAside?: number }>;
}

/** Summary of an epoch's releases for GET /api/datasets: its latest revision, the older ones kept below it. */
export interface ReleaseSummary extends ReleaseRevisionSummary {
  epoch: number;
  from: string;
  to: string;
  batches: number;
  /** Every older revision of the epoch, newest first (superseded, still served). */
  older: ReleaseRevisionSummary[];
}

function revisionSummary(dir: string, name: string, m: ReleaseManifest): ReleaseRevisionSummary {
  const sig = signatureName(name);
  const signature = existsSync(join(dir, sig)) ? sig : null;
  const card = m.card
    ? { readme: m.card.readme.file, datapackage: m.card.datapackage.file, citation: m.card.citation }
    : null;
  const context = m.context ? { rows: m.context.rows, sha256: m.context.sha256, file: m.context.file } : null;
  return {
    revision: m.revision ?? 0,
    id: fileSha256(join(dir, name)),
    supersedes: m.supersedes ?? null,
    createdAt: m.createdAt,
    asOf: m.asOf ?? null,
    final: m.final ?? true,
    moving: {
      pendingChallenges: m.moving?.pendingChallenges.length ?? 0,
      openNegotiations: m.moving?.openNegotiations.length ?? 0,
    },
    manifest: name,
    signature,
    card,
    context,
    files: [
      name,
      ...(signature ? [signature] : []),
      ...(card ? [card.readme, card.datapackage, card.citation] : []),
      ...Object.values(m.tables).map((t) => t.file),
      ...(context ? [context.file] : []),
    ],
    tables: Object.fromEntries(
      Object.entries(m.tables).map(([k, v]) => [
        k,
        { rows: v.rows, sha256: v.sha256, file: v.file, ...(v.setAside ? { setAside: v.setAside } : {}) },
      ]),
    ),
  };
}

/** Releases in `dir`, newest epoch first: each epoch's latest revision, with the older ones it superseded. */
export function listReleases(dir: string): ReleaseSummary[] {
  const out: ReleaseSummary[] = [];
  for (const [epoch, names] of manifestFiles(dir)) {
    const revs = names.map((n) => ({ n, m: JSON.parse(readFileSync(join(dir, n), 'utf8')) as ReleaseManifest }));
    const last = revs[revs.length - 1];
    out.push({
      ...revisionSummary(dir, last.n, last.m),
      epoch,
      from: last.m.from,
      to: last.m.to,
      batches: last.m.batches.length,
      older: revs
        .slice(0, -1)
        .reverse()
        .map((r) => revisionSummary(dir, r.n, r.m)),
    });
  }
  return out.sort((a, b) => b.epoch - a.epoch);
}

export interface ReleaseScheduler {
  /** Stops the timer and waits for a release being written. */
  stop(): Promise<void>;
  /** Runs one check now (tests); returns the epochs released. */
  tick(): Promise<number[]>;
  /** What /api/health reports about releases. */
  status(): ReleaseStatus;
}

/** The release scheduler's state as /api/health reports it (docs/datasets.md "Releases"). */
export interface ReleaseStatus {
  /** The newest release this process wrote. */
  lastRelease: { epoch: number; at: string } | null;
  /** The latest failed attempt, with its error. */
  lastError: { epoch: number; at: string; error: string } | null;
  /** Failed attempts since the process started. */
  failures: number;
  /** Epochs whose release failed and waits for its next try, oldest first. */
  retrying: { epoch: number; attempts: number; nextTry: string }[];
  /** Rows left out of this process's releases because a value did not fit its column. */
  setAside: number;
  /** Epochs a release may be made for now: [first, last]; epochs with data outside are never released. */
  window: { first: number; last: number };
  /** The key every manifest is signed with (signing.ts), null when releases are unsigned. */
  signingKey: { publicKey: string; signer: string } | null;
}

/**
 * Epochs that began before this instant (2025-01-01T00:00:00Z, before the 0x01 mesh carried
 * traffic) are never released: a sender chooses its own timestamp, so an envelope dated 1970
 * says nothing about an epoch that happened.
 */
export const RELEASE_FLOOR_MS = Date.UTC(2025, 0, 1);
/**
 * The stated time after which an epoch's release is final whatever still moves: a week after the
 * epoch ends (a challenge window or a negotiation without a deadline may stay open for good).
 */
export const RELEASE_SETTLE_MS = 7 * 86_400_000;
/**
 * Rows per read while a release is made: releases run in the background of a serving process, and
 * each page is read and converted without a pause (PGlite answers a query synchronously), so a
 * small page keeps each stretch of work short; export.ts lets other work run between pages.
 */
export const RELEASE_PAGE_ROWS = 500;
/** Unsettled epochs looked at per check (each look re-derives the epoch's negotiations). */
export const REVISION_CHECKS_PER_TICK = 16;

/** What still moves in `epoch` at `asOfUs`: pending challenges and open negotiations (as a release would record them). */
export async function movingParts(
  source: ExportSource,
  epoch: number,
  asOfUs: bigint,
): Promise<ReleaseManifest['moving']> {
  const e = BigInt(source.epochSeconds) * 1_000_000n;
  const filter = { fromUs: BigInt(epoch) * e, toUs: BigInt(epoch + 1) * e };
  const pendingChallenges: string[] = [];
  const openNegotiations: string[] = [];
  for await (const page of tableRows({ source, table: 'challenges', filter, pageSize: RELEASE_PAGE_ROWS }))
    for (const r of page) if (r.status === 'pending') pendingChallenges.push(String(r.address));
  for await (const page of tableRows({
    source,
    table: 'negotiations',
    filter,
    nowUs: asOfUs,
    pageSize: RELEASE_PAGE_ROWS,
  }))
    for (const r of page) if (r.outcome === 'open') openNegotiations.push(toHex(r.conversation_id as Uint8Array));
  return { pendingChallenges: pendingChallenges.sort(), openNegotiations: openNegotiations.sort() };
}

/** Retry delays of a failed release: 5 s, doubling up to 15 minutes. */
export const RELEASE_RETRY_MS = 5_000;
export const RELEASE_RETRY_MAX_MS = 15 * 60_000;

/**
 * The epochs a release may be made for at `nowMs`: those that began at or after `floorMs` and
 * ended at least one whole epoch ago by the observer's clock (so their batches, submitted after
 * the boundary, and uploaded logs are in). A sender writes its own timestamp, so an epoch that
 * merely has an envelope (one dated 1970 lands in epoch 0, one at 2^64-1 µs in the last int4
 * epoch) is not a reason to release it. Old epochs inside the window are released however long
 * the observer was down, and so is a database another observer filled.
 */
export function releaseWindow(
  nowMs: number,
  epochSeconds: number,
  floorMs = RELEASE_FLOOR_MS,
): { first: number; last: number } {
  const epochMs = epochSeconds * 1000;
  const current = Math.floor(nowMs / epochMs);
  return { first: Math.max(0, Math.ceil(floorMs / epochMs)), last: current - 2 };
}

/**
 * Releases every finished epoch inside the release window (releaseWindow) that has envelopes and
 * no manifest yet. Checks run a second after start, then just after every epoch boundary, at
 * least hourly (or every `everyMs`). A release that fails is retried on its own with backoff
 * (RELEASE_RETRY_MS doubling to RELEASE_RETRY_MAX_MS) while the epochs after it go on being
 * released; every failure is counted and the latest one kept for /api/health (`status`).
 */
export function startReleaseScheduler(p: {
  store: ReleaseStore;
  dir: string;
  registry?: SignerRegistry;
  chain?: ReleaseChain;
  everyMs?: number;
  now?: () => number;
  floorMs?: number;
  retryMs?: number;
  retryMaxMs?: number;
  firstCheckMs?: number;
  /** Signs every manifest (signing.ts); its public key is reported in `status()`. */
  signingKey?: SigningKey;
  /** Anchors every release on chain once signed; a failed anchor is retried at the next check. */
  anchor?: ReleaseAnchorer;
  /** After the epoch's end plus this, its release is made final whatever still moves (default RELEASE_SETTLE_MS). */
  settleMs?: number;
  onError?: (e: unknown, epoch: number, attempts: number) => void;
  onRelease?: (m: ReleaseManifest) => void;
}): ReleaseScheduler {
  const source = p.store.exportSource('release');
  const now = () => p.now?.() ?? Date.now();
  const retryMs = p.retryMs ?? RELEASE_RETRY_MS;
  const retryMaxMs = p.retryMaxMs ?? RELEASE_RETRY_MAX_MS;
  const failing = new Map<number, { attempts: number; nextTry: number }>();
  const st = {
    lastRelease: null as ReleaseStatus['lastRelease'],
    lastError: null as ReleaseStatus['lastError'],
    failures: 0,
    setAside: 0,
  };
  let running: Promise<number[]> | null = null;
  let stopped = false;
  const window = () => releaseWindow(now(), source.epochSeconds, p.floorMs);
  const settleMs = p.settleMs ?? RELEASE_SETTLE_MS;
  const epochMs = source.epochSeconds * 1000;
  let reviseCursor = 0;
  let lateCursor = 0;
  const release =
    (epoch: number, o: { asOfUs: bigint; revision?: number; final?: boolean; reasons?: string[] }) => () =>
      createRelease({
        store: p.store,
        epoch,
        dir: p.dir,
        registry: p.registry,
        chain: p.chain,
        signingKey: p.signingKey,
        anchor: p.anchor,
        ...o,
      });
  /** Records a release (first or revision) or its failure. */
  const attempt = async (epoch: number, make: () => Promise<ReleaseManifest>, made: number[]) => {
    const f = failing.get(epoch);
    if (f && f.nextTry > now()) return;
    try {
      const m = await make();
      failing.delete(epoch);
      st.lastRelease = { epoch, at: new Date(now()).toISOString() };
      st.setAside += Object.values(m.tables).reduce((n, t) => n + (t.setAside ?? 0), 0);
      made.push(epoch);
      p.onRelease?.(m);
    } catch (e) {
      const attempts = (f?.attempts ?? 0) + 1;
      failing.set(epoch, { attempts, nextTry: now() + Math.min(retryMs * 2 ** (attempts - 1), retryMaxMs) });
      st.failures++;
      st.lastError = { epoch, at: new Date(now()).toISOString(), error: e instanceof Error ? e.message : String(e) };
      p.onError?.(e, epoch, attempts);
    }
  };
  const tick = () =>
    (running ??= (async () => {
      const w = window();
      const made: number[] = [];
      if (w.last < w.first) return made;
      const released = manifestFiles(p.dir);
      for (const epoch of await source.epochs(w.first, w.last)) {
        if (stopped) break;
        if (released.has(epoch)) continue;
        await attempt(epoch, release(epoch, { asOfUs: BigInt(now()) * 1000n }), made);
      }
      // Anchors that could not be posted when their release was written (in revision order).
      if (p.anchor) {
        for (const [epoch, names] of released) {
          for (const name of names) {
            if (stopped || existsSync(join(p.dir, anchorName(name)))) continue;
            await attempt(epoch, async () => {
              await anchorRelease(p.dir, name, p.anchor!);
              return JSON.parse(readFileSync(join(p.dir, name), 'utf8')) as ReleaseManifest;
            }, []);
          }
        }
      }
      // Final states: a released epoch whose moving parts were still moving gets a revision once
      // one of them has settled, and a final one once its settle time has passed. A bounded number
      // of epochs is looked at per check, in turn, as each look re-derives the epoch's negotiations.
      const unsettled: { epoch: number; name: string; m: ReleaseManifest }[] = [];
      for (const [epoch, names] of released) {
        const name = names[names.length - 1];
        const m = JSON.parse(readFileSync(join(p.dir, name), 'utf8')) as ReleaseManifest;
        if (m.manifestVersion >= 3 && !m.final) unsettled.push({ epoch, name, m });
      }
      unsettled.sort((a, b) => a.epoch - b.epoch);
      const look =
        unsettled.length <= REVISION_CHECKS_PER_TICK
          ? unsettled
          : Array.from(
              { length: REVISION_CHECKS_PER_TICK },
              (_, i) => unsettled[(reviseCursor + i) % unsettled.length],
            );
      reviseCursor = unsettled.length ? (reviseCursor + look.length) % unsettled.length : 0;
      const revised = new Set<number>();
      for (const u of look) {
        if (stopped) break;
        const asOfUs = BigInt(now()) * 1000n;
        const due = now() >= (u.epoch + 1) * epochMs + settleMs;
        const moving = due ? null : await movingParts(source, u.epoch, asOfUs);
        const settled =
          moving === null
            ? []
            : [
                ...u.m.moving.pendingChallenges
                  .filter((c) => !moving.pendingChallenges.includes(c))
                  .map((c) => `challenge ${c} is no longer pending`),
                ...u.m.moving.openNegotiations
                  .filter((c) => !moving.openNegotiations.includes(c))
                  .map((c) => `negotiation ${c} is no longer open`),
              ];
        if (!due && settled.length === 0) continue;
        revised.add(u.epoch);
        await attempt(
          u.epoch,
          release(u.epoch, {
            asOfUs,
            revision: u.m.revision + 1,
            final: due,
            reasons: due ? ['the settle time passed: final'] : settled,
          }),
          made,
        );
      }
      // Late data: every released epoch in turn (final ones too), its store counts and batch
      // verdicts against its latest manifest; a difference is a new revision naming it.
      const latest = [...manifestFiles(p.dir)].filter(([e]) => !revised.has(e)).sort((a, b) => a[0] - b[0]);
      const lateLook =
        latest.length <= REVISION_CHECKS_PER_TICK
          ? latest
          : Array.from({ length: REVISION_CHECKS_PER_TICK }, (_, i) => latest[(lateCursor + i) % latest.length]);
      lateCursor = latest.length ? (lateCursor + lateLook.length) % latest.length : 0;
      for (const [epoch, names] of lateLook) {
        if (stopped) break;
        const m = JSON.parse(readFileSync(join(p.dir, names[names.length - 1]), 'utf8')) as ReleaseManifest;
        if (m.manifestVersion < 3 || failing.has(epoch)) continue;
        const reasons = await lateChanges(source, m);
        if (reasons.length === 0) continue;
        const due = now() >= (epoch + 1) * epochMs + settleMs;
        await attempt(
          epoch,
          release(epoch, {
            asOfUs: BigInt(now()) * 1000n,
            revision: m.revision + 1,
            final: m.final || due,
            reasons: ['late data', ...reasons],
          }),
          made,
        );
      }
      // Failed epochs that fell out of the window are no longer retried.
      for (const epoch of failing.keys()) if (epoch < w.first) failing.delete(epoch);
      return made;
    })().finally(() => {
      running = null;
    }));
  const check = () =>
    tick().catch((e: unknown) => {
      // the epochs read itself failed
      st.failures++;
      st.lastError = {
        epoch: -1,
        at: new Date(now()).toISOString(),
        error: e instanceof Error ? e.message : String(e),
      };
      p.onError?.(e, -1, 0);
    });
  // Checks run just after each epoch boundary (or every `everyMs`): finding the epochs with
  // envelopes reads the table, so once per epoch, not on a short timer, unless a failed
  // release's retry is due sooner. The first check, a second after start, catches up on epochs
  // that ended while the server was down.
  const next = () => {
    // At least hourly: long epochs would overflow setTimeout's 2^31 ms.
    let ms = p.everyMs ?? Math.min(epochMs - (Date.now() % epochMs) + 500, 3_600_000);
    for (const f of failing.values()) ms = Math.min(ms, Math.max(f.nextTry - now(), 0) + 50);
    return ms;
  };
  let timer: NodeJS.Timeout;
  const schedule = (ms: number) => {
    timer = setTimeout(() => {
      void check().then(() => {
        if (!stopped) schedule(next());
      });
    }, ms);
    timer.unref();
  };
  schedule(p.firstCheckMs ?? Math.min(next(), 1_000));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running?.catch(() => undefined);
    },
    tick,
    status: () => ({
      ...st,
      retrying: [...failing]
        .sort((a, b) => a[0] - b[0])
        .map(([epoch, f]) => ({ epoch, attempts: f.attempts, nextTry: new Date(f.nextTry).toISOString() })),
      window: window(),
      signingKey: p.signingKey ? { publicKey: p.signingKey.publicKey, signer: p.signingKey.signer } : null,
    }),
  };
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
