/**
 * What the same-origin chain proxy (app/api/chain/rpc) forwards: standard Solana JSON-RPC HTTP
 * methods only. The embedded chain also answers development methods (lib/devchain rpc-dev.ts,
 * e.g. zerox1_warpSlot, which moves the chain's slots); forwarded from a browser they would let
 * any visitor move the observatory's chain, so a body naming any method outside this list is
 * answered here and never reaches the chain.
 *
 * The same reading of the body gives the proxy's limits what they count: how many calls a batch
 * holds (capped), how many of them are expensive ({@link isHeavyCall}, on their own
 * budget), and which are airdrops (the faucet's budget). The budgets themselves live in the
 * server process (server/rpc-gate.ts, reached through the wallet services). The reading lives
 * here rather than beside them because the route reads the body itself and app/ never imports
 * server/; it is the server side of Solana's JSON-RPC, so node-only lib/chain.
 */

/** Solana's JSON-RPC HTTP methods (docs.solana.com "RPC HTTP methods"), the deprecated ones included. */
export const SOLANA_HTTP_METHODS: ReadonlySet<string> = new Set([
  'getAccountInfo',
  'getBalance',
  'getBlock',
  'getBlockCommitment',
  'getBlockHeight',
  'getBlockProduction',
  'getBlockTime',
  'getBlocks',
  'getBlocksWithLimit',
  'getClusterNodes',
  'getEpochInfo',
  'getEpochSchedule',
  'getFeeForMessage',
  'getFirstAvailableBlock',
  'getGenesisHash',
  'getHealth',
  'getHighestSnapshotSlot',
  'getIdentity',
  'getInflationGovernor',
  'getInflationRate',
  'getInflationReward',
  'getLargestAccounts',
  'getLatestBlockhash',
  'getLeaderSchedule',
  'getMaxRetransmitSlot',
  'getMaxShredInsertSlot',
  'getMinimumBalanceForRentExemption',
  'getMultipleAccounts',
  'getProgramAccounts',
  'getRecentPerformanceSamples',
  'getRecentPrioritizationFees',
  'getSignatureStatuses',
  'getSignaturesForAddress',
  'getSlot',
  'getSlotLeader',
  'getSlotLeaders',
  'getStakeMinimumDelegation',
  'getSupply',
  'getTokenAccountBalance',
  'getTokenAccountsByDelegate',
  'getTokenAccountsByOwner',
  'getTokenLargestAccounts',
  'getTokenSupply',
  'getTransaction',
  'getTransactionCount',
  'getVersion',
  'getVoteAccounts',
  'isBlockhashValid',
  'minimumLedgerSlot',
  'requestAirdrop',
  'sendTransaction',
  'simulateTransaction',
  'getConfirmedBlock',
  'getConfirmedBlocks',
  'getConfirmedBlocksWithLimit',
  'getConfirmedSignaturesForAddress2',
  'getConfirmedTransaction',
  'getFeeCalculatorForBlockhash',
  'getFeeRateGovernor',
  'getFees',
  'getRecentBlockhash',
  'getSnapshotSlot',
  'getStakeActivation',
]);

/**
 * Methods whose cost grows with the chain's history or accounts (scans, history pages, whole
 * blocks, many accounts at once): each call takes a token of the client's `heavy` budget as well.
 */
export const HEAVY_RPC_METHODS: ReadonlySet<string> = new Set([
  'getProgramAccounts',
  'getSignaturesForAddress',
  'getConfirmedSignaturesForAddress2',
  'getTransaction',
  'getConfirmedTransaction',
  'getBlock',
  'getConfirmedBlock',
  'getBlocks',
  'getBlocksWithLimit',
  'getConfirmedBlocks',
  'getConfirmedBlocksWithLimit',
  'getLargestAccounts',
  'getTokenLargestAccounts',
  'getTokenAccountsByOwner',
  'getTokenAccountsByDelegate',
  'getBlockProduction',
  'getLeaderSchedule',
  'getVoteAccounts',
  'getClusterNodes',
  'getSupply',
  'getInflationReward',
  'getRecentPerformanceSamples',
]);

/**
 * getMultipleAccounts of a few keys costs what as many getAccountInfo calls cost, and pages read
 * an agent's Stake and Lease, or a transaction's accounts for its preview, that way every few
 * seconds; past this many keys it is an expensive call.
 */
export const HEAVY_MULTIPLE_ACCOUNTS_KEYS = 10;

/** Whether one call takes a token of the expensive-call budget. */
export function isHeavyCall(c: Pick<RpcCall, 'method' | 'params'>): boolean {
  if (c.method === 'getMultipleAccounts') {
    const keys = Array.isArray(c.params) && Array.isArray(c.params[0]) ? c.params[0].length : Infinity;
    return keys > HEAVY_MULTIPLE_ACCOUNTS_KEYS;
  }
  return HEAVY_RPC_METHODS.has(c.method);
}

/** Most calls in one batch unless the server says otherwise. */
export const DEFAULT_RPC_MAX_BATCH = 50;

/**
 * A JSON-RPC error answer the proxy gives itself: HTTP 200 as a JSON-RPC server would, or the
 * given status where a stock client should see the HTTP status (web3.js backs off and retries
 * on 429, reads `Retry-After`, and shows the body of any other error status).
 */
export function rpcError(
  id: unknown,
  code: number,
  message: string,
  status = 200,
  headers: Record<string, string> = {},
): Response {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: id ?? null });
  return new Response(body, {
    status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}

/** One call of a request body. */
export interface RpcCall {
  method: string;
  id: unknown;
  params: unknown;
}

/** What the proxy forwards: the calls, whether they came as a batch, and what they cost. */
export interface RpcBody {
  calls: RpcCall[];
  batch: boolean;
  /** Expensive calls ({@link isHeavyCall}). */
  heavy: number;
  /** The requestAirdrop calls. */
  airdrops: RpcCall[];
}

/**
 * Reads a request body: the calls to forward, or the answer to send instead (-32700 for JSON
 * that does not parse; -32601 naming a method that is not a standard Solana one; HTTP 413 with
 * -32600 for a batch over `maxBatch` calls, or an empty one). Anything else malformed is left for
 * the chain to answer (-32600).
 */
export function inspectRpcBody(body: Uint8Array, maxBatch = DEFAULT_RPC_MAX_BATCH): RpcBody | Response {
  const refused = refuseNonStandard(body);
  if (refused) return refused;
  const parsed: unknown = JSON.parse(Buffer.from(body).toString('utf8'));
  const batch = Array.isArray(parsed);
  const list: unknown[] = batch ? parsed : [parsed];
  if (batch && list.length === 0) return rpcError(null, -32600, 'Invalid Request: an empty batch', 413);
  if (list.length > maxBatch) {
    return rpcError(
      null,
      -32600,
      `Invalid Request: a batch of ${list.length} calls is over ` +
        `this proxy's cap of ${maxBatch} calls per request; split it`,
      413,
    );
  }
  const calls = list.map((r): RpcCall => {
    const o = r && typeof r === 'object' ? (r as { method?: unknown; id?: unknown; params?: unknown }) : {};
    return { method: typeof o.method === 'string' ? o.method : '', id: o.id, params: o.params };
  });
  return {
    calls,
    batch,
    heavy: calls.filter(isHeavyCall).length,
    airdrops: calls.filter((c) => c.method === 'requestAirdrop'),
  };
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
      return rpcError(
        id,
        -32601,
        `Method not found: ${method.slice(0, 64)} is not a standard Solana method; this proxy forwards only those`,
      );
    }
  }
  return null;
}
