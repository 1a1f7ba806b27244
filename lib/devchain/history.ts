/**
 * Bounded in-memory transaction history with a per-address index, so history queries
 * (getSignaturesForAddress, getTransaction) work as on a cluster. Oldest records are evicted first.
 */
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

export interface SignaturesQuery {
  limit: number;
  before?: string;
  until?: string;
}

/** Ring of the last `capacity` transactions, indexed by signature and by every account key. */
export class TxHistory {
  private readonly ring: (TxRecord | undefined)[];
  private head = 0;
  private count = 0;
  private nextSeq = 1;
  private readonly bySig = new Map<string, TxRecord>();
  private readonly byAddress = new Map<string, AddressList>();

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

  /** Adds a record (its `seq` is assigned here unless restoring) and evicts the oldest if full. */
  add(rec: Omit<TxRecord, 'seq'> & { seq?: number }): TxRecord {
    const full = rec as TxRecord;
    full.seq = rec.seq ?? this.nextSeq;
    this.nextSeq = Math.max(this.nextSeq, full.seq + 1);
    if (this.count === this.capacity) this.evictOldest();
    this.ring[(this.head + this.count) % this.capacity] = full;
    this.count++;
    this.bySig.set(full.signature, full);
    for (const key of new Set(full.accountKeys)) {
      let list = this.byAddress.get(key);
      if (!list) this.byAddress.set(key, (list = { items: [], start: 0 }));
      list.items.push(full);
    }
    return full;
  }

  get(signature: string): TxRecord | undefined {
    return this.bySig.get(signature);
  }

  /** Records that mention `address`, newest first, bounded by before/until/limit (Solana semantics). */
  signaturesFor(address: string, q: SignaturesQuery): TxRecord[] {
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
    const out: TxRecord[] = [];
    for (let i = start; i >= list.start && out.length < q.limit; i--) {
      if (items[i].seq <= untilSeq) break;
      out.push(items[i]);
    }
    return out;
  }

  /** Every record, oldest first (for persistence). */
  *records(): IterableIterator<TxRecord> {
    for (let i = 0; i < this.count; i++) yield this.ring[(this.head + i) % this.capacity] as TxRecord;
  }

  private evictOldest(): void {
    const old = this.ring[this.head] as TxRecord;
    this.ring[this.head] = undefined;
    this.head = (this.head + 1) % this.capacity;
    this.count--;
    this.bySig.delete(old.signature);
    for (const key of new Set(old.accountKeys)) {
      const list = this.byAddress.get(key);
      if (!list) continue;
      if (list.items[list.start] === old) list.items[list.start++] = undefined as unknown as TxRecord;
      if (list.start === list.items.length) this.byAddress.delete(key);
      else if (list.start > 1024 && list.start * 2 > list.items.length) {
        list.items = list.items.slice(list.start);
        list.start = 0;
      }
    }
  }
}

/** Records of one address in seq order; `start` skips evicted ones without shifting. */
interface AddressList {
  items: TxRecord[];
  start: number;
}

function lowerBound(list: TxRecord[], from: number, seq: number): number {
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid].seq < seq) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
