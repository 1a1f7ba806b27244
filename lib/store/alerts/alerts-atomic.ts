/**
 * The alerts store as lib/alerts sees it: the statements of alerts.ts, and `atomically`, which
 * runs some of them in one transaction (the evaluator writes a tick's alerts and their webhook
 * deliveries together, so a process that dies between them leaves neither).
 */

import type { Queryable } from '../engine/db';
import { type AlertsStatements, alertsStore as statements } from './alerts';

export function alertsStore(db: Queryable & { transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> }) {
  return {
    ...statements(db),
    /** Runs `fn` with the statements in one transaction. */
    atomically<T>(fn: (tx: AlertsStatements) => Promise<T>): Promise<T> {
      return db.transaction((tx) =>
        fn(statements({ ...tx, transaction: <U>(f: (q: Queryable) => Promise<U>) => f(tx) })),
      );
    },
  };
}
export type AlertsStore = ReturnType<typeof alertsStore>;
