/**
 * Shapes shared by the demo-mesh parent and its agent processes (IPC messages are JSON:
 * bytes as lowercase hex).
 */

import type { AgentChainConfig, PublishedBatch } from './chain-duties';
import type { StrategyName } from './strategies';

/** Everything one agent process needs; sent as the first IPC message. */
export interface AgentConfig {
  index: number;
  /** Ed25519 signing seed (hex, 32 bytes): the agent's owner key, registered by the parent. */
  seedHex: string;
  /** Agent id (hex, 32 bytes): the Token-2022 NFT mint with `chain`, random otherwise. */
  agentIdHex: string;
  strategy: StrategyName;
  bootstrap: string[];
  /**
   * Honest agents' owner keys (agent hex → public key hex), for the agent's own live validation and its chain duties.
   */
  directory: Record<string, string>;
  /**
   * Further keys that sign for an agent (its delegate hot wallets: agent hex → public key hex), for live validation.
   */
  signers?: Record<string, string[]>;
  /**
   * A delegate hot wallet (SATI DelegateV1): the agent signs its envelopes with this seed instead
   * of the owner's; from `fallbackAtMs` on (its delegation has expired) with the owner's again.
   * The owner still signs its epoch logs and every transaction.
   */
  delegate?: { seedHex: string; fallbackAtMs?: number };
  /** Send invalid envelopes of every docs/protocol.md §3 reason to the observer. */
  misbehave: boolean;
  /** Start deals on its own (the demo); false = only when told (tests). */
  autopilot: boolean;
  rngSeed: number;
  /** Probability a VERDICT passes (1 in tests). */
  verdictPassRate: number;
  /** 'ipc': uploads go to the parent; otherwise POST to `${observerUrl}/api/ingest/envelopes`. */
  observerUrl?: string;
  uploadVia: 'ipc' | 'http';
  uploadIntervalMs: number;
  /** Mean ms between autopilot actions. */
  tickMs: number;
  /** Nonce the agent starts from (above anything it used before). */
  nonceStart: string;
  /** On-chain duties: identity, stake, lease, batches; absent = off chain. */
  chain?: AgentChainConfig;
  /**
   * A feedback ring it belongs to: every `everyMs` it rates the other members (hex ids, itself included) without a
   * deal.
   */
  ring?: { members: string[]; everyMs: number };
  /** Never trades: opens no deal and answers no PROPOSE (a ring's throwaway identity). */
  idle?: boolean;
  /** Agents it never opens a deal with (the idle ones: they would not answer). */
  avoid?: string[];
}

export type ParentToAgent =
  | { t: 'config'; config: AgentConfig }
  | { t: 'peers'; peers: Record<string, string[]> }
  | { t: 'open'; seller: string; sealed: boolean; conversationIdHex?: string }
  | { t: 'flush'; reqId: number }
  | { t: 'upload_result'; reqId: number; ok: boolean }
  | { t: 'fault'; reason: string; reqId: number }
  | { t: 'published'; batch: PublishedBatch }
  /** The agent's identity is registered (on chain: confirmed): it may gossip now. */
  | { t: 'registered' }
  /** Its wallet holds SOL and USDC: the on-chain duties (stake, lease, batches) may start. */
  | { t: 'funded' }
  | { t: 'stop' };

export type AgentToParent =
  | { t: 'ready'; agentIdHex: string; peerId: string; multiaddrs: string[] }
  | { t: 'sent'; id: string; msgType: number; conversationIdHex: string; to: string; via: 'gossip' | 'stream' }
  | { t: 'deal'; conversationIdHex: string; role: 'buyer' | 'seller'; phase: string; outcome?: string; price?: number }
  | { t: 'upload'; reqId: number; bodyHex: string }
  /** An epoch log upload (POST /api/ingest/log body); answered with `upload_result`. */
  | { t: 'upload_log'; reqId: number; bodyHex: string }
  | { t: 'flushed'; reqId: number }
  | { t: 'faulted'; reqId: number; id: string }
  | { t: 'error'; message: string }
  | { t: 'chain'; message: string }
  | { t: 'published'; batch: PublishedBatch };

/** What a DemoAgent needs from the process that runs it. */
export interface AgentHooks {
  emit(msg: AgentToParent): void;
  /** Sends an upload body; resolves true when the observer took it. */
  upload(body: Uint8Array): Promise<boolean>;
  /** Sends an epoch-log upload body (CBOR [agent_id, epoch, [envelope…]]); true when stored. */
  uploadLog?(body: Uint8Array): Promise<boolean>;
  now?: () => number;
}
