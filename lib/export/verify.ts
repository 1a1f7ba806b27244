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
import { leafHash, logEntryOf, merkleRoot } from '../protocol/merkle';
import type { Envelope } from '../protocol/types';
import type { EpochAccounts } from './chain-evidence';
import { keysAt, type ReleaseChain, type SignerEvidence } from './chain-evidence';
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
import { expectedBatchRows, expectedReconciliationRows } from './rederive-status';
import { manifestFiles, type ReleaseManifest } from './release-manifest';
import { type EnvelopeRecord, envelopeRecord } from './rows';
import type { ReleaseTableName as TableName } from './schema';
import { checkManifestSignature, fileSha256 } from './signing';
import { CONTEXT_SCHEMA, TABLES } from './tables';
import { anchorChecks, asOfChecks } from './verify-anchor';
import { type CheckResult, chainChecks } from './verify-chain';
import { challengeChainChecks, challengeRowChecks, haggleChainChecks } from './verify-onchain';
import { orderChecks } from './verify-order';

export type { CheckResult };

export interface VerifyOptions {
  /** The chain (verify-dataset --rpc, lib/chain/release-evidence.ts); without it the chain is not consulted. */
  chain?: ReleaseChain;
  /** The manifest's file name in `dir`: its signature (`<name>.sig.json`) and what it supersedes are checked. */
  manifestFile?: string;
  /** The observer's public key (hex) the manifest must be signed with (verify-dataset --key). */
  trustedKey?: string;
}

const hx = (b: Uint8Array) => Buffer.from(b).toString('hex');
/** An id cell as hex text: ids are hex text in the files (schema 'hex'), bytes in older releases. */
const idText = (v: unknown) => (typeof v === 'string' ? v : v instanceof Uint8Array ? hx(v) : String(v));
/** Differences reported one by one per table; the rest are counted. */
const MAX_REPORTED = 25;

/** A whole Parquet file as objects; times stay exact unix µs (bigint), decimals exact bigints, bytes stay bytes. */
export async function readParquet(path: string): Promise<Record<string, unknown>[]> {
  return readParquetExact(readFileSync(path), { exactTimes: true });
}

