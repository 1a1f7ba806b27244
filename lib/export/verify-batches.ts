/**
 * The batch steps of a release's check: manifest against table, verdicts from the logs, roots on chain and from the
 * logs.
 */
import { toHex } from '../protocol/hex';
import { leafHash, logEntryOf, merkleRoot } from '../protocol/merkle';
import { compareRows } from './rederive';
import { expectedBatchRows, expectedReconciliationRows } from './rederive-status';
import { TABLES } from './tables';
import { type ChainBatches, differenceChecks, idText, type Run } from './verify-run';

/** The manifest's batches against the release's batches table; the table's rows by agent. */
export function manifestBatchChecks({
  m,
  tag,
  out,
  files,
}: Run): Map<string, { r: Record<string, unknown>; i: number }> {
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
  return tableBatch;
}

/** Batch verdicts from the logs, reconciliation from the envelopes seen live and the committed logs. */
export function batchVerdictChecks({ m, o, tag, out, files, byId }: Run, chainBatch: ChainBatches): void {
  const batchRows = files.batches ?? [];
  const chainCounts = o.chain
    ? new Map([...chainBatch].flatMap(([a, c]) => ('counts' in c && c.counts ? [[a, c.counts] as const] : [])))
    : undefined;
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
}

/** Each batch's root in the release against its BatchAccount on chain. */
export function batchChainChecks(
  { tag, out }: Run,
  tableBatch: Map<string, { r: Record<string, unknown>; i: number }>,
  chainBatch: ChainBatches,
): void {
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

/** Each batch root against the uploaded log's entries. */
export function batchRootChecks({ m, out, tag, byId }: Run): void {
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
    const root = toHex(merkleRoot(b.log.map((id) => leafHash(logEntryOf(byId.get(id)!)))));
    out.push({
      name,
      ok: root === b.root,
      detail: root === b.root ? undefined : `log root ${root}, manifest ${b.root}`,
    });
  }
}
