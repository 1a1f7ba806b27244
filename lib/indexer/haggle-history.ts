/**
 * A Haggle negotiation account's whole history read back from the chain (every transaction that
 * touched the address, oldest first), as the indexer's event inputs: folded with
 * lib/store/chain/haggle-fold.ts they give the rows the indexer stores, so verify-dataset --rpc holds a
 * release's on-chain negotiation columns against the chain itself, closed accounts included.
 */
import { type Connection, PublicKey } from '../chain';
import { signaturesOldestFirst } from '../chain/address-history';
import { parseEvents } from '../chain/events';
import type { HaggleEventInput } from '../store/chain';
import { haggleEventInput } from './haggle';

/** Every Haggle event of `address` (base58) in chain order, or why it could not be read. */
export async function haggleHistory(
  connection: Connection,
  address: string,
): Promise<HaggleEventInput[] | { error: string }> {
  let key: PublicKey;
  try {
    key = new PublicKey(address);
  } catch {
    return { error: `${address} is not an account address` };
  }
  try {
    const signatures = await signaturesOldestFirst(connection, key);
    const out: HaggleEventInput[] = [];
    // Replayed oldest first, as the indexer applied them.
    for (const signature of signatures) {
      const t = await connection.getTransaction(signature, {
        commitment: 'confirmed',
        maxSupportedTransactionVersion: 0,
      });
      if (!t) return { error: `getTransaction returned nothing for ${signature}` };
      if (t.meta?.err) continue;
      const tx = { signature, slot: t.slot, blockTime: t.blockTime ? new Date(t.blockTime * 1000) : null };
      parseEvents(t.meta?.logMessages ?? []).forEach((e, index) => {
        const r = haggleEventInput(e, tx, index);
        if (r && r.negotiation === address) out.push(r);
      });
    }
    return out.sort((a, b) => (a.slot !== b.slot ? (a.slot < b.slot ? -1 : 1) : 0));
  } catch (e) {
    return { error: `RPC: ${e instanceof Error ? e.message : String(e)}` };
  }
}
