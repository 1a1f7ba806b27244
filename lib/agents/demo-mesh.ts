/**
 * The demo swarm: DEMO_AGENTS agents, each a separate Node process with
 * its own libp2p node on loopback, Ed25519 owner key, 32-byte agent id (random, or an on-chain
 * identity whose mint key is chosen here so the id is known before the chain confirms it),
 * monotonic nonce and strategy. Start-up runs in parallel: the agents' processes load the
 * bundled entry (./agent-bundle.ts) and join the mesh while their identities are registered;
 * each agent is told the moment its own identity is registered (then it gossips) and funded
 * (then its on-chain duties start). The parent hands them the peer directory and relays their
 * uploads (in-process when `upload` is given, else they POST to `observerUrl`).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { getPriority, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { publicKeyFromSeed, sha256 } from '../protocol/crypto';
import { fromHex, toHex } from '../protocol/hex';
import { agentEntry } from './agent-bundle';
import type { AgentChainConfig } from './chain-duties';
import { STRATEGIES, type StrategyName } from './strategies';
import type { AgentConfig, AgentToParent, ParentToAgent } from './types';

/** The chain the demo runs on: agents get on-chain identities and duties. */
export interface DemoChainParams extends Omit<AgentChainConfig, 'role' | 'leaseMissRate'> {
  /**
   * Registers one SATI agent per wallet seed (owned by Keypair.fromSeed(seed), mint
   * Keypair.fromSeed(mintSeeds[i])) and, where `delegates[i]` is set, a DelegateV1 delegation of
   * that hot wallet (public key) by the owner until `expiry` (unix seconds, 0 = never); calls
   * `onIdentity(i)` as each one is usable, and resolves with the agent ids (mints) once every
   * wallet is funded.
   */
  createIdentities(
    seeds: Uint8Array[],
    mintSeeds: Uint8Array[],
    onIdentity: (i: number) => void,
    delegates: ReadonlyArray<{ delegate: Uint8Array; expiry: bigint } | null>,
  ): Promise<Uint8Array[]>;
  /**
   * Which agents sign their envelopes with a delegate hot wallet: default every even index from 2
   * that is neither the watcher, the cheater nor the misbehaving agent; with five agents or more
   * the last of them has a delegation that expires `delegationSeconds` after start (default
   * max(3 epochs, 120 s)), and falls back to its owner key 30 s later.
   */
  delegates?: number[];
  delegationSeconds?: number;
  /** Probability an agent skips an epoch's lease payment (default 0.15). */
  leaseMissRate?: number;
  /** One agent (by index) pays no lease before `untilMs` (unix ms), and none by chance: its lease goes into grace. */
  leasePause?: { index: number; untilMs: number };
}

export interface StartDemoMeshParams {
  /** Agents to start (0 starts none). */
  count: number;
  /** Observer multiaddrs (with /p2p/…) the agents bootstrap from; the first also receives faults. */
  bootstrap: string[];
  /** Base URL of the web server for uploads (`POST /api/ingest/envelopes`). */
  observerUrl?: string;
  epochSeconds: number;
  /** Makes keys, ids, strategies and choices reproducible. */
  seed?: number;
  /** Registers an agent's owner key in the observer's signer registry. */
  register?: (agentId: Uint8Array, publicKey: Uint8Array) => Promise<void>;
  /** In-process upload path (tests, or no HTTP server): replaces the HTTP POST. */
  upload?: (body: Uint8Array) => Promise<{ status: number }>;
  /** In-process epoch-log upload (POST /api/ingest/log body) with `upload`; absent = log uploads fail. */
  uploadLog?: (body: Uint8Array) => Promise<{ status: number }>;
  /** Index of the misbehaving agent; default the last one when count >= 3, none otherwise; -1 = none. */
  misbehaving?: number;
  /** Agents start deals on their own (default true). */
  autopilot?: boolean;
  verdictPassRate?: number;
  uploadIntervalMs?: number;
  tickMs?: number;
  /** Fixed strategies by index (default: round-robin over all four). */
  strategies?: StrategyName[];
  /** Every report from every agent (sent envelopes, deal phases, errors). */
  onReport?: (agent: number, msg: AgentToParent) => void;
  /** On-chain demo: agent 0 watches, agent 1 under-reports a bid once. */
  chain?: DemoChainParams;
  /**
   * Start-up phases as they end (entry built, identities registered, agents forked, first and last agent's node up).
   */
  onPhase?: (phase: string) => void;
  /**
   * How long to wait for every agent to be ready, ms. Default 120,000: the agents run niced, and on a busy machine they
   * start last.
   */
  readyTimeoutMs?: number;
  /** Scheduling niceness of the agents' processes (default {@link DEMO_AGENT_NICE}; 0 = as the parent). */
  nice?: number;
  /** A feedback ring (default {@link demoRing}); `{ members: [] }` = none. */
  ring?: DemoRing;
}

