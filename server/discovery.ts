/**
 * Discovery from SATI (docs/chain.md "Discovery"): every pass reads the agents registered since
 * the last one (AgentIndex next…total_agents, lib/chain/sati-directory.ts), reads each one's
 * registration file from its metadata uri (lib/chain/node/registration-fetch.ts: bounded size
 * and time, http(s) and data: only, only public addresses on a cluster; failures counted by
 * reason and shown only as a class), names the agent by its SATI name in the store (the label
 * every list and search shows) and dials its `zerox1-mesh` endpoint at a checked address
 * (lib/net/dial-address.ts), so an agent registered anywhere on the cluster is found without
 * being anyone's bootstrap peer. Registrations only grow, so a pass reads only new member numbers;
 * a file that could not be read, or named no mesh endpoint yet (an agent registers before its node
 * is up), is read again on the next {@link RETRIES} passes.
 */
import type { Connection } from '@solana/web3.js';
import {
  fetchRegistrationFile,
  REGISTRATION_FAILURES,
  type RegistrationFailure,
} from '../lib/chain/node/registration-fetch';
import type { SatiAddresses } from '../lib/chain/sati';
import { readSatiDirectory } from '../lib/chain/sati-directory';
import { checkDialAddress } from '../lib/net/dial-address';
import { failureClass, type Resolver } from '../lib/net/outbound';
import type { AgentSatiProfileView, SatiDiscoveryStats } from '../lib/wire';

export interface SatiDiscoveryParams {
  connection: Connection;
  sati: Pick<SatiAddresses, 'program'>;
  /**
   * Contact only public addresses for registration files and mesh endpoints (on a cluster); the
   * embedded local chain's demo agents live on loopback, so it is off there.
   */
  publicOnly: boolean;
  /** Injected resolver (tests); the system's otherwise. */
  resolve?: Resolver;
  /** Dials a multiaddr on the observer's mesh node. */
  dial(multiaddr: string): Promise<unknown>;
  /** Names the agent in the store (its label). */
  setLabel(agentId: Uint8Array, label: string): Promise<unknown>;
  log: { info(m: string): void; warn(m: string): void };
  /** Between passes, ms (default 15,000). */
  intervalMs?: number;
  /** Registration files read at once (default 4). */
  concurrency?: number;
  fileTimeoutMs?: number;
}

export interface SatiDiscovery {
  /** What discovery knows of one agent (hex id), or null. */
  profile(agentHex: string): AgentSatiProfileView | null;
  stats(): SatiDiscoveryStats;
  /** One pass now (also run by the timer); resolves when it is done. */
  pass(): Promise<void>;
  stop(): Promise<void>;
}

/** Most profiles kept in memory (oldest member numbers go first). */
const MAX_PROFILES = 100_000;
/** Passes that read an incomplete registration file again. */
export const RETRIES = 3;

