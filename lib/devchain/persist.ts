/**
 * State persistence of the embedded chain in a data directory, across restarts and crashes.
 * litesvm's own snapshot (`toBytes`, accounts + sysvars) is written on an interval and on close.
 * Every landed transaction is appended to an NDJSON log with one write(2) before the ledger
 * reports it (sendTransaction's answer, statuses, notifications all come after), so a confirmed
 * transaction is in the kernel's page cache when anyone hears of it and survives the process
 * being killed (not a power cut: no fsync per transaction, which would cap throughput below the
 * bench target). On load, log entries newer than the snapshot are returned for replay
 * (Ledger.replay re-executes them at their recorded slot and time), so state and history agree.
 * Development warps (Ledger.warpTo) are logged the same way and re-applied in their place.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { LiteSVM } from 'litesvm';
import type { TxRecord } from './history';

const SVM_FILE = 'svm.bin';
const META_FILE = 'chain.json';
const HISTORY_FILE = 'history.ndjson';

/** What the snapshot metadata records. */
export interface ChainMeta {
  version: 1;
  slot: number;
  lastSeq: number;
  transactionCount: number;
  genesisHash: string;
  savedAt: number;
}

export interface LoadedState {
  svm: LiteSVM;
  meta: ChainMeta;
  /** History the snapshot covers (seq <= meta.lastSeq). */
  history: TxRecord[];
  /** Transactions logged after the snapshot, in order: re-executed on start. */
  replay: TxRecord[];
  /** Warps logged after the snapshot (`slot` beyond the snapshot's): each applies before the replayed transactions with seq > afterSeq. */
  warps: WarpEntry[];
}

/** A development warp (Ledger.warpTo) as the log records it: the target slot and the last transaction before it. */
export interface WarpEntry {
  slot: number;
  afterSeq: number;
}

const warpLine = (w: WarpEntry) => JSON.stringify({ warp: w.slot, afterSeq: w.afterSeq }) + '\n';

function warpFromLine(line: string): WarpEntry | null {
  if (!line.startsWith('{"warp":')) return null;
  try {
    const r = JSON.parse(line) as { warp?: unknown; afterSeq?: unknown };
    return Number.isSafeInteger(r.warp) && Number.isSafeInteger(r.afterSeq) ? { slot: r.warp as number, afterSeq: r.afterSeq as number } : null;
  } catch {
    return null;
  }
}

/** Replayed transactions and warps in log order (a warp goes before the transactions logged after it). */
function interleave(replay: TxRecord[], warps: WarpEntry[]): string {
  let out = '';
  let w = 0;
  for (const rec of replay) {
    while (w < warps.length && warps[w].afterSeq < rec.seq) out += warpLine(warps[w++]);
    out += toLine(rec);
  }
  while (w < warps.length) out += warpLine(warps[w++]);
  return out;
}

type StoredRecord = Omit<TxRecord, 'bytes'> & { bytes: string };

function toLine(rec: TxRecord): string {
  const { bytes, ...rest } = rec;
  return JSON.stringify({ ...rest, bytes: Buffer.from(bytes).toString('base64') }) + '\n';
}

function fromLine(line: string): TxRecord | null {
  try {
    const r = JSON.parse(line) as StoredRecord;
    if (typeof r.signature !== 'string' || typeof r.seq !== 'number' || typeof r.bytes !== 'string') return null;
    return { ...r, bytes: new Uint8Array(Buffer.from(r.bytes, 'base64')) };
  } catch {
    return null;
  }
}

function writeAtomic(path: string, data: Uint8Array | string): void {
  writeFileSync(path + '.tmp', data);
  renameSync(path + '.tmp', path);
}

/** Reads a saved chain, or null when `dir` holds none. The history file is compacted in place. */
export function loadState(dir: string, historyLimit: number): LoadedState | null {
  const metaPath = join(dir, META_FILE);
  const svmPath = join(dir, SVM_FILE);
  if (!existsSync(metaPath) || !existsSync(svmPath)) return null;
  const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as ChainMeta;
  const svm = LiteSVM.fromBytes(new Uint8Array(readFileSync(svmPath)));
  const history: TxRecord[] = [];
  const replay: TxRecord[] = [];
  const warps: WarpEntry[] = [];
  const histPath = join(dir, HISTORY_FILE);
  if (existsSync(histPath)) {
    // A torn last line (killed mid-write) does not parse and is skipped: it was never reported.
    for (const line of readFileSync(histPath, 'utf8').split('\n')) {
      if (!line) continue;
      const warp = warpFromLine(line);
      if (warp) {
        // A warp the snapshot already holds (its slot is at or below the snapshot's) is done.
        if (warp.slot > meta.slot && warp.slot > (warps[warps.length - 1]?.slot ?? 0)) warps.push(warp);
        continue;
      }
      const rec = fromLine(line);
      if (!rec) continue;
      if (rec.seq <= meta.lastSeq) history.push(rec);
      else if (rec.seq > (replay[replay.length - 1]?.seq ?? meta.lastSeq)) replay.push(rec);
    }
  }
  const kept = history.slice(-historyLimit);
  writeAtomic(histPath, kept.map(toLine).join('') + interleave(replay, warps));
  return { svm, meta, history: kept, replay, warps };
}

/** Appends each transaction to the log as it lands (module comment) and writes snapshots; one per directory. */
export class ChainStore {
  private lines: number;
  private readonly histPath: string;
  private fd: number;

  constructor(
    readonly dir: string,
    private readonly historyLimit: number,
    existingLines: number,
  ) {
    mkdirSync(dir, { recursive: true });
    this.lines = existingLines;
    this.histPath = join(dir, HISTORY_FILE);
    this.fd = openSync(this.histPath, 'a');
  }

  /** Writes the record's line now, before the caller reports the transaction. */
  append(rec: TxRecord): void {
    const line = Buffer.from(toLine(rec));
    for (let off = 0; off < line.length; ) off += writeSync(this.fd, line, off);
    this.lines++;
  }

  /** Logs a warp the same way, before the warp is answered; the next snapshot's slot covers it. */
  appendWarp(w: WarpEntry): void {
    const line = Buffer.from(warpLine(w));
    for (let off = 0; off < line.length; ) off += writeSync(this.fd, line, off);
    this.lines++;
  }

  /** Every line is written as it lands; this forces them to the disk (on close and each snapshot). */
  flush(): void {
    fsyncSync(this.fd);
  }

  /** Writes the snapshot, and rewrites the history file when it holds twice the limit. */
  snapshot(svm: LiteSVM, meta: ChainMeta, records: () => Iterable<TxRecord>): void {
    this.flush();
    writeAtomic(join(this.dir, SVM_FILE), svm.toBytes());
    writeAtomic(join(this.dir, META_FILE), JSON.stringify(meta));
    if (this.lines > 2 * this.historyLimit) {
      const all = [...records()].map(toLine);
      writeAtomic(this.histPath, all.join(''));
      closeSync(this.fd);
      this.fd = openSync(this.histPath, 'a');
      this.lines = all.length;
    }
  }

  close(): void {
    closeSync(this.fd);
  }
}