/**
 * A feedback ring of the demo: `members` rate each other highly every `everyMs` without a deal
 * behind it, and the `idle` ones among them never trade at all (throwaway identities), so the
 * observatory's collusion signals have something real to find.
 */
export interface DemoRing {
  members: number[];
  idle?: number[];
  everyMs?: number;
}

/**
 * The default ring: the last three agents that are neither the watcher (0), the cheater (1) nor
 * the misbehaving one, the last of them idle; none with fewer than three such agents.
 */
export function demoRing(count: number, misbehaving: number): DemoRing {
  const candidates = Array.from({ length: count }, (_, i) => i).filter((i) => i >= 2 && i !== misbehaving);
  if (candidates.length < 3) return { members: [] };
  const members = candidates.slice(-3);
  return { members, idle: [members[2]], everyMs: 6_000 };
}

/**
 * The demo agents stand in for the rest of the world: on a real mesh they run on other machines.
 * Here they share the observatory's cores, eight busy processes against one, so they run at a
 * lower scheduling priority: when the cores are short the observatory's pages and its observer
 * come first and the agents slow down, which is what the machine's owner wants to watch.
 */
export const DEMO_AGENT_NICE = 10;

export interface DemoAgentHandle {
  index: number;
  agentId: string;
  publicKey: string;
  strategy: StrategyName;
  misbehaving: boolean;
  /** The delegate hot wallet signing its envelopes (hex public key) and its delegation's expiry (unix s, 0 = never). */
  delegate?: { publicKey: string; expiry: string };
  peerId: string;
  multiaddrs: string[];
  process: ChildProcess;
}

export interface DemoMesh {
  agents: DemoAgentHandle[];
  /** Has agent `buyer` open a deal with agent `seller`. */
  open(buyer: number, seller: number, opts?: { sealed?: boolean; conversationIdHex?: string }): void;
  /** Makes every agent upload its pending bilateral envelopes now; resolves when all did. */
  flushAll(): Promise<void>;
  /** Has agent `index` send one invalid envelope with `reason` to the observer; resolves with its id. */
  fault(index: number, reason: string): Promise<string>;
  stop(): Promise<void>;
}

