/**
 * What the same-origin chain proxy (app/api/chain/rpc) forwards: standard Solana JSON-RPC HTTP
 * methods only. The embedded chain also answers development methods (lib/devchain rpc-dev.ts,
 * e.g. zerox1_warpSlot, which moves the chain's slots); forwarded from a browser they would let
 * any visitor move the observatory's chain, so a body naming any method outside this list is
 * answered here and never reaches the chain.
 */

/** Solana's JSON-RPC HTTP methods (docs.solana.com "RPC HTTP methods"), the deprecated ones included. */
export const SOLANA_HTTP_METHODS: ReadonlySet<string> = new Set([
  'getAccountInfo', 'getBalance', 'getBlock', 'getBlockCommitment', 'getBlockHeight', 'getBlockProduction', 'getBlockTime',
  'getBlocks', 'getBlocksWithLimit', 'getClusterNodes', 'getEpochInfo', 'getEpochSchedule', 'getFeeForMessage',
  'getFirstAvailableBlock', 'getGenesisHash', 'getHealth', 'getHighestSnapshotSlot', 'getIdentity', 'getInflationGovernor',
  'getInflationRate', 'getInflationReward', 'getLargestAccounts', 'getLatestBlockhash', 'getLeaderSchedule',
  'getMaxRetransmitSlot', 'getMaxShredInsertSlot', 'getMinimumBalanceForRentExemption', 'getMultipleAccounts',
  'getProgramAccounts', 'getRecentPerformanceSamples', 'getRecentPrioritizationFees', 'getSignatureStatuses',
  'getSignaturesForAddress', 'getSlot', 'getSlotLeader', 'getSlotLeaders', 'getStakeMinimumDelegation', 'getSupply',
  'getTokenAccountBalance', 'getTokenAccountsByDelegate', 'getTokenAccountsByOwner', 'getTokenLargestAccounts',
  'getTokenSupply', 'getTransaction', 'getTransactionCount', 'getVersion', 'getVoteAccounts', 'isBlockhashValid',
  'minimumLedgerSlot', 'requestAirdrop', 'sendTransaction', 'simulateTransaction',
  'getConfirmedBlock', 'getConfirmedBlocks', 'getConfirmedBlocksWithLimit', 'getConfirmedSignaturesForAddress2',
  'getConfirmedTransaction', 'getFeeCalculatorForBlockhash', 'getFeeRateGovernor', 'getFees', 'getRecentBlockhash',
  'getSnapshotSlot', 'getStakeActivation',
]);

/** A JSON-RPC error answer the proxy gives itself (HTTP 200, as a JSON-RPC server would). */
function rpcError(id: unknown, code: number, message: string): Response {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: id ?? null });
  return new Response(body, { status: 200, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' } });
}

/**
 * null when every request in `body` (one request or a batch) names a standard method, else the
 * answer to send instead of forwarding: -32700 for JSON that does not parse, -32601 naming the
 * refused method. Anything else malformed is left for the chain to answer (-32600).
 */
export function refuseNonStandard(body: Uint8Array): Response | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return rpcError(null, -32700, 'Parse error');
  }
  const list = Array.isArray(parsed) ? parsed : [parsed];
  for (const r of list) {
    const method = r && typeof r === 'object' ? (r as { method?: unknown }).method : undefined;
    if (typeof method === 'string' && !SOLANA_HTTP_METHODS.has(method)) {
      // A batch is refused whole with one error (id null): no part of it reaches the chain.
      const id = Array.isArray(parsed) ? null : (r as { id?: unknown }).id;
      return rpcError(id, -32601, `Method not found: ${method.slice(0, 64)} is not a standard Solana method; this proxy forwards only those`);
    }
  }
  return null;
}
