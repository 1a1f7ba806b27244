/**
 * lib/store/alerts: watchlists, alerts and the webhook outbox (lib/store/alerts/README.md).
 * AlertsPort: the statements lib/alerts drives, and some of them in one transaction.
 */
import 'server-only';
import type { PortContext } from '../engine/port';
import { type AlertsStore, alertsStore } from './alerts-atomic';

export type { AlertsStatements } from './alerts';
export type { AlertsStore } from './alerts-atomic';
export type {
  AlertRow,
  ClaimedDelivery,
  ClearAlert,
  DeliveryEvent,
  NewAlert,
  WatchItemRow,
  WatchlistRow,
  WatchRuleRow,
  WebhookRow,
} from './rows';

export interface AlertsPort {
  /** Watchlists, alerts and the webhook outbox (alerts.ts, driven by lib/alerts). */
  readonly alerts: AlertsStore;
}

export function alertsPort({ db }: PortContext): AlertsPort {
  return { alerts: alertsStore(db) };
}
