/**
 * Check of dataset releases from nothing but their files, and the chain when given (docs/datasets.md
 * "Verifying a release"). Parquet is read with hyparquet (not the writer's code). For each release:
 *
 * - each file's sha256 and row count against the manifest;
 * - the manifest's batches against the release's own `batches` table, and (with `chain`) each
 *   batch root against the BehaviorLog BatchAccount on chain, and every batch, challenge and open
 *   Haggle negotiation of the epoch on chain held by the release or named in `knownMissing`;
 * - each envelope: id = keccak256(raw), signature under a key allowed for the sender at the
 *   envelope's own time (chain-evidence.ts: the SATI owner, or a DelegateV1 delegate within its
 *   window; with `chain` the evidence is read from the chain and the manifest's compared with
 *   it), dated inside the epoch, and every decoded column equal to what its raw bytes say;
 * - `offers`, `negotiations` and `feedback` re-derived from the release's raw envelopes (with the
 *   context file: its negotiations' envelopes dated outside the epoch) by the exporter's own row
 *   code and compared cell by cell (rederive.ts);
 * - per agent-epoch, the merkle root of the uploaded log's entries (docs/protocol.md §5) equal to
 *   the batch root.
 *
 * Every failure names the table, the row (its index in the file and its key) and the column. What
 * the files cannot settle (a batch whose log was never uploaded, an account the manifest names as
 * missing) is reported `notCheckable`: neither passed nor failed.
 */

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodeEnvelope, envelopeId, verifyEnvelopeSignature } from '../protocol/envelope';
import { toHex } from '../protocol/hex';
import type { EpochAccounts } from './chain-evidence';
import { keysAt } from './chain-evidence';
import { readParquetExact } from './parquet-read';
import {
  type CellDifference,
  cellText,
  compareRows,
  expectedEnvelopeRow,
  expectedFeedbackRows,
  expectedNegotiationRows,
  expectedOfferRows,
  negotiationConversations,
  storeRowOf,
} from './rederive';
import { manifestFiles, type ReleaseManifest } from './release-manifest';
import { envelopeRecord } from './rows';
import type { ReleaseTableName as TableName } from './schema';
import { checkManifestSignature, fileSha256 } from './signing';
import { CONTEXT_SCHEMA, TABLES } from './tables';
import { anchorChecks, asOfChecks } from './verify-anchor';
import { batchChainChecks, batchRootChecks, batchVerdictChecks, manifestBatchChecks } from './verify-batches';
import { type CheckResult, chainChecks } from './verify-chain';
import { challengeChainChecks, challengeRowChecks, haggleChainChecks } from './verify-onchain';
import { orderChecks } from './verify-order';
import { type ChainBatches, differenceChecks, idText, type Run, type VerifyOptions } from './verify-run';

export type { CheckResult, VerifyOptions };

/** A whole Parquet file as objects; times stay exact unix µs (bigint), decimals exact bigints, bytes stay bytes. */
export async function readParquet(path: string): Promise<Record<string, unknown>[]> {
  return readParquetExact(readFileSync(path), { exactTimes: true });
}

