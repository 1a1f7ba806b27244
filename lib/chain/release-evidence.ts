/**
 * The chain reads behind a dataset release and its verification (docs/datasets.md "Chain
 * evidence"), over JSON-RPC, browser-safe: who SATI allows to sign for an agent with the
 * accounts that say so, every account of an epoch in the BehaviorLog, challenge and Haggle
 * programs, and an agent-epoch's BatchAccount root. The release scheduler writes what these
 * return into the manifest; verify-dataset --rpc reads them again and compares.
 */

import type { Connection, PublicKey as PublicKeyType } from '@solana/web3.js';
import { PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import { toHex } from '../protocol/hex';
import * as haggle from './gen/haggle';
import { negotiationAddress } from './haggle';
import { behaviorLog, challenge, PROGRAM_IDS } from './programs';
import { readReleaseAnchors } from './release-anchor';
import { readSatiSigners, type SatiRuleAddresses } from './sati-signers';

/** Byte offset of `epoch` (u64 LE) in a BatchAccount: discriminator, agent, signer. */
export const BATCH_EPOCH_OFFSET = 8 + 32 + 32;
/** Byte offset of `epoch` (u64 LE) in a Challenge: discriminator, challenger, challenger_usdc, batch, agent. */
export const CHALLENGE_EPOCH_OFFSET = 8 + 32 * 4;

/** The challenge program's status byte, by the names the indexer stores (lib/indexer/json.ts). */
const CHALLENGE_STATUS: Record<number, string> = { 0: 'pending', 1: 'upheld', 2: 'rejected', 3: 'void', 4: 'expired' };

const u64le = (v: bigint) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, v, true);
  return b;
};

/**
 * Who may sign for `agent` by SATI's rule, with evidence: the owner (holder of the NFT), and
 * every DelegateV1 attestation naming the agent, expired ones included (`usable` says whether
 * the rule accepts it apart from its expiry), each with its account bytes; and the slot read at.
 */
export async function signerEvidence(connection: Connection, agent: Uint8Array, sati: SatiRuleAddresses) {
  const slot = String(await connection.getSlot('confirmed'));
  const mint = new PublicKey(agent);
  // At time 0 no delegation has expired yet, so the reasons left are everything but expiry.
  const r = await readSatiSigners(connection, mint, sati, 0);
  if (!r.ok) return { source: 'chain' as const, slot, unregistered: r.reason };
  return {
    source: 'chain' as const,
    slot,
    owner: toHex(r.owner.toBytes()),
    tokenAccount: r.tokenAccount.toBase58(),
    delegations: r.delegations
      .map((d) => ({
        address: d.account.address.toBase58(),
        delegate: toHex(d.delegate.toBytes()),
        delegator: toHex(d.delegator.toBytes()),
        expiry: d.expiry.toString(),
        data: toHex(d.account.data),
        usable: d.check.ok,
        ...(d.check.ok ? {} : { reason: d.check.reason }),
      }))
      .sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0)),
  };
}

const epochFilter = (discriminator: Uint8Array, offset: number, epoch: number) => [
  { memcmp: { offset: 0, bytes: bs58.encode(discriminator) } },
  { memcmp: { offset, bytes: bs58.encode(u64le(BigInt(epoch))) } },
];

/**
 * The epoch's accounts on chain: its BehaviorLog BatchAccounts and the challenges of its batches
 * (getProgramAccounts filtered on each account's epoch field), and the Haggle negotiations created
 * in [fromUs, toUs) that are still open (a closed negotiation frees its account, so it is not listed).
 */
