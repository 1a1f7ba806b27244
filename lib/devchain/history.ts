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
 * buffer (~1.3 KB) held in memory. With a log, a full ring costs ~0.4 KB of memory per record
 * instead of ~1.7 KB, so a long-running embedded chain stays flat long before the ring fills.
 * Account keys are held once per address (the index list's key), not once per record.
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

/** The record's other fields, packed once it leaves the hot window. */
type Packed = Omit<TxRecord, keyof TxSummary | 'accountKeys' | 'bytes'> & { bytes: string };

interface Entry extends TxSummary {
  /** The index list of each account key, in the record's key order (the list holds the key string). */
  lists: AddressList[];
  full: TxRecord | null;
  packed: Buffer | null;
  /** Byte offset and length of the record's line in the log; -1 while it has none. */
  off: number;
  len: number;
}

/** Where a record's line sits in the chain's transaction log (persist.ts). */
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

/** Records of one address in seq order; `start` skips evicted ones without shifting. */
interface AddressList {
  key: string;
  items: Entry[];
  start: number;
}

function pack(r: TxRecord): Buffer {
  const rest: Packed = {
    fee: r.fee, logs: r.logs, preBalances: r.preBalances, postBalances: r.postBalances, preTokenBalances: r.preTokenBalances,
    postTokenBalances: r.postTokenBalances, innerInstructions: r.innerInstructions, computeUnitsConsumed: r.computeUnitsConsumed,
    returnData: r.returnData, loadedAddresses: r.loadedAddresses, bytes: Buffer.from(r.bytes).toString('base64'),
  };
  const z = deflateRawSync(JSON.stringify(rest), { level: zlibConstants.Z_BEST_SPEED });
  // zlib hands back a view of its 16 KB output chunk: kept as is, every ~1.3 KB record would pin
  // 16 KB of memory outside the heap. An exact-size copy outside Buffer's shared pool holds only its bytes.
  const exact = Buffer.allocUnsafeSlow(z.length);
  z.copy(exact);
  return exact;
}

function unpack(e: Entry, log: LogReader | null): TxRecord | undefined {
  if (e.full) return e.full;
  if (!e.packed) {
    const rec = log && e.off >= 0 ? log.read({ offset: e.off, length: e.len }) : null;
    return rec && rec.signature === e.signature ? rec : undefined;
  }
  const rest = JSON.parse(inflateRawSync(e.packed as Buffer).toString('utf8')) as Packed;
  return {
    ...rest, seq: e.seq, signature: e.signature, slot: e.slot, blockTime: e.blockTime, err: e.err, memo: e.memo,
    accountKeys: e.lists.map((l) => l.key), bytes: new Uint8Array(Buffer.from(rest.bytes, 'base64')),
  };
}

/** Ring of the last `capacity` transactions, indexed by signature and by every account key. */
export class TxHistory {
  private readonly ring: (Entry | undefined)[];
  private head = 0;
  private count = 0;
  private nextSeq = 1;
  private readonly bySig = new Map<string, Entry>();
  private readonly byAddress = new Map<string, AddressList>();
  private log: LogReader | null = null;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.ring = new Array(capacity);
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
    const e = this.bySig.get(signature);
    if (e) { e.off = ref.offset; e.len = ref.length; }
  }

  /** Adds a record (its `seq` is assigned here unless restoring) and evicts the oldest if full; `ref` is its line in the log when already written. */
  add(rec: Omit<TxRecord, 'seq'> & { seq?: number }, ref?: LogRef): TxRecord {
    const full = rec as TxRecord;
    full.seq = rec.seq ?? this.nextSeq;
    this.nextSeq = Math.max(this.nextSeq, full.seq + 1);
    if (this.count === this.capacity) this.evictOldest();
    const lists: AddressList[] = [];
    const entry: Entry = { seq: full.seq, signature: full.signature, slot: full.slot, blockTime: full.blockTime, err: full.err, memo: full.memo, lists, full, packed: null, off: ref?.offset ?? -1, len: ref?.length ?? 0 };
    for (const key of full.accountKeys) {
      let list = this.byAddress.get(key);
      if (!list) this.byAddress.set(key, (list = { key, items: [], start: 0 }));
      lists.push(list);
      // A key listed twice indexes the record once.
      if (list.items[list.items.length - 1] !== entry) list.items.push(entry);
    }
    this.ring[(this.head + this.count) % this.capacity] = entry;
    this.count++;
    this.bySig.set(full.signature, entry);
    if (this.count > HOT_RECORDS) {
      const cold = this.ring[(this.head + this.count - 1 - HOT_RECORDS) % this.capacity] as Entry;
      if (cold.full) {
        if (!(this.log && cold.off >= 0)) cold.packed = pack(cold.full);
        cold.full = null;
      }
    }
    return full;
  }

  /** The whole record (inflated when it has been packed). */
  get(signature: string): TxRecord | undefined {
    const e = this.bySig.get(signature);
    return e ? unpack(e, this.log) : undefined;
  }

  /** Bytes of memory the packed records hold, backing stores included (what they pin outside the heap). */
  packedBytes(): number {
    let n = 0;
    for (let i = 0; i < this.count; i++) n += (this.ring[(this.head + i) % this.capacity] as Entry).packed?.buffer.byteLength ?? 0;
    return n;
  }

  /** Whether the signature landed, with its slot, time and error (no inflating). */
  status(signature: string): TxSummary | undefined {
    return this.bySig.get(signature);
  }

  /** Records that mention `address`, newest first, bounded by before/until/limit (Solana semantics). */
  signaturesFor(address: string, q: SignaturesQuery): TxSummary[] {
    const list = this.byAddress.get(address);
    if (!list) return [];
    const items = list.items;
    let start = items.length - 1;
    if (q.before !== undefined) {
      const b = this.bySig.get(q.before);
      if (!b) return [];
      start = lowerBound(items, list.start, b.seq) - 1;
    }
    const untilSeq = q.until !== undefined ? (this.bySig.get(q.until)?.seq ?? 0) : 0;
    const out: TxSummary[] = [];
    for (let i = start; i >= list.start && out.length < q.limit; i--) {
      if (items[i].seq <= untilSeq) break;
      out.push(items[i]);
    }
    return out;
  }

  /** Every record, oldest first (one the log no longer holds is skipped). */
  *records(): IterableIterator<TxRecord> {
    for (let i = 0; i < this.count; i++) {
      const r = unpack(this.ring[(this.head + i) % this.capacity] as Entry, this.log);
      if (r) yield r;
    }
  }

  /** Every record, oldest first, as compaction of the log needs it (ChainStore.snapshot). */
  *logEntries(): IterableIterator<LogEntry> {
    for (let i = 0; i < this.count; i++) {
      const e = this.ring[(this.head + i) % this.capacity] as Entry;
      yield {
        ref: e.off >= 0 ? { offset: e.off, length: e.len } : null,
        record: () => unpack(e, this.log),
        move: (ref) => { e.off = ref.offset; e.len = ref.length; },
      };
    }
  }

  private evictOldest(): void {
    const old = this.ring[this.head] as Entry;
    this.ring[this.head] = undefined;
    this.head = (this.head + 1) % this.capacity;
    this.count--;
    this.bySig.delete(old.signature);
    for (const list of new Set(old.lists)) {
      if (list.items[list.start] === old) list.items[list.start++] = undefined as unknown as Entry;
      if (list.start === list.items.length) this.byAddress.delete(list.key);
      else if (list.start > 1024 && list.start * 2 > list.items.length) {
        list.items = list.items.slice(list.start);
        list.start = 0;
      }
    }
  }
}

function lowerBound(list: Entry[], from: number, seq: number): number {
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid].seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