/** Every check of one release manifest in `dir`. */
export async function verifyRelease(dir: string, m: ReleaseManifest, o: VerifyOptions = {}): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  const tag = `epoch ${m.epoch}${m.revision ? ` revision ${m.revision}` : ''}`;
  if (o.manifestFile) {
    const s = checkManifestSignature(dir, o.manifestFile, o.trustedKey);
    out.push({ name: `${tag} manifest: signature`, ok: s.ok, detail: s.detail });
    if (m.supersedes) out.push(supersedesCheck(dir, m, tag, o.manifestFile));
  }
  const files = await readTables(dir, m, tag, out);
  if (m.card) out.push(...cardChecks(dir, m, tag, o.manifestFile));
  out.push(...orderChecks(tag, files));
  out.push(...asOfChecks(tag, dir, m, o.manifestFile));
  if (o.chain && o.manifestFile) out.push(...(await anchorChecks(tag, dir, m, o.manifestFile, o.chain, o.trustedKey)));
  const epochUs = BigInt(m.epochSeconds) * 1_000_000n;
  const fromUs = BigInt(m.epoch) * epochUs;
  const run: Run = {
    dir,
    m,
    o,
    tag,
    out,
    files,
    fromUs,
    toUs: fromUs + epochUs,
    byId: new Map(),
    records: [],
    chainSigners: new Map(),
  };
  const onChain: { accounts?: EpochAccounts } = {};
  const chained = o.chain ? await chainChecks(tag, m, files, o.chain, run.chainSigners, onChain) : null;
  envelopeChecks(run);
  await derivedChecks(run);
  const tableBatch = manifestBatchChecks(run);
  // Each batch's BatchAccount (root and summary counts), read once.
  const chainBatch: ChainBatches = new Map();
  if (o.chain)
    for (const [agent] of tableBatch)
      chainBatch.set(agent, await o.chain.batchRoot(Uint8Array.from(Buffer.from(agent, 'hex')), BigInt(m.epoch)));
  batchVerdictChecks(run, chainBatch);
  out.push(...challengeRowChecks(tag, files.challenges ?? []));
  if (chained) {
    out.push(...chained);
    if (onChain.accounts)
      out.push(
        ...challengeChainChecks(
          tag,
          files.challenges ?? [],
          onChain.accounts.challenges,
          m.chainSlot ? BigInt(m.chainSlot) : null,
        ),
      );
    batchChainChecks(run, tableBatch, chainBatch);
  }
  batchRootChecks(run);
  return out;
}

/** Each table's file: present, its sha256 and row count as the manifest states; the rows read. */
async function readTables(dir: string, m: ReleaseManifest, tag: string, out: CheckResult[]): Promise<Run['files']> {
  const files: Run['files'] = {};
  const entries: [TableName | 'context', { rows: number; file: string; sha256: string }][] = Object.entries(
    m.tables,
  ) as [TableName, ReleaseManifest['tables'][TableName]][];
  if (m.context) entries.push(['context', m.context]);
  for (const [table, t] of entries) {
    const path = join(dir, t.file);
    if (!existsSync(path)) {
      out.push({ name: `${tag} ${table}: file`, ok: false, detail: `${t.file} is missing` });
      continue;
    }
    const sha = createHash('sha256').update(readFileSync(path)).digest('hex');
    out.push({
      name: `${tag} ${table}: sha256`,
      ok: sha === t.sha256,
      detail: sha === t.sha256 ? undefined : `file ${sha}, manifest ${t.sha256}`,
    });
    try {
      const rows = await readParquet(path);
      files[table] = rows;
      out.push({
        name: `${tag} ${table}: rows`,
        ok: rows.length === t.rows,
        detail: rows.length === t.rows ? undefined : `file ${rows.length}, manifest ${t.rows}`,
      });
    } catch (e) {
      out.push({ name: `${tag} ${table}: readable`, ok: false, detail: e instanceof Error ? e.message : String(e) });
    }
  }
  return files;
}