export async function epochAccounts(connection: Connection, epoch: number, fromUs: bigint, toUs: bigint) {
  // Read first: every account listed below existed at this slot or later.
  const slot = String(await connection.getSlot('confirmed'));
  const [batches, challenges, negotiations] = await Promise.all([
    connection.getProgramAccounts(PROGRAM_IDS.behaviorLog, {
      commitment: 'confirmed',
      filters: epochFilter(behaviorLog.BATCH_ACCOUNT_DISCRIMINATOR, BATCH_EPOCH_OFFSET, epoch),
    }),
    connection.getProgramAccounts(PROGRAM_IDS.challenge, {
      commitment: 'confirmed',
      filters: epochFilter(challenge.CHALLENGE_DISCRIMINATOR, CHALLENGE_EPOCH_OFFSET, epoch),
    }),
    connection.getProgramAccounts(PROGRAM_IDS.haggle, {
      commitment: 'confirmed',
      filters: [{ memcmp: { offset: 0, bytes: bs58.encode(haggle.NEGOTIATION_DISCRIMINATOR) } }],
    }),
  ]);
  const fromSec = fromUs / 1_000_000n;
  const toSec = toUs / 1_000_000n;
  const key = (p: PublicKeyType) => p.toBase58();
  return {
    slot,
    batches: batches.flatMap((a) => {
      const b = behaviorLog.decodeBatchAccount(new Uint8Array(a.account.data));
      return b && b.epoch === BigInt(epoch)
        ? [{ address: key(a.pubkey), agent: toHex(b.agent.toBytes()), submittedSlot: String(b.submittedSlot) }]
        : [];
    }),
    challenges: challenges.flatMap((a) => {
      const c = challenge.decodeChallenge(new Uint8Array(a.account.data));
      return c && c.epoch === BigInt(epoch)
        ? [
            {
              address: key(a.pubkey),
              agent: toHex(c.agent.toBytes()),
              submittedSlot: String(c.submittedSlot),
              challenger: toHex(c.challenger.toBytes()),
              status: CHALLENGE_STATUS[c.status] ?? String(c.status),
              resolvedSlot: String(c.resolvedSlot),
            },
          ]
        : [];
    }),
    negotiations: negotiations.flatMap((a) => {
      const n = haggle.decodeNegotiation(new Uint8Array(a.account.data));
      return n && n.createdAt >= fromSec && n.createdAt < toSec
        ? [{ address: key(a.pubkey), conversationId: toHex(n.conversationId) }]
        : [];
    }),
  };
}

/**
 * The Haggle negotiation accounts two wallets (hex keys) would open for a conversation, either
 * one the buyer: where a negotiation of theirs would be, on chain or closed.
 */
export function negotiationAddresses(a: string, b: string, conversationId: string): string[] {
  const key = (h: string) => new PublicKey(Uint8Array.from(Buffer.from(h, 'hex')));
  const conv = Uint8Array.from(Buffer.from(conversationId, 'hex'));
  if (conv.length !== 16) return [];
  return [
    [a, b],
    [b, a],
  ].map(([buyer, seller]) =>
    negotiationAddress({ buyer: key(buyer), seller: key(seller), conversationId: conv }).toBase58(),
  );
}

/** The BatchAccount root of (agent, epoch), hex, with the summary counts it records, or why it could not be read. */
export async function batchRoot(
  connection: Connection,
  agent: Uint8Array,
  epoch: bigint,
): Promise<{ root: string; address: string; counts: Record<string, string> } | { error: string }> {
  const [pda] = behaviorLog.findBatchPda(new PublicKey(agent), epoch);
  try {
    const info = await connection.getAccountInfo(pda, 'confirmed');
    if (!info) return { error: `no BatchAccount at ${pda.toBase58()}` };
    const b = behaviorLog.decodeBatchAccount(new Uint8Array(info.data));
    if (!b) return { error: `account ${pda.toBase58()} is not a BatchAccount` };
    const counts = {
      messageCount: String(b.messageCount),
      bidCount: String(b.bidCount),
      taskCount: String(b.taskCount),
      verifierCount: String(b.verifierCount),
      feedbackCount: String(b.feedbackCount),
      overflow: String(b.overflow),
    };
    return { root: toHex(b.logMerkleRoot), address: pda.toBase58(), counts };
  } catch (e) {
    return { error: `RPC: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/**
 * The reads bound to one connection and SATI's addresses (lib/export's ReleaseChain; the Haggle
 * history read, lib/indexer/haggle-history.ts, is added by whoever composes it).
 */
export function releaseChain(connection: Connection, sati: SatiRuleAddresses) {
  return {
    anchors: (publicKeyHex: string) => readReleaseAnchors(connection, publicKeyHex),
    slot: async () => String(await connection.getSlot('confirmed')),
    negotiationAddresses: (a: string, b: string, conversationId: string) => negotiationAddresses(a, b, conversationId),
    signers: (agent: Uint8Array) => signerEvidence(connection, agent, sati),
    epochAccounts: (epoch: number, fromUs: bigint, toUs: bigint) => epochAccounts(connection, epoch, fromUs, toUs),
    batchRoot: (agent: Uint8Array, epoch: bigint) => batchRoot(connection, agent, epoch),
  };
}
