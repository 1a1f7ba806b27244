/**
 * Watchlists, alerts and the webhook outbox (lib/alerts drives them; docs/app.md "Alerts and
 * watchlists"). Every statement is set-based: the evaluator reads the chain tables for all
 * watched agents in one query per table and writes a tick's new and cleared alerts in one
 * statement each; the outbox is claimed with FOR UPDATE SKIP LOCKED so two processes on one
 * Postgres never send the same row at once. alerts-atomic.ts adds `atomically` (one transaction).
 */
import type { Queryable } from '../engine/db';
import { alertListStatements } from './alert-list';
import { evaluatorStatements } from './evaluator-reads';
import { outboxStatements } from './outbox';
import { watchlistStatements } from './watchlists';

export function alertsStore(db: Queryable & { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> }) {
  return {
    ...watchlistStatements(db),
    ...evaluatorStatements(db),
    ...outboxStatements(db),
    ...alertListStatements(db),
  };
}

export type AlertsStatements = ReturnType<typeof alertsStore>;