/** Envelopes (and context): bytes, signature, date, and every decoded column against raw. */
function envelopeChecks({ m, o, tag, out, files, fromUs, toUs, byId, records, chainSigners }: Run): void {
  for (const part of ['envelopes', 'context'] as const) {
    const rows = files[part] ?? [];
    const diffs: CellDifference[] = [];
    let bad = 0;
    rows.forEach((r, index) => {
      const raw = r.raw as Uint8Array;
      const id = idText(r.id);
      const name = `${tag} ${part} row ${index} (${id.slice(0, 32)})`;
      const d = decodeEnvelope(raw);
      if (!d.ok) {
        out.push({ name: `${name} column raw`, ok: false, detail: `raw does not decode: ${d.reason}` });
        bad++;
        return;
      }
      if (toHex(envelopeId(raw)) !== id) {
        out.push({ name: `${name} column id`, ok: false, detail: 'id is not keccak256(raw)' });
        bad++;
        return;
      }
      const e = d.envelope;
      const sender = toHex(e.sender);
      const keys = keysAt(o.chain ? chainSigners.get(sender) : m.signers[sender], e.timestamp);
      if (!keys.some((k) => verifyEnvelopeSignature(e, Uint8Array.from(Buffer.from(k, 'hex'))))) {
        out.push({
          name: `${name} column signature`,
          ok: false,
          detail:
            `no key ${o.chain ? 'the chain' : 'the manifest'} allows for ${sender.slice(0, 16)}` +
            ` at the envelope's time ${e.timestamp} µs verifies the signature`,
        });
        bad++;
      }
      const inside = e.timestamp >= fromUs && e.timestamp < toUs;
      if (inside !== (part === 'envelopes')) {
        out.push({
          name: `${name} column timestamp`,
          ok: false,
          detail:
            `the raw timestamp ${e.timestamp} µs is ` +
            `${inside ? 'inside' : 'outside'} the epoch [${fromUs}, ${toUs})`,
        });
        bad++;
      }
      const exp = expectedEnvelopeRow(r, m.epochSeconds);
      for (const c of (part === 'context' ? CONTEXT_SCHEMA : TABLES.envelopes).columns) {
        const a = cellText(c.type, r[c.name], c);
        const b = cellText(c.type, exp[c.name], c);
        if (a !== b) diffs.push({ key: id, index, column: c.name, file: a, expected: b });
      }
      byId.set(id, e);
      records.push(envelopeRecord(storeRowOf(r, m.epochSeconds)));
    });
    out.push(...differenceChecks(tag, part, diffs, 'decoded columns equal their raw bytes'));
    if (!bad && rows.length) out.push({ name: `${tag} ${part}: ids, signatures and dates`, ok: true });
  }
}

/** Derived tables, re-derived from the raw envelopes. */
async function derivedChecks({ m, o, tag, out, files, fromUs, toUs, records, chainSigners }: Run): Promise<void> {
  if (m.manifestVersion >= 3 && m.asOfUs !== undefined) {
    const epochRecords = records.filter((e) => e.timestamp >= fromUs && e.timestamp < toUs);
    const fb = compareRows(
      TABLES.feedback,
      'envelope_id',
      files.feedback ?? [],
      expectedFeedbackRows(epochRecords, m.epochSeconds),
    );
    out.push(...differenceChecks(tag, 'feedback', fb.differences, 'every cell re-derived from the envelopes'));
    const convs = negotiationConversations(records, fromUs, toUs);
    const of = compareRows(TABLES.offers, 'envelope_id', files.offers ?? [], expectedOfferRows(convs));
    out.push(...differenceChecks(tag, 'offers', of.differences, 'every cell re-derived from the envelopes'));
    const negFile = new Map((files.negotiations ?? []).map((r) => [idText(r.conversation_id), r]));
    const ng = compareRows(
      TABLES.negotiations,
      'conversation_id',
      files.negotiations ?? [],
      expectedNegotiationRows(convs, BigInt(m.asOfUs), negFile),
    );
    out.push(
      ...differenceChecks(
        tag,
        'negotiations',
        ng.differences,
        'every cell re-derived from the envelopes (on-chain columns as stated)',
      ),
    );
    if (o.chain)
      out.push(
        ...(await haggleChainChecks(
          tag,
          files.negotiations ?? [],
          convs,
          BigInt(m.asOfUs),
          o.chain,
          chainSigners,
          m.chainSlot ? BigInt(m.chainSlot) : null,
        )),
      );
    for (const [t, r] of [
      ['feedback', fb],
      ['offers', of],
      ['negotiations', ng],
    ] as const) {
      const stated = m.tables[t].setAside ?? 0;
      if (r.setAside !== stated)
        out.push({
          name: `${tag} ${t}: set aside`,
          ok: false,
          detail: `the envelopes derive ${r.setAside} row(s) no Parquet column holds, the manifest states ${stated}`,
        });
    }
  } else {
    out.push({
      name: `${tag}: manifest version`,
      ok: false,
      detail:
        `manifest version ${m.manifestVersion} records no asOf ` +
        `and no context: its derived tables cannot be re-derived`,
    });
  }
}

/**
 * `supersedes` is a stated release id, covered by this manifest's hash and signature: a revision
 * verifies without the older ones' files. When the older manifest is in the folder, it must be an
 * earlier revision of the epoch with that id.
 */
