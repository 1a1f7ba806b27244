/**
 * Every confirmed transaction signature that touched an address, oldest first: the RPC pages
 * them newest first, 1,000 at a time. Release anchors and a Haggle account's history both replay
 * an address's transactions in chain order from this.
 */
import type { Connection, PublicKey } from '@solana/web3.js';

export async function signaturesOldestFirst(connection: Connection, address: PublicKey): Promise<string[]> {
  const out: string[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await connection.getSignaturesForAddress(address, { before, limit: 1000 }, 'confirmed');
    for (const p of page) out.push(p.signature);
    if (page.length < 1000) break;
    before = page[page.length - 1].signature;
  }
  return out.reverse();
}
