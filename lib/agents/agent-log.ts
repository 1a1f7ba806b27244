/**
 * A demo agent's own log (docs/protocol.md §5): every envelope it sent, every envelope
 * addressed to it, and FEEDBACK about it, kept with id and bytes so its epoch batches
 * (chain-duties.ts) are built from exactly what it saw, in the order the indexer verifies.
 */
import { toHex } from '../protocol/hex';
import type { LogItem } from './chain-duties';

/** Most entries kept; older ones are dropped first (an epoch's batch is built shortly after it ends). */
const MAX_ENTRIES = 20_000;

export class AgentLog {
  #items: LogItem[] = [];

  record(item: LogItem): void {
    this.#items.push(item);
    if (this.#items.length > MAX_ENTRIES) this.#items = this.#items.slice(-MAX_ENTRIES / 2);
  }

  /**
   * Entries with timestamp in [fromUs, toUs), each envelope once, in recording order. Entries
   * before `fromUs` are dropped: batches are built epoch after epoch.
   */
  window(fromUs: bigint, toUs: bigint): LogItem[] {
    const seen = new Set<string>();
    const out: LogItem[] = [];
    for (const x of this.#items) {
      const t = x.envelope.timestamp;
      if (t < fromUs || t >= toUs) continue;
      const k = toHex(x.id);
      if (seen.has(k)) continue;
      seen.add(k);
      out.push(x);
    }
    this.#items = this.#items.filter((x) => x.envelope.timestamp >= fromUs);
    return out;
  }

  get size(): number {
    return this.#items.length;
  }
}
