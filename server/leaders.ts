/**
 * The work that runs once per deployment, each part behind its role's leadership lock
 * (lib/store/leader/leader.ts, docs/architecture.md "Running on several machines"): the chain indexer,
 * the dataset release writer and the alert evaluator. On Postgres every process of a role is the
 * leader or its standby; on the embedded PGlite the one process leads and each part starts
 * before start-up goes on, as it always did. What any number of processes may run side by side
 * is not here: ingest, the stats fold (its pending rows are claimed with SKIP LOCKED), the
 * webhook outbox (rows claimed with SKIP LOCKED and a lease) and the reads.
 */
import type { Alerts } from '../lib/alerts';
import type { ReleaseScheduler } from '../lib/export/release-scheduler';
import type { IndexerBus } from '../lib/indexer/index';
import { type LeaderRole, type LeaderStatus, type Leadership, leadRole } from '../lib/store';
import type { ChainRuntime } from './chain';
import type { Logger } from './logger';

export interface Leaders {
  /** The release scheduler while this process leads `releases`, else null. */
  releases(): ReleaseScheduler | null;
  /** Each role's leadership in this process (/api/health `leaders`, /metrics). */
  status(): LeaderStatus[];
  stop(): Promise<void>;
}

/** Leads (or stands by for) the indexer, when there is a chain: started before the observer serves. */
export function leadIndexer(p: {
  url: string | undefined;
  chain: ChainRuntime;
  bus: IndexerBus;
  log: Logger;
}): Promise<Leadership> {
  const { chain } = p;
  return leadRole({
    role: 'indexer',
    url: p.url,
    log: p.log,
    async start() {
      const indexer = await chain.startIndexer(p.bus);
      return {
        async stop() {
          // The next term starts a fresh indexer from the stored cursors.
          chain.indexer = null;
          await indexer.stop();
        },
      };
    },
  });
}

/** Leads (or stands by for) the alert evaluator and the release writer, beside the indexer's leadership. */
export async function startLeaders(p: {
  url: string | undefined;
  indexer: Leadership | null;
  alerts: Alerts;
  startReleases(): ReleaseScheduler;
  log: Logger;
}): Promise<Leaders> {
  const held: Leadership[] = p.indexer ? [p.indexer] : [];
  let releases: ReleaseScheduler | null = null;
  const roleLog = (role: LeaderRole) => p.log.child(role);
  try {
    held.push(
      await leadRole({
        role: 'alerts',
        url: p.url,
        log: roleLog('alerts'),
        start() {
          p.alerts.startEvaluator();
          return { stop: () => p.alerts.stopEvaluator() };
        },
      }),
    );
    held.push(
      await leadRole({
        role: 'releases',
        url: p.url,
        log: roleLog('releases'),
        start() {
          const r = p.startReleases();
          releases = r;
          return {
            async stop() {
              if (releases === r) releases = null;
              await r.stop();
            },
          };
        },
      }),
    );
  } catch (e) {
    for (const l of held.reverse()) await l.stop().catch(() => undefined);
    throw e;
  }
  return {
    releases: () => releases,
    status: () => held.map((l) => l.status()),
    async stop() {
      // The reverse of the start order: releases, alerts, then the indexer.
      for (const l of [...held].reverse()) await l.stop().catch((e: unknown) => p.log.warn(`${l.role} stop failed`, e));
    },
  };
}
