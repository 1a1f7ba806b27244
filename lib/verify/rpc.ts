/**
 * What the browser reads from the chain itself, over the cluster's JSON-RPC (the URL the server
 * is configured with, passed to the page as a prop, never taken from the page's URL): the signer
 * of an agent, i.e. the owner of the Token-2022 account holding the agent's identity NFT
 * (docs/chain.md), and an agent's BatchAccount for an epoch (PDA [b"batch", agent, epoch]).
 *
 * The embedded chain answers CORS (lib/devchain/server.ts), so the browser calls it directly
 * instead of through a proxy on our server: a proxy would put our server back between the viewer
 * and the chain. A remote viewer reaches the embedded chain only if its port is reachable; the
 * failing step then names the RPC URL.
 */
import { Connection, PublicKey, findIdentityHolder } from '../chain';
import { decodeBatchAccount, findBatchPda } from '../chain/gen/behavior_log';
import type { OnChainBatch } from './inclusion';
import type { SignerResolution } from './envelope';

const connections = new Map<string, Connection>();
function connection(rpcUrl: string): Connection {
  let c = connections.get(rpcUrl);
  if (!c) {
    c = new Connection(rpcUrl, { commitment: 'confirmed', disableRetryOnRateLimit: true });
    connections.set(rpcUrl, c);
  }
  return c;
}

const why = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The identity NFT holder of `agent` as its signer key (docs/protocol.md §2 "Signer registry"). */
export async function resolveSigner(rpcUrl: string, agent: Uint8Array): Promise<SignerResolution> {
  try {
    const mint = new PublicKey(agent);
    const h = await findIdentityHolder(connection(rpcUrl), mint);
    if (!h) return { error: `no Token-2022 account holds the identity NFT ${mint.toBase58()} (RPC ${rpcUrl})` };
    return { keys: [h.owner.toBytes()], detail: `holder ${h.owner.toBase58()} of token account ${h.tokenAccount.toBase58()} (RPC ${rpcUrl})` };
  } catch (e) {
    return { error: `RPC ${rpcUrl}: ${why(e)}` };
  }
}

/** The BatchAccount of (agent, epoch) read directly from the chain. */
export async function readBatchAccount(rpcUrl: string, agent: Uint8Array, epoch: bigint): Promise<OnChainBatch> {
  try {
    const [pda] = findBatchPda(new PublicKey(agent), epoch);
    const info = await connection(rpcUrl).getAccountInfo(pda);
    if (!info) return { error: `no BatchAccount at ${pda.toBase58()} (RPC ${rpcUrl})` };
    const b = decodeBatchAccount(new Uint8Array(info.data));
    if (!b) return { error: `account ${pda.toBase58()} is not a BatchAccount` };
    return { agent: b.agent.toBytes(), epoch: b.epoch, logMerkleRoot: b.logMerkleRoot, address: pda.toBase58() };
  } catch (e) {
    return { error: `RPC ${rpcUrl}: ${why(e)}` };
  }
}
