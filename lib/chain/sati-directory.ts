/**
 * Every registered SATI agent, enumerated from the chain without an indexer (docs/chain.md
 * "Discovery"): RegistryConfig's total_agents, then the AgentIndex PDAs 1…total_agents (each
 * holds a mint), then each mint read and checked with `satiRegistration` for its name and
 * registration-file uri. Reads go 100 accounts per getMultipleAccountsInfo. Browser-safe.
 */
import type { Connection, PublicKey } from '@solana/web3.js';
import {
  agentIndexAddress,
  decodeAgentIndex,
  decodeRegistryConfig,
  registryConfigAddress,
  type SatiAddresses,
  type SatiRegistered,
  satiRegistration,
} from './sati';

/** One AgentIndex entry and what its mint says now. */
export interface SatiDirectoryEntry {
  memberNumber: bigint;
  mint: PublicKey;
  /** The registration (name, uri, …), or why the mint does not pass the rule now. */
  registration: SatiRegistered | { ok: false; reason: string };
}

const PAGE = 100;

async function accounts(connection: Connection, keys: PublicKey[]) {
  const out = [];
  for (let i = 0; i < keys.length; i += PAGE)
    out.push(...(await connection.getMultipleAccountsInfo(keys.slice(i, i + PAGE), 'confirmed')));
  return out;
}

/**
 * Registered agents with member numbers `from` … min(total_agents, from + limit − 1), and
 * total_agents (null when there is no RegistryConfig: no registry on this chain). RPC failures throw.
 */
export async function readSatiDirectory(
  connection: Connection,
  sati: Pick<SatiAddresses, 'program'>,
  from = 1n,
  limit = 1_000,
): Promise<{ total: bigint | null; entries: SatiDirectoryEntry[] }> {
  if (typeof from !== 'bigint' || from < 1n) throw new RangeError('from must be a member number ≥ 1');
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError('limit must be a positive integer');
  const cfgInfo = await connection.getAccountInfo(registryConfigAddress(sati.program), 'confirmed');
  const cfg = cfgInfo?.owner.equals(sati.program) ? decodeRegistryConfig(cfgInfo.data) : null;
  if (!cfg) return { total: null, entries: [] };
  const last = cfg.totalAgents < from + BigInt(limit) - 1n ? cfg.totalAgents : from + BigInt(limit) - 1n;
  const numbers: bigint[] = [];
  for (let n = from; n <= last; n++) numbers.push(n);
  const indexes = await accounts(
    connection,
    numbers.map((n) => agentIndexAddress(n, sati.program)),
  );
  const found: { memberNumber: bigint; mint: PublicKey }[] = [];
  indexes.forEach((info, i) => {
    const ix = info?.owner.equals(sati.program) ? decodeAgentIndex(info.data) : null;
    if (ix) found.push({ memberNumber: numbers[i], mint: ix.mint });
  });
  const mints = await accounts(
    connection,
    found.map((f) => f.mint),
  );
  const entries = found.map((f, i): SatiDirectoryEntry => {
    const m = mints[i];
    const registration = satiRegistration(
      m ? { address: f.mint, owner: m.owner, data: m.data, lamports: m.lamports } : null,
      cfg,
    );
    return { ...f, registration };
  });
  return { total: cfg.totalAgents, entries };
}
