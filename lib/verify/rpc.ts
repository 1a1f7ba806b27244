/**
 * What the browser reads from the chain itself, over the cluster's JSON-RPC (the URL and SATI's
 * addresses the server is configured with, passed to the page as props, never taken from the
 * page's URL): who may sign for an agent by SATI's rule, exactly as the observer decides it
 * (lib/chain/sati-signers.ts: a member of SATI's group; its owner and its valid DelegateV1
 * delegates), and an agent's BatchAccount for an epoch (PDA [b"batch", agent, epoch]).
 *
 * The embedded chain answers CORS (lib/devchain/server.ts), so the browser calls it directly
 * instead of through a proxy on our server: a proxy would put our server back between the viewer
 * and the chain. A remote viewer reaches the embedded chain only if its port is reachable; the
 * failing step then names the RPC URL.
 */
import { Connection, PublicKey } from '../chain';
import { decodeBatchAccount, findBatchPda } from '../chain/gen/behavior_log';
import { SATI_MAINNET } from '../chain/sati';
import { readSatiSigners, type SatiRuleAddresses } from '../chain/sati-signers';
import type { SatiAddressesView } from '../wire';
import type { SignerResolution } from './envelope';
import type { OnChainBatch } from './inclusion';

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

const REASONS: Record<string, string> = {
  unregistered: 'is not a SATI agent (no such Token-2022 mint, or no SATI registry on this chain)',
  not_nft: 'is a Token-2022 mint but not an NFT (decimals, supply or mint authority)',
  not_sati_member: "is a Token-2022 NFT that is not a member of SATI's group",
};

/** SATI's addresses from the page's props (base58), or mainnet's (which the embedded chain uses too). */
export function satiAddressesOf(v: SatiAddressesView | null | undefined): SatiRuleAddresses {
  if (!v) return SATI_MAINNET;
  return {
    program: new PublicKey(v.program),
    sas: new PublicKey(v.sas),
    credential: new PublicKey(v.credential),
    delegateSchema: new PublicKey(v.delegateSchema),
  };
}

/**
 * Who may sign for `agent` now, by SATI's rule (docs/protocol.md §2 "Signer registry"): the
 * owner of the token account holding the NFT and every delegate with a valid DelegateV1
 * attestation by that owner. `nowSec` is the viewer's clock (delegation expiry).
 */
export async function resolveSigner(
  rpcUrl: string,
  agent: Uint8Array,
  sati?: SatiAddressesView | null,
  nowSec = Math.floor(Date.now() / 1000),
): Promise<SignerResolution> {
  try {
    const mint = new PublicKey(agent);
    const r = await readSatiSigners(connection(rpcUrl), mint, satiAddressesOf(sati), nowSec);
    if (!r.ok) return { error: `${mint.toBase58()} ${REASONS[r.reason] ?? r.reason} (${r.reason}; RPC ${rpcUrl})` };
    const delegates = r.keys.slice(1).map((k) => k.toBase58());
    const refused = r.delegations
      .filter((d) => !d.check.ok)
      .map((d) => `${d.delegate.toBase58()} (${d.check.ok ? '' : d.check.reason})`);
    const name = r.registration.name
      ? `SATI agent "${r.registration.name}" #${r.registration.memberNumber}`
      : `SATI agent #${r.registration.memberNumber}`;
    const detail = [
      `${name}: owner ${r.owner.toBase58()} (token account ${r.tokenAccount.toBase58()})`,
      delegates.length ? `delegates ${delegates.join(', ')}` : null,
      refused.length ? `refused ${refused.join(', ')}` : null,
    ]
      .filter(Boolean)
      .join('; ');
    return { keys: r.keys.map((k) => k.toBytes()), detail: `${detail} (RPC ${rpcUrl})` };
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
