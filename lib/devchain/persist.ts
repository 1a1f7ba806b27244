/**
 * State persistence of the embedded chain in a data directory, across restarts. litesvm's own snapshot (`toBytes`, accounts + sysvars) is written
 * on an interval and on close; transactions are appended to an NDJSON log (buffered, flushed every few hundred ms). On
 * load, history entries newer than the snapshot are dropped so state and history agree.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
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
  history: TxRecord[];
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
  const histPath = join(dir, HISTORY_FILE);
  if (existsSync(histPath)) {
    for (const line of readFileSync(histPath, 'utf8').split('\n')) {
      if (!line) continue;
      const rec = fromLine(line);
      if (rec && rec.seq <= meta.lastSeq) history.push(rec);
    }
  }
  const kept = history.slice(-historyLimit);
  writeAtomic(histPath, kept.map(toLine).join(''));
  return { svm, meta, history: kept };
}

/** Appends transactions (buffered, flushed synchronously) and writes snapshots; one per directory. */
export class ChainStore {
  private pending: string[] = [];
  private lines: number;
  private readonly histPath: string;

  constructor(
    readonly dir: string,
    private readonly historyLimit: number,
    existingLines: number,
  ) {
    mkdirSync(dir, { recursive: true });
    this.lines = existingLines;
    this.histPath = join(dir, HISTORY_FILE);
  }

  append(rec: TxRecord): void {
    this.pending.push(toLine(rec));
    this.lines++;
  }

  /** Writes buffered history lines to disk. */
  flush(): void {
    if (this.pending.length === 0) return;
    appendFileSync(this.histPath, this.pending.join(''));
    this.pending = [];
  }

  /** Flushes, writes the snapshot, and rewrites the history file when it holds twice the limit. */
  snapshot(svm: LiteSVM, meta: ChainMeta, records: () => Iterable<TxRecord>): void {
    this.flush();
    writeAtomic(join(this.dir, SVM_FILE), svm.toBytes());
    writeAtomic(join(this.dir, META_FILE), JSON.stringify(meta));
    if (this.lines > 2 * this.historyLimit) {
      const all = [...records()].map(toLine);
      writeAtomic(this.histPath, all.join(''));
      this.lines = all.length;
    }
  }
}
