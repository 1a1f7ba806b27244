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
 * The log is also where cold history lives: TxHistory keeps each record's byte offset and length
 * and reads a record back from here when getTransaction asks for one that left its hot window.
 */
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { LiteSVM } from 'litesvm';
import type { LogEntry, LogReader, LogRef, TxRecord } from './history';

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
  /** Where each record of `history` sits in the rewritten log, index for index. */
  historyRefs: LogRef[];
  /** Transactions logged after the snapshot, in order: re-executed on start. */
  replay: TxRecord[];
  /** Where each record of `replay` sits in the rewritten log. */
  replayRefs: LogRef[];
  /**
   * Warps logged after the snapshot (`slot` beyond the snapshot's): each applies before the replayed transactions with
   * seq > afterSeq.
   */
  warps: WarpEntry[];
}

/** A development warp (Ledger.warpTo) as the log records it: the target slot and the last transaction before it. */
export interface WarpEntry {
  slot: number;
  afterSeq: number;
}

const warpLine = (w: WarpEntry) => `${JSON.stringify({ warp: w.slot, afterSeq: w.afterSeq })}\n`;

function warpFromLine(line: string): WarpEntry | null {
  if (!line.startsWith('{"warp":')) return null;
  try {
    const r = JSON.parse(line) as { warp?: unknown; afterSeq?: unknown };
    return Number.isSafeInteger(r.warp) && Number.isSafeInteger(r.afterSeq)
      ? { slot: r.warp as number, afterSeq: r.afterSeq as number }
      : null;
  } catch {
    return null;
  }
}

/** Lines being written as one file, with the byte range of each record's line. */
class LogText {
  private readonly parts: string[] = [];
  private bytes = 0;
  line(text: string): LogRef {
    const ref = { offset: this.bytes, length: Buffer.byteLength(text) };
    this.parts.push(text);
    this.bytes += ref.length;
    return ref;
  }
  text(): string {
    return this.parts.join('');
  }
}

/** Replayed transactions and warps in log order (a warp goes before the transactions logged after it). */
function interleave(out: LogText, replay: TxRecord[], warps: WarpEntry[]): LogRef[] {
  const refs: LogRef[] = [];
  let w = 0;
  for (const rec of replay) {
    while (w < warps.length && warps[w].afterSeq < rec.seq) out.line(warpLine(warps[w++]));
    refs.push(out.line(toLine(rec)));
  }
  while (w < warps.length) out.line(warpLine(warps[w++]));
  return refs;
}

type StoredRecord = Omit<TxRecord, 'bytes'> & { bytes: string };

function toLine(rec: TxRecord): string {
  const { bytes, ...rest } = rec;
  return `${JSON.stringify({ ...rest, bytes: Buffer.from(bytes).toString('base64') })}\n`;
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
  writeFileSync(`${path}.tmp`, data);
  renameSync(`${path}.tmp`, path);
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
  const out = new LogText();
  const historyRefs = kept.map((rec) => out.line(toLine(rec)));
  const replayRefs = interleave(out, replay, warps);
  writeAtomic(histPath, out.text());
  return { svm, meta, history: kept, historyRefs, replay, replayRefs, warps };
}

/**
 * Appends each transaction to the log as it lands (module comment), reads cold records back from it, and writes
 * snapshots; one per directory.
 */
export class ChainStore implements LogReader {
  private lines: number;
  private readonly histPath: string;
  private fd: number;
  private readFd: number;
  /** Bytes in the log: the offset of the next line. */
  private size: number;

  constructor(
    readonly dir: string,
    private readonly historyLimit: number,
    existingLines: number,
  ) {
    mkdirSync(dir, { recursive: true });
    this.lines = existingLines;
    this.histPath = join(dir, HISTORY_FILE);
    this.fd = openSync(this.histPath, 'a');
    this.readFd = openSync(this.histPath, 'r');
    this.size = fstatSync(this.fd).size;
  }

  /** Writes the record's line now, before the caller reports the transaction; returns where it went. */
  append(rec: TxRecord): LogRef {
    return this.write(toLine(rec));
  }

  /** Logs a warp the same way, before the warp is answered; the next snapshot's slot covers it. */
  appendWarp(w: WarpEntry): void {
    this.write(warpLine(w));
  }

  private write(text: string): LogRef {
    const line = Buffer.from(text);
    for (let off = 0; off < line.length; ) off += writeSync(this.fd, line, off);
    this.lines++;
    const ref = { offset: this.size, length: line.length };
    this.size += line.length;
    return ref;
  }

  /** The record whose line is at `ref` (null when the bytes there do not parse as one). */
  read(ref: LogRef): TxRecord | null {
    const line = ref.length < 2 ? null : this.lineAt(ref);
    return line && fromLine(line.toString('utf8', 0, line.length - 1));
  }

  /** The bytes of the log at `ref`, or null when the log does not hold them. */
  private lineAt(ref: LogRef): Buffer | null {
    if (ref.offset < 0 || ref.offset + ref.length > this.size) return null;
    const buf = Buffer.allocUnsafe(ref.length);
    for (let got = 0; got < ref.length; ) {
      const n = readSync(this.readFd, buf, got, ref.length - got, ref.offset + got);
      if (n === 0) return null;
      got += n;
    }
    return buf;
  }

  /** Every line is written as it lands; this forces them to the disk (on close and each snapshot). */
  flush(): void {
    fsyncSync(this.fd);
  }

  /**
   * Writes the snapshot, and rewrites the log when it holds twice the limit: the lines of the
   * records still in the ring are copied byte for byte (no parsing), then each record is told
   * where its line moved, once the new file is in place.
   */
  snapshot(svm: LiteSVM, meta: ChainMeta, entries: () => Iterable<LogEntry>): void {
    this.flush();
    writeAtomic(join(this.dir, SVM_FILE), svm.toBytes());
    writeAtomic(join(this.dir, META_FILE), JSON.stringify(meta));
    if (this.lines <= 2 * this.historyLimit) return;
    const tmp = `${this.histPath}.tmp`;
    const out = openSync(tmp, 'w');
    const moves: [LogEntry, LogRef][] = [];
    let size = 0;
    try {
      for (const e of entries()) {
        let line = e.ref ? this.lineAt(e.ref) : null;
        if (!line) {
          const rec = e.record();
          if (!rec) continue;
          line = Buffer.from(toLine(rec));
        }
        for (let off = 0; off < line.length; ) off += writeSync(out, line, off);
        moves.push([e, { offset: size, length: line.length }]);
        size += line.length;
      }
      fsyncSync(out);
    } finally {
      closeSync(out);
    }
    renameSync(tmp, this.histPath);
    for (const [e, ref] of moves) e.move(ref);
    closeSync(this.fd);
    closeSync(this.readFd);
    this.fd = openSync(this.histPath, 'a');
    this.readFd = openSync(this.histPath, 'r');
    this.size = size;
    this.lines = moves.length;
  }

  close(): void {
    closeSync(this.fd);
    closeSync(this.readFd);
  }
}