const SETUP = fileURLToPath(new URL('../../scripts/setup-node.mjs', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function derive(seed: number | undefined, label: string, i: number): Uint8Array {
  if (seed === undefined) return new Uint8Array(randomBytes(32));
  return sha256(new TextEncoder().encode(`zerox1-demo/${seed}/${label}/${i}`));
}

/** Starts the demo swarm; resolves when every agent's node is up and has the peer directory. */
export async function startDemoMesh(p: StartDemoMeshParams): Promise<DemoMesh> {
  if (!Number.isInteger(p.count) || p.count < 0) throw new RangeError('count must be a non-negative integer');
  if (!Array.isArray(p.bootstrap)) throw new TypeError('bootstrap must be an array of multiaddrs');
  if (!p.upload && !p.observerUrl && p.count > 0) throw new TypeError('observerUrl or upload is required');
  const misIdx = p.misbehaving ?? (p.count >= 3 ? p.count - 1 : -1);
  const delegated = new Set(
    p.chain
      ? (p.chain.delegates ??
          Array.from({ length: p.count }, (_, i) => i).filter((i) => i >= 2 && i % 2 === 0 && i !== misIdx))
      : [],
  );
  const expiring = p.count >= 5 && delegated.size ? Math.max(...delegated) : -1;
  const expiresAt = Math.floor(Date.now() / 1000) + (p.chain?.delegationSeconds ?? Math.max(3 * p.epochSeconds, 120));
  const keys = Array.from({ length: p.count }, (_, i) => {
    const seed = derive(p.seed, 'key', i);
    // On chain the agent id is the identity's mint, whose key is chosen here.
    const mintSeed = derive(p.seed, 'mint', i);
    const delegateSeed = delegated.has(i) ? derive(p.seed, 'delegate', i) : null;
    return {
      seed,
      mintSeed,
      agentId: p.chain ? publicKeyFromSeed(mintSeed) : derive(p.seed, 'id', i),
      publicKey: publicKeyFromSeed(seed),
      delegate: delegateSeed
        ? {
            seed: delegateSeed,
            publicKey: publicKeyFromSeed(delegateSeed),
            expiry: i === expiring ? BigInt(expiresAt) : 0n,
          }
        : null,
    };
  });
  const directory = Object.fromEntries(keys.map((k) => [toHex(k.agentId), toHex(k.publicKey)]));
  const signers = Object.fromEntries(
    keys.filter((k) => k.delegate).map((k) => [toHex(k.agentId), [toHex(k.delegate!.publicKey)]]),
  );
  const ring = p.ring ?? demoRing(p.count, misIdx);
  const ringIds = ring.members.filter((i) => i >= 0 && i < p.count).map((i) => toHex(keys[i].agentId));
  const idleIds = (ring.idle ?? [])
    .filter((i) => ring.members.includes(i) && i < p.count)
    .map((i) => toHex(keys[i].agentId));
  const agents: DemoAgentHandle[] = [];
  const waiters = new Map<string, (v: unknown) => void>();
  let reqSeq = 0;
  const readies: Promise<void>[] = [];
  const tell = (i: number, m: ParentToAgent) => {
    const c = agents[i]?.process;
    if (c?.connected) c.send(m);
  };
  const registered = new Set<number>();
  const funded = new Set<number>();
  const onRegistered = (i: number) => {
    registered.add(i);
    tell(i, { t: 'registered' });
  };
  const onFunded = (i: number) => {
    funded.add(i);
    tell(i, { t: 'funded' });
  };

  // Registration runs while the agents' processes start; only their gossip waits for it.
  const registration = (async () => {
    if (p.chain && keys.length) {
      const ids = await p.chain.createIdentities(
        keys.map((k) => k.seed),
        keys.map((k) => k.mintSeed),
        (i) => onRegistered(i),
        keys.map((k) => (k.delegate ? { delegate: k.delegate.publicKey, expiry: k.delegate.expiry } : null)),
      );
      ids.forEach((id, i) => {
        if (toHex(id) !== toHex(keys[i].agentId))
          throw new Error(`agent ${i}: the chain created identity ${toHex(id)}, expected ${toHex(keys[i].agentId)}`);
      });
      p.onPhase?.('identities on chain');
    } else {
      for (const k of keys) await p.register?.(k.agentId, k.publicKey);
      keys.forEach((_, i) => onRegistered(i));
      p.onPhase?.('agents registered');
    }
    keys.forEach((_, i) => onFunded(i));
  })();
  registration.catch(() => undefined);
  const entry = await agentEntry(SETUP);
  p.onPhase?.(`agent entry ready (${entry.kind})`);

  for (let i = 0; i < p.count; i++) {
    const strategy = p.strategies?.[i] ?? STRATEGIES[i % STRATEGIES.length];
    const child = fork(entry.file, [], {
      cwd: ROOT,
      execArgv: entry.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'json',
    });
    const nice = p.nice ?? DEMO_AGENT_NICE;
    if (nice !== 0 && child.pid !== undefined) {
      // Relative to this process, so an observatory started niced keeps its agents below it.
      try {
        setPriority(child.pid, Math.min(19, getPriority() + nice));
      } catch {
        /* not allowed here: the agents keep this process's priority */
      }
    }
    const handle: DemoAgentHandle = {
      index: i,
      agentId: toHex(keys[i].agentId),
      publicKey: toHex(keys[i].publicKey),
      strategy,
      misbehaving: i === misIdx,
      peerId: '',
      multiaddrs: [],
      process: child,
      ...(keys[i].delegate && {
        delegate: { publicKey: toHex(keys[i].delegate!.publicKey), expiry: keys[i].delegate!.expiry.toString() },
      }),
    };
    agents.push(handle);
    const cfg: AgentConfig = {
      index: i,
      seedHex: toHex(keys[i].seed),
      agentIdHex: handle.agentId,
      strategy,
      bootstrap: p.bootstrap,
      directory,
      signers,
      misbehave: i === misIdx,
      autopilot: p.autopilot ?? true,
      rngSeed: p.seed === undefined ? (Math.random() * 2 ** 32) >>> 0 : (p.seed * 7919 + i) >>> 0,
      verdictPassRate: p.verdictPassRate ?? 0.85,
      observerUrl: p.observerUrl,
      uploadVia: p.upload ? 'ipc' : 'http',
      uploadIntervalMs: p.uploadIntervalMs ?? 2_000,
      tickMs: p.tickMs ?? 1_500,
      nonceStart: String(BigInt(Date.now()) * 1000n),
    };
    if (ringIds.length > 1 && ring.members.includes(i)) cfg.ring = { members: ringIds, everyMs: ring.everyMs ?? 6_000 };
    if (idleIds.includes(handle.agentId)) cfg.idle = true;
    if (idleIds.length) cfg.avoid = idleIds;
    const d = keys[i].delegate;
    if (d)
      cfg.delegate = {
        seedHex: toHex(d.seed),
        ...(d.expiry > 0n && { fallbackAtMs: Number(d.expiry) * 1000 + 30_000 }),
      };
    if (p.chain) {
      const {
        createIdentities: _c,
        leaseMissRate,
        leasePause,
        delegates: _d,
        delegationSeconds: _s,
        ...chain
      } = p.chain;
      const role = i === 0 && p.count >= 2 ? 'watcher' : i === 1 && i !== misIdx ? 'cheater' : 'honest';
      // Half the deals settle through Haggle by default (both parties pick the same ones).
      const pause = leasePause?.index === i ? leasePause.untilMs : undefined;
      cfg.chain = {
        ...chain,
        role,
        leaseMissRate: pause !== undefined ? 0 : (leaseMissRate ?? 0.15),
        haggle: chain.haggle ?? { share: 0.5 },
        ...(pause !== undefined ? { leasePauseUntilMs: pause } : {}),
      };
    }
    readies.push(
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`demo agent ${i} not ready in time`)),
          p.readyTimeoutMs ?? 120_000,
        );
        child.on('message', (m: AgentToParent) => {
          if (m.t === 'ready') {
            p.onPhase?.(agents.every((a) => a.peerId || a === handle) ? 'all agent nodes up' : 'first agent node up');
            handle.peerId = m.peerId;
            handle.multiaddrs = m.multiaddrs;
            clearTimeout(timer);
            resolve();
          } else if (m.t === 'upload' && p.upload) {
            p.upload(fromHex(m.bodyHex)).then(
              (r) =>
                child.connected &&
                child.send({ t: 'upload_result', reqId: m.reqId, ok: r.status < 300 } satisfies ParentToAgent),
              () =>
                child.connected &&
                child.send({ t: 'upload_result', reqId: m.reqId, ok: false } satisfies ParentToAgent),
            );
          } else if (m.t === 'upload_log') {
            const reply = (ok: boolean) =>
              child.connected && child.send({ t: 'upload_result', reqId: m.reqId, ok } satisfies ParentToAgent);
            if (!p.uploadLog) reply(false);
            else
              p.uploadLog(fromHex(m.bodyHex)).then(
                (r) => reply(r.status < 300),
                () => reply(false),
              );
          } else if (m.t === 'published') {
            // The demo's stand-in for batch gossip: the watcher (agent 0) sees published batches.
            if (agents[0] && agents[0].index !== i && agents[0].process.connected)
              agents[0].process.send({ t: 'published', batch: m.batch } satisfies ParentToAgent);
          } else if (m.t === 'flushed' || m.t === 'faulted') {
            waiters.get(`${i}:${m.reqId}`)?.(m.t === 'faulted' ? m.id : undefined);
          }
          p.onReport?.(i, m);
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`demo agent ${i} exited with ${code}`));
        });
      }),
    );
    child.send({ t: 'config', config: cfg } satisfies ParentToAgent);
    if (registered.has(i)) child.send({ t: 'registered' } satisfies ParentToAgent);
    if (funded.has(i)) child.send({ t: 'funded' } satisfies ParentToAgent);
  }
  p.onPhase?.('agents forked');
  const stopAll = async () => {
    await Promise.all(
      agents.map(
        (a) =>
          new Promise<void>((resolve) => {
            if (a.process.exitCode !== null || a.process.signalCode !== null) return resolve();
            const kill = setTimeout(() => a.process.kill('SIGKILL'), 5_000);
            a.process.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            if (a.process.connected) a.process.send({ t: 'stop' } satisfies ParentToAgent);
            else a.process.kill('SIGTERM');
          }),
      ),
    );
  };
  try {
    await Promise.all([...readies, registration]);
  } catch (e) {
    await stopAll();
    throw e;
  }
  const peers = Object.fromEntries(agents.map((a) => [a.agentId, a.multiaddrs]));
  for (const a of agents) a.process.send({ t: 'peers', peers } satisfies ParentToAgent);

  const request = (i: number, msg: (reqId: number) => ParentToAgent) =>
    new Promise<unknown>((resolve) => {
      const reqId = ++reqSeq;
      waiters.set(`${i}:${reqId}`, (v) => {
        waiters.delete(`${i}:${reqId}`);
        resolve(v);
      });
      agents[i].process.send(msg(reqId));
    });
  return {
    agents,
    open(buyer, seller, opts = {}) {
      agents[buyer].process.send({
        t: 'open',
        seller: agents[seller].agentId,
        sealed: opts.sealed ?? false,
        conversationIdHex: opts.conversationIdHex,
      } satisfies ParentToAgent);
    },
    async flushAll() {
      await Promise.all(agents.map((_, i) => request(i, (reqId) => ({ t: 'flush', reqId }))));
    },
    async fault(index, reason) {
      return (await request(index, (reqId) => ({ t: 'fault', reason, reqId }))) as string;
    },
    stop: stopAll,
  };
}
