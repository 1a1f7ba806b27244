/**
 * Bounded in-memory transaction history with a per-address index, so history queries
 * (getSignaturesForAddress, getTransaction) work as on a cluster. Oldest records are evicted first.
 *
 * Memory: a full record is ~80 small strings and arrays (logs, base58 keys, balances), about
 * 13 KB of V8 heap, and the demo lands ~20 transactions a second. Only the newest
 * {@link HOT_RECORDS} stay whole; older ones keep only the fields statuses and
 * getSignaturesForAddress answer from. The rest of a cold record is read back when getTransaction
 * asks for it: from the chain's transaction log on disk when there is one (persist.ts writes every
 * record there anyway; the entry keeps its byte offset and length), else from one deflated JSON
 * buffer (~1.3 KB) held in memory.
 *
 * The ring is kept as columns, not one object per record: slot, time, sequence and log location
 * in typed arrays, the signature string and (rarely) error and memo in plain arrays, and each
 * address's list of ring positions in a growable Float64Array. A cold record then costs ~0.2 KB
 * (its signature string and its map entry on the heap, ~100 bytes off it) instead of ~0.45 KB
 * as an object with its own key lists: the default 100,000-record ring, which the demo fills in
 * ~80 minutes, holds ~20 MB rather than ~45 MB. Positions count every record ever added, so an
 * address list needs no update when a record is evicted: readers stop at the oldest position,
 * and a sweep every {@link SWEEP_EVERY} evictions trims the lists and drops the empty ones.
 */
import { deflateRawSync, inflateRawSync, constants as zlibConstants } from 'node:zlib';
import type { TransactionErrorJson } from './tx-error';

export interface UiTokenAmount {
  amount: string;
  decimals: number;
  uiAmount: number | null;
  uiAmountString: string;
}

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: UiTokenAmount;
}

export interface InnerInstructionsJson {
  index: number;
  instructions: { programIdIndex: number; accounts: number[]; data: string; stackHeight: number | null }[];
}

/** One executed transaction, kept for getTransaction / getSignaturesForAddress / statuses. */
export interface TxRecord {
  seq: number;
  signature: string;
  slot: number;
  blockTime: number;
  /** The wire bytes as sent. */
  bytes: Uint8Array;
  err: TransactionErrorJson | null;
  fee: number;
  logs: string[];
  preBalances: number[];
  postBalances: number[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
  innerInstructions: InnerInstructionsJson[];
  computeUnitsConsumed: number;
  returnData: { programId: string; data: [string, 'base64'] } | null;
  loadedAddresses: { writable: string[]; readonly: string[] };
  /** Static keys then loaded writable then loaded readonly: the order of the balance arrays. */
  accountKeys: string[];
  memo: string | null;
}

/** The newest records, kept whole; older ones are read from the log or packed. */
export const HOT_RECORDS = 1024;

export interface SignaturesQuery {
  limit: number;
  before?: string;
  until?: string;
}

/** What statuses and getSignaturesForAddress need, kept unpacked for every record. */
export interface TxSummary {
  seq: number;
  signature: string;
  slot: number;
  blockTime: number;
  err: TransactionErrorJson | null;
  memo: string | null;
}

/** The record's other fields, packed once it leaves the hot window (no log to read it back from). */
type Packed = Omit<TxRecord, keyof TxSummary | 'bytes'> & { bytes: string };

/** Evictions between two sweeps of the address lists. */
export const SWEEP_EVERY = 4096;

/** Byte offset and length of a record's line in the chain's transaction log (persist.ts). */
export interface LogRef {
  offset: number;
  length: number;
}

/** Reads a record back from the log; null when the bytes there are not that record's line. */
export interface LogReader {
  read(ref: LogRef): TxRecord | null;
}

/** One record as compaction of the log sees it: its location, its bytes, and where it moved. */
export interface LogEntry {
  ref: LogRef | null;
  record(): TxRecord | undefined;
  move(ref: LogRef): void;
}

/** Ring positions of the records that mention one address, ascending; `start` skips trimmed ones. */
class PositionList {
  items = new Float64Array(4);
  start = 0;
  end = 0;

  push(pos: number): void {
    if (this.end > 0 && this.items[this.end - 1] === pos) return; // a key listed twice indexes the record once
    if (this.end === this.items.length) {
      const live = this.end - this.start;
      const next = new Float64Array(Math.max(4, live * 2));
      next.set(this.items.subarray(this.start, this.end));
      this.items = next;
      this.start = 0;
      this.end = live;
    }
    this.items[this.end++] = pos;
  }