/** Failures for cell differences of `table`, each naming row and column. */
function differenceChecks(tag: string, table: string, d: readonly CellDifference[], passName: string): CheckResult[] {
  if (d.length === 0) return [{ name: `${tag} ${table}: ${passName}`, ok: true }];
  const out: CheckResult[] = d.slice(0, MAX_REPORTED).map((x) => ({
    name: `${tag} ${table} row ${x.index ?? '(none)'} (${x.key.slice(0, 32)}) column ${x.column}`,
    ok: false,
    detail:
      x.column === '(row)'
        ? `row ${x.file} in the file, ${x.expected} in what the envelopes derive`
        : `file ${x.file ?? 'null'}, derived from the envelopes ${x.expected ?? 'null'}`,
  }));
  if (d.length > MAX_REPORTED)
    out.push({
      name: `${tag} ${table}: further differences`,
      ok: false,
      detail: `${d.length - MAX_REPORTED} more cell(s) differ`,
    });
  return out;
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
  const files: Partial<Record<TableName | 'context', Record<string, unknown>[]>> = {};
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
  if (m.card) out.push(...cardChecks(dir, m, tag, o.manifestFile));
  out.push(...orderChecks(tag, files));
  out.push(...asOfChecks(tag, dir, m, o.manifestFile));
  if (o.chain && o.manifestFile) out.push(...(await anchorChecks(tag, dir, m, o.manifestFile, o.chain, o.trustedKey)));
  const epochUs = BigInt(m.epochSeconds) * 1_000_000n;
  const fromUs = BigInt(m.epoch) * epochUs;
  const toUs = fromUs + epochUs;

  // Envelopes (and context): bytes, signature, date, and every decoded column against raw.
  const byId = new Map<string, Envelope>();
  const records: EnvelopeRecord[] = [];
  // With the chain, who may sign for each sender is read from it (and the manifest's evidence compared).
  const chainSigners = new Map<string, SignerEvidence>();
  const onChain: { accounts?: EpochAccounts } = {};
  const chained = o.chain ? await chainChecks(tag, m, files, o.chain, chainSigners, onChain) : null;
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
      if (hx(envelopeId(raw)) !== id) {
        out.push({ name: `${name} column id`, ok: false, detail: 'id is not keccak256(raw)' });
        bad++;
        return;
      }
      const e = d.envelope;
      const sender = hx(e.sender);
      const keys = keysAt(o.chain ? chainSigners.get(sender) : m.signers[sender], e.timestamp);
      if (!keys.some((k) => verifyEnvelopeSignature(e, Uint8Array.from(Buffer.from(k, 'hex'))))) {
        out.push({
          name: `${name} column signature`,
          ok: false,
          detail: `no key ${o.chain ? 'the chain' : 'the manifest'} allows for ${sender.slice(0, 16)} at the envelope's time ${e.timestamp} µs verifies the signature`,
        });
        bad++;
      }
      const inside = e.timestamp >= fromUs && e.timestamp < toUs;
      if (inside !== (part === 'envelopes')) {
        out.push({
          name: `${name} column timestamp`,
          ok: false,
          detail: `the raw timestamp ${e.timestamp} µs is ${inside ? 'inside' : 'outside'} the epoch [${fromUs}, ${toUs})`,
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

  // Derived tables, re-derived from the raw envelopes.
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
      detail: `manifest version ${m.manifestVersion} records no asOf and no context: its derived tables cannot be re-derived`,
    });
  }

  // The manifest's batches against the release's batches table, then against the chain.
  const batchRows = files.batches ?? [];
  const tableBatch = new Map(batchRows.map((r, i) => [idText(r.agent_id), { r, i }]));
  const listed = new Set<string>();
  for (const b of m.batches) {
    listed.add(b.agent);
    const t = tableBatch.get(b.agent);
    if (!t) {
      out.push({
        name: `${tag} batches row (none) (${b.agent.slice(0, 32)}) column (row)`,
        ok: false,
        detail: 'the manifest lists a batch the batches table does not have',
      });
      continue;
    }
    const pairs: [string, string, string][] = [
      ['log_merkle_root', idText(t.r.log_merkle_root), b.root],
      ['batch_hash', idText(t.r.batch_hash), b.batchHash],
      ['slot', String(t.r.slot), b.slot],
      ['status', String(t.r.status), b.status],
    ];
    const diff = pairs.filter(([, a, c]) => a !== c);
    for (const [col, a, c] of diff)
      out.push({
        name: `${tag} batches row ${t.i} (${b.agent.slice(0, 32)}) column ${col}`,
        ok: false,
        detail: `table ${a}, manifest ${c}`,
      });
    if (!diff.length) out.push({ name: `${tag} batches row ${t.i}: manifest agrees`, ok: true });
  }
  for (const [agent, t] of tableBatch)
    if (!listed.has(agent))
      out.push({
        name: `${tag} batches row ${t.i} (${agent.slice(0, 32)}) column (row)`,
        ok: false,
        detail: 'the batches table has a batch the manifest does not list',
      });
  // Each batch's BatchAccount (root and summary counts), read once.
  const chainBatch = new Map<string, Awaited<ReturnType<NonNullable<VerifyOptions['chain']>['batchRoot']>>>();
  if (o.chain)
    for (const [agent] of tableBatch)
      chainBatch.set(agent, await o.chain.batchRoot(Uint8Array.from(Buffer.from(agent, 'hex')), BigInt(m.epoch)));
  const chainCounts = o.chain
    ? new Map([...chainBatch].flatMap(([a, c]) => ('counts' in c && c.counts ? [[a, c.counts] as const] : [])))
    : undefined;
  // Batch verdicts from the logs, reconciliation from the envelopes seen live and the committed logs.
  const expBatches = expectedBatchRows(batchRows, m.batches, byId, BigInt(m.epoch), chainCounts);
  const bx = compareRows(TABLES.batches, 'agent_id', batchRows, expBatches);
  out.push(...differenceChecks(tag, 'batches', bx.differences, 'status re-derived from the uploaded logs'));
  const status = new Map(expBatches.map((r) => [idText(r.agent_id), String(r.status)]));
  if (files.reconciliation) {
    const rc = compareRows(
      TABLES.reconciliation,
      'agent_id',
      files.reconciliation,
      expectedReconciliationRows(m.epoch, files.envelopes ?? [], m.batches, status, files.reconciliation),
    );
    out.push(
      ...differenceChecks(
        tag,
        'reconciliation',
        rc.differences,
        'every cell re-derived from the envelopes seen live and the committed logs',
      ),
    );
  }
  out.push(...challengeRowChecks(tag, files.challenges ?? []));
  if (o.chain) {
    out.push(...chained!);
    if (onChain.accounts)
      out.push(
        ...challengeChainChecks(
          tag,
          files.challenges ?? [],
          onChain.accounts.challenges,
          m.chainSlot ? BigInt(m.chainSlot) : null,
        ),
      );
    for (const [agent, t] of tableBatch) {
      const name = `${tag} batches row ${t.i} (${agent.slice(0, 32)}) column log_merkle_root`;
      const c = chainBatch.get(agent)!;
      const root = idText(t.r.log_merkle_root);
      if ('error' in c) out.push({ name: `${name} on chain`, ok: false, detail: c.error });
      else
        out.push({
          name: `${name} on chain`,
          ok: c.root === root,
          detail:
            c.root === root
              ? undefined
              : `release ${root}, on chain ${c.root}${c.address ? ` (BatchAccount ${c.address})` : ''}`,
        });
    }
  }

  // Each batch root against the uploaded log's entries.
  for (const b of m.batches) {
    const name = `${tag} batch root of ${b.agent.slice(0, 16)}`;
    // The agent never uploaded its log: nothing in the release or on chain can be checked against the root.
    if (b.log.length === 0) {
      out.push({ name, ok: true, notCheckable: true, detail: 'not checkable: no log uploaded' });
      continue;
    }
    const missing = b.log.filter((id) => !byId.has(id));
    if (missing.length) {
      out.push({
        name,
        ok: false,
        detail: `${missing.length} log envelope(s) missing from the release, first ${missing[0]}`,
      });
      continue;
    }
    const root = hx(merkleRoot(b.log.map((id) => leafHash(logEntryOf(byId.get(id)!)))));
    out.push({
      name,
      ok: root === b.root,
      detail: root === b.root ? undefined : `log root ${root}, manifest ${b.root}`,
    });
  }
  return out;
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
      detail: `revision ${m.revision - 1} here (${earlier[0]}) has release id ${fileSha256(join(dir, earlier[0]))}, not the superseded ${m.supersedes}`,
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
        ? `resource ${bad[0].name} (${bad[0].path}) has hash ${bad[0].hash}, the manifest ${files.get(bad[0].path) ?? 'lists no such file'}`
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

/** Manifests in `dir` (a datasets folder) with their file names, oldest epoch first, each epoch's revisions in order. */
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