export function startSatiDiscovery(p: SatiDiscoveryParams): SatiDiscovery {
  const profiles = new Map<string, AgentSatiProfileView>();
  const failures: Partial<Record<RegistrationFailure | 'no_uri' | 'not_registered', number>> = {};
  const stats = {
    total: null as string | null,
    files: 0,
    dials: 0,
    dialFailures: 0,
    passes: 0,
    lastError: null as string | null,
  };
  let next = 1n;
  type Entry = Awaited<ReturnType<typeof readSatiDirectory>>['entries'][number];
  const retry = new Map<string, { e: Entry; left: number }>();
  let running: Promise<void> | null = null;
  let stopped = false;

  const count = (k: keyof typeof failures) => {
    failures[k] = (failures[k] ?? 0) + 1;
  };

  async function one(e: Entry): Promise<void> {
    const hex = Buffer.from(e.mint.toBytes()).toString('hex');
    const reg = e.registration;
    const view: AgentSatiProfileView = {
      mint: e.mint.toBase58(),
      memberNumber: e.memberNumber.toString(),
      registered: reg.ok,
      services: [],
    };
    if (!reg.ok) {
      view.reason = reg.reason;
      count('not_registered');
    } else {
      if (reg.name) view.name = reg.name;
      if (reg.symbol) view.symbol = reg.symbol;
      if (reg.uri) view.uri = reg.uri;
      if (!reg.uri) count('no_uri');
      else {
        const r = await fetchRegistrationFile(reg.uri, {
          publicOnly: p.publicOnly,
          timeoutMs: p.fileTimeoutMs,
          resolve: p.resolve,
        });
        if (r.ok) {
          stats.files++;
          view.file = { ...r.profile };
          view.services = r.profile.services;
          if (r.profile.image) view.image = r.profile.image;
          if (r.profile.description) view.description = r.profile.description;
          if (r.profile.meshEndpoint) view.meshEndpoint = r.profile.meshEndpoint;
        } else {
          count(r.reason);
          // A class, never the detail: the page is public and the detail would map the network.
          view.fileError = r.reason === 'http_status' ? `answered ${r.detail}` : REGISTRATION_FAILURES[r.reason];
        }
      }
      const label = view.name ?? view.file?.name;
      if (label)
        await p
          .setLabel(e.mint.toBytes(), label)
          .catch((err: unknown) =>
            p.log.warn(`discovery: naming ${view.mint} failed: ${String((err as Error)?.message ?? err)}`),
          );
      if (view.meshEndpoint) {
        try {
          // Dialled at the checked address only (lib/net/dial-address.ts), like any outbound request.
          await p.dial(await checkDialAddress(view.meshEndpoint, { allowPrivate: !p.publicOnly, resolve: p.resolve }));
          stats.dials++;
          view.dialed = 'ok';
        } catch (err) {
          stats.dialFailures++;
          view.dialed = `failed: ${failureClass(err)}`;
        }
      }
    }
    if (!profiles.has(hex) && profiles.size >= MAX_PROFILES) profiles.delete(profiles.keys().next().value as string);
    profiles.set(hex, view);
    const incomplete = reg.ok && !!reg.uri && (view.fileError !== undefined || view.meshEndpoint === undefined);
    const r = retry.get(hex);
    if (!incomplete) retry.delete(hex);
    else if (!r) retry.set(hex, { e, left: RETRIES });
  }

  async function pass(): Promise<void> {
    if (running) return running;
    running = (async () => {
      try {
        const { total, entries } = await readSatiDirectory(p.connection, p.sati, next, 1_000);
        stats.total = total === null ? null : total.toString();
        const again = [...retry.values()].filter((r) => r.left-- > 0).map((r) => r.e);
        for (const [k, r] of retry) if (r.left <= 0) retry.delete(k);
        const queue = [...again, ...entries];
        const workers = Array.from({ length: Math.max(1, p.concurrency ?? 4) }, async () => {
          for (let e = queue.shift(); e && !stopped; e = queue.shift()) await one(e);
        });
        await Promise.all(workers);
        if (entries.length) {
          next = entries[entries.length - 1].memberNumber + 1n;
          p.log.info(
            `discovery: ${entries.length} SATI agents read (${profiles.size} known, total_agents ${stats.total})`,
          );
        } else if (total !== null && total >= next) {
          // Index accounts missing for these numbers: skip them rather than read them for ever.
          next = total + 1n;
        }
        stats.lastError = null;
      } catch (e) {
        stats.lastError = String((e as Error)?.message ?? e).slice(0, 300);
      } finally {
        stats.passes++;
        running = null;
      }
    })();
    return running;
  }

  const timer = setInterval(() => void pass(), p.intervalMs ?? 15_000);
  timer.unref?.();
  void pass();

  return {
    profile: (hex) => profiles.get(hex.toLowerCase()) ?? null,
    stats: () => ({ ...stats, agents: profiles.size, nextMember: next.toString(), failures: { ...failures } }),
    pass,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
