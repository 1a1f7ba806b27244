/**
 * Offline check of dataset releases (docs/datasets.md "Verifying a release"), reading the
 * Parquet files with hyparquet (not the writer's code): each file's sha256 and row count against
 * its manifest; each envelope's id = keccak256(raw), its decoded header equal to the row, and its
 * signature under one of the manifest's signer keys of the sender (docs/protocol.md §2–3); and,
 * per agent-epoch, the merkle root of the uploaded log's entries (docs/protocol.md §5) equal to
 * the on-chain batch root in the manifest.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { decodeEnvelope, envelopeId, verifyEnvelopeSignature } from '../protocol/envelope';
import { leafHash, logEntryOf, merkleRoot } from '../protocol/merkle';
import type { Envelope } from '../protocol/types';
import type { ReleaseManifest } from './release';

export interface CheckResult { name: string; ok: boolean; detail?: string }

const hx = (b: Uint8Array) => Buffer.from(b).toString('hex');

async function readParquet(path: string): Promise<Record<string, unknown>[]> {
  const b = readFileSync(path);
  return parquetReadObjects({ file: b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer, utf8: false });
}

/** Every check of one release manifest in `dir`. */
export async function verifyRelease(dir: string, m: ReleaseManifest): Promise<CheckResult[]> {
  const out: CheckResult[] = [];
  const tag = `epoch ${m.epoch}`;
  for (const [table, t] of Object.entries(m.tables)) {
    const path = join(dir, t.file);
    if (!existsSync(path)) { out.push({ name: `${tag} ${table}: file`, ok: false, detail: `${t.file} is missing` }); continue; }
    const sha = createHash('sha256').update(readFileSync(path)).digest('hex');
    out.push({ name: `${tag} ${table}: sha256`, ok: sha === t.sha256, detail: sha === t.sha256 ? undefined : `file ${sha}, manifest ${t.sha256}` });
    try {
      const rows = await readParquet(path);
      out.push({ name: `${tag} ${table}: rows`, ok: rows.length === t.rows, detail: rows.length === t.rows ? undefined : `file ${rows.length}, manifest ${t.rows}` });
    } catch (e) {
      out.push({ name: `${tag} ${table}: readable`, ok: false, detail: e instanceof Error ? e.message : String(e) });
    }
  }
  const envPath = join(dir, m.tables.envelopes.file);
  let rows: Record<string, unknown>[] = [];
  try { rows = await readParquet(envPath); } catch { /* reported above */ }
  const byId = new Map<string, Envelope>();
  for (const r of rows) {
    const raw = r.raw as Uint8Array;
    const id = hx(r.id as Uint8Array);
    const name = `${tag} envelope ${id.slice(0, 16)}`;
    const d = decodeEnvelope(raw);
    if (!d.ok) { out.push({ name, ok: false, detail: `raw does not decode: ${d.reason}` }); continue; }
    if (hx(envelopeId(raw)) !== id) { out.push({ name, ok: false, detail: 'id is not keccak256(raw)' }); continue; }
    const e = d.envelope;
    if (hx(e.sender) !== hx(r.sender as Uint8Array) || e.msgType !== Number(r.msg_type) || e.nonce.toString() !== String(r.nonce)) {
      out.push({ name, ok: false, detail: 'row columns differ from the envelope bytes' }); continue;
    }
    const keys = m.signers[hx(e.sender)] ?? [];
    const signed = keys.some((k) => verifyEnvelopeSignature(e, Uint8Array.from(Buffer.from(k, 'hex'))));
    out.push({ name, ok: signed, detail: signed ? undefined : `no signer key of ${hx(e.sender).slice(0, 16)} verifies the signature` });
    byId.set(id, e);
  }
  for (const b of m.batches) {
    const name = `${tag} batch root of ${b.agent.slice(0, 16)}`;
    if (b.log.length === 0) { out.push({ name, ok: false, detail: 'no uploaded log to check the root against' }); continue; }
    const missing = b.log.filter((id) => !byId.has(id));
    if (missing.length) { out.push({ name, ok: false, detail: `${missing.length} log envelope(s) missing from the release, first ${missing[0]}` }); continue; }
    const root = hx(merkleRoot(b.log.map((id) => leafHash(logEntryOf(byId.get(id)!)))));
    out.push({ name, ok: root === b.root, detail: root === b.root ? undefined : `log root ${root}, on-chain ${b.root}` });
  }
  return out;
}

/** Manifests in `dir` (a datasets folder), oldest epoch first. */
export function readManifests(dir: string): ReleaseManifest[] {
  return readdirSync(dir).filter((n) => /^epoch=\d+\.manifest\.json$/.test(n))
    .map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as ReleaseManifest).sort((a, b) => a.epoch - b.epoch);
}