  /** First index at or after `start` whose position is ≥ `pos`. */
  lowerBound(pos: number): number {
    let lo = this.start;
    let hi = this.end;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.items[mid] < pos) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Drops positions before `oldest`; shrinks the array when most of it is dead. */
  trim(oldest: number): void {
    this.start = this.lowerBound(oldest);
    const live = this.end - this.start;
    if (this.items.length > 16 && live * 4 < this.items.length) {
      const next = new Float64Array(Math.max(4, live * 2));
      next.set(this.items.subarray(this.start, this.end));
      this.items = next;
      this.start = 0;
      this.end = live;
    }
  }

  get empty(): boolean {
    return this.start === this.end;
  }
}

function pack(r: TxRecord): Buffer {
  const rest: Packed = {
    fee: r.fee,
    logs: r.logs,
    preBalances: r.preBalances,
    postBalances: r.postBalances,
    preTokenBalances: r.preTokenBalances,
    postTokenBalances: r.postTokenBalances,
    innerInstructions: r.innerInstructions,
    computeUnitsConsumed: r.computeUnitsConsumed,
    returnData: r.returnData,
    loadedAddresses: r.loadedAddresses,
    accountKeys: r.accountKeys,
    bytes: Buffer.from(r.bytes).toString('base64'),
  };
  const z = deflateRawSync(JSON.stringify(rest), { level: zlibConstants.Z_BEST_SPEED });
  // zlib hands back a view of its 16 KB output chunk: kept as is, every ~1.3 KB record would pin
  // 16 KB of memory outside the heap. An exact-size copy outside Buffer's shared pool holds only its bytes.
  const exact = Buffer.allocUnsafeSlow(z.length);
  z.copy(exact);
  return exact;
}

/** Error and memo of a record, held only when either is set (most records have neither). */
interface Extra {
  err: TransactionErrorJson | null;
  memo: string | null;
}

/** Ring of the last `capacity` transactions, indexed by signature and by every account key. */
export class TxHistory {
  /** Records ever added; the record at position p sits in column slot p % capacity. */
  private total = 0;
  private count = 0;
  private nextSeq = 1;
  private evictedSinceSweep = 0;
  private readonly sigs: (string | undefined)[];
  private readonly extras: (Extra | undefined)[];
  /** The whole record while hot; its packed bytes when cold without a log; undefined otherwise. */
  private readonly bodies: (TxRecord | Buffer | undefined)[];
  private readonly seqs: Float64Array;
  private readonly slots: Float64Array;
  private readonly times: Float64Array;
  /** Byte offset of the record's line in the log, -1 while it has none. */
  private readonly offs: Float64Array;
  private readonly lens: Uint32Array;
  private readonly bySig = new Map<string, number>();
  private readonly byAddress = new Map<string, PositionList>();
  private log: LogReader | null = null;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.sigs = new Array(capacity);
    this.extras = new Array(capacity);
    this.bodies = new Array(capacity);
    this.seqs = new Float64Array(capacity);
    this.slots = new Float64Array(capacity);
    this.times = new Float64Array(capacity);
    this.offs = new Float64Array(capacity);
    this.lens = new Uint32Array(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Sequence the next added record receives (persisted alongside snapshots). */
  get lastSeq(): number {
    return this.nextSeq - 1;
  }

  /** Records that leave the hot window are read back through `log` from now on, when they have a location. */
  useLog(log: LogReader): void {
    this.log = log;
  }

  /** Records where the record's line was written (it leaves memory once cold). */
  locate(signature: string, ref: LogRef): void {
    const pos = this.bySig.get(signature);
    if (pos === undefined) return;
    const i = pos % this.capacity;
    this.offs[i] = ref.offset;
    this.lens[i] = ref.length;
  }

  /**
   * Adds a record (its `seq` is assigned here unless restoring) and evicts the oldest if full; `ref` is its line in the
   * log when already written.
   */
  add(rec: Omit<TxRecord, 'seq'> & { seq?: number }, ref?: LogRef): TxRecord {
    const full = rec as TxRecord;
    full.seq = rec.seq ?? this.nextSeq;
    this.nextSeq = Math.max(this.nextSeq, full.seq + 1);
    if (this.count === this.capacity) this.evictOldest();
    const pos = this.total++;
    const i = pos % this.capacity;
    this.sigs[i] = full.signature;
    this.extras[i] = full.err !== null || full.memo !== null ? { err: full.err, memo: full.memo } : undefined;
    this.bodies[i] = full;
    this.seqs[i] = full.seq;
    this.slots[i] = full.slot;
    this.times[i] = full.blockTime;
    this.offs[i] = ref?.offset ?? -1;
    this.lens[i] = ref?.length ?? 0;
    for (const key of full.accountKeys) {
      let list = this.byAddress.get(key);
      if (!list) this.byAddress.set(key, (list = new PositionList()));
      list.push(pos);
    }
    this.count++;
    this.bySig.set(full.signature, pos);
    if (this.count > HOT_RECORDS) {
      const c = (pos - HOT_RECORDS) % this.capacity;
      const body = this.bodies[c];
      if (body !== undefined && !Buffer.isBuffer(body))
        this.bodies[c] = this.log && this.offs[c] >= 0 ? undefined : pack(body);
    }
    return full;
  }

  /** The whole record (inflated when it has been packed). */
  get(signature: string): TxRecord | undefined {
    const pos = this.bySig.get(signature);
    return pos === undefined ? undefined : this.unpack(pos % this.capacity);
  }

  /** Bytes of memory the packed records hold, backing stores included (what they pin outside the heap). */
  packedBytes(): number {
    let n = 0;
    for (const b of this.bodies) if (Buffer.isBuffer(b)) n += b.buffer.byteLength;
    return n;
  }

  /** Whether the signature landed, with its slot, time and error (no inflating). */
  status(signature: string): TxSummary | undefined {
    const pos = this.bySig.get(signature);
    return pos === undefined ? undefined : this.summary(pos % this.capacity);
  }

  /** Records that mention `address`, newest first, bounded by before/until/limit (Solana semantics). */
  signaturesFor(address: string, q: SignaturesQuery): TxSummary[] {
    const list = this.byAddress.get(address);
    if (!list) return [];
    let from = list.end - 1;
    if (q.before !== undefined) {
      const b = this.bySig.get(q.before);
      if (b === undefined) return [];
      from = list.lowerBound(b) - 1;
    }
    const untilPos = q.until !== undefined ? (this.bySig.get(q.until) ?? -1) : -1;
    const oldest = this.total - this.count;
    const out: TxSummary[] = [];
    for (let k = from; k >= list.start && out.length < q.limit; k--) {
      const pos = list.items[k];
      if (pos <= untilPos || pos < oldest) break;
      out.push(this.summary(pos % this.capacity));
    }
    return out;
  }

  /** Every record, oldest first (one the log no longer holds is skipped). */
  *records(): IterableIterator<TxRecord> {
    for (let pos = this.total - this.count; pos < this.total; pos++) {
      const r = this.unpack(pos % this.capacity);
      if (r) yield r;
    }
  }

  /** Every record, oldest first, as compaction of the log needs it (ChainStore.snapshot). */
  *logEntries(): IterableIterator<LogEntry> {
    for (let pos = this.total - this.count; pos < this.total; pos++) {
      const i = pos % this.capacity;
      yield {
        ref: this.offs[i] >= 0 ? { offset: this.offs[i], length: this.lens[i] } : null,
        record: () => this.unpack(i),
        move: (ref) => {
          this.offs[i] = ref.offset;
          this.lens[i] = ref.length;
        },
      };
    }
  }

  private summary(i: number): TxSummary {
    const x = this.extras[i];
    return {
      seq: this.seqs[i],
      signature: this.sigs[i] as string,
      slot: this.slots[i],
      blockTime: this.times[i],
      err: x?.err ?? null,
      memo: x?.memo ?? null,
    };
  }

  private unpack(i: number): TxRecord | undefined {
    const body = this.bodies[i];
    if (body !== undefined && !Buffer.isBuffer(body)) return body;
    const signature = this.sigs[i] as string;
    if (body === undefined) {
      const rec = this.log && this.offs[i] >= 0 ? this.log.read({ offset: this.offs[i], length: this.lens[i] }) : null;
      return rec && rec.signature === signature ? rec : undefined;
    }
    const rest = JSON.parse(inflateRawSync(body).toString('utf8')) as Packed;
    return { ...rest, ...this.summary(i), bytes: new Uint8Array(Buffer.from(rest.bytes, 'base64')) };
  }

  private evictOldest(): void {
    const i = (this.total - this.count) % this.capacity;
    this.bySig.delete(this.sigs[i] as string);
    this.sigs[i] = undefined;
    this.extras[i] = undefined;
    this.bodies[i] = undefined;
    this.count--;
    if (++this.evictedSinceSweep >= Math.min(SWEEP_EVERY, this.capacity)) this.sweep();
  }

  /** Trims every address list to the records still held and drops the lists left empty. */
  private sweep(): void {
    this.evictedSinceSweep = 0;
    const oldest = this.total - this.count;
    for (const [key, list] of this.byAddress) {
      list.trim(oldest);
      if (list.empty) this.byAddress.delete(key);
    }
  }
}