function supersedesCheck(dir: string, m: ReleaseManifest, tag: string, manifestFile: string): CheckResult {
  const name = `${tag} manifest: supersedes`;
  const others = (manifestFiles(dir).get(m.epoch) ?? []).filter((n) => n !== manifestFile);
  const prev = others.find((n) => fileSha256(join(dir, n)) === m.supersedes);
  if (prev) {
    const r = (JSON.parse(readFileSync(join(dir, prev), 'utf8')) as ReleaseManifest).revision ?? 0;
    return {
      name,
      ok: r < m.revision,
      detail:
        r < m.revision
          ? `release ${m.supersedes} (${prev})`
          : `${prev} (revision ${r}) is not older than revision ${m.revision}`,
    };
  }
  // An earlier revision of the epoch in the folder with another id contradicts the statement.
  const earlier = others.filter(
    (n) => ((JSON.parse(readFileSync(join(dir, n), 'utf8')) as ReleaseManifest).revision ?? 0) === m.revision - 1,
  );
  if (earlier.length)
    return {
      name,
      ok: false,
      detail:
        `revision ${m.revision - 1} here (${earlier[0]}) has release id ` +
        `${fileSha256(join(dir, earlier[0]))}, not the superseded ${m.supersedes}`,
    };
  return {
    name,
    ok: true,
    detail: `supersedes release ${m.supersedes} (not in this folder; not needed to verify this revision)`,
  };
}

/** The dataset card: its files' hashes, the datapackage's resources against the manifest, CITATION.cff's release id. */
function cardChecks(dir: string, m: ReleaseManifest, tag: string, manifestFile?: string): CheckResult[] {
  const out: CheckResult[] = [];
  const card = m.card!;
  for (const f of [card.readme, card.datapackage]) {
    const path = join(dir, f.file);
    const sha = existsSync(path) ? fileSha256(path) : 'missing';
    out.push({
      name: `${tag} card: ${f.file}`,
      ok: sha === f.sha256,
      detail: sha === f.sha256 ? undefined : `file ${sha}, manifest ${f.sha256}`,
    });
  }
  try {
    const dp = JSON.parse(readFileSync(join(dir, card.datapackage.file), 'utf8')) as {
      resources: { name: string; path: string; hash: string }[];
    };
    const files = new Map([...Object.values(m.tables), m.context].map((t) => [t.file, t.sha256]));
    const bad = dp.resources.filter((r) => r.hash !== `sha256:${files.get(r.path)}`);
    out.push({
      name: `${tag} card: datapackage resources`,
      ok: bad.length === 0 && dp.resources.length === files.size,
      detail: bad.length
        ? `resource ${bad[0].name} (${bad[0].path}) has hash ${bad[0].hash}` +
          `, the manifest ${files.get(bad[0].path) ?? 'lists no such file'}`
        : dp.resources.length !== files.size
          ? `${dp.resources.length} resources for ${files.size} files`
          : undefined,
    });
  } catch (e) {
    out.push({
      name: `${tag} card: datapackage resources`,
      ok: false,
      detail: e instanceof Error ? e.message : String(e),
    });
  }
  if (manifestFile) {
    const path = join(dir, card.citation);
    const id = fileSha256(join(dir, manifestFile));
    const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
    out.push({
      name: `${tag} card: ${card.citation}`,
      ok: text.includes(`"sha256:${id}"`),
      detail: text ? (text.includes(`"sha256:${id}"`) ? undefined : `does not name the release id ${id}`) : 'missing',
    });
  }
  return out;
}

/**
 * Manifests in `dir` (a datasets folder) with their file names, oldest epoch first, each epoch's revisions in order.
 */
export function readReleaseManifests(dir: string): { file: string; manifest: ReleaseManifest }[] {
  return [...manifestFiles(dir)]
    .sort((a, b) => a[0] - b[0])
    .flatMap(([, names]) => names)
    .map((file) => ({ file, manifest: JSON.parse(readFileSync(join(dir, file), 'utf8')) as ReleaseManifest }));
}

/** Manifests in `dir`, oldest epoch first. */
export function readManifests(dir: string): ReleaseManifest[] {
  return readReleaseManifests(dir).map((r) => r.manifest);
}
