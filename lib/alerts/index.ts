/**
 * lib/alerts: watchlists, the alert evaluator and the webhook outbox (docs/app.md "Alerts and
 * watchlists"). `startAlerts` wires them to a store and a live bus; the process (server/) starts
 * it and hands `service` to the routes.
 */
import { createHash } from 'node:crypto';
import bs58 from 'bs58';
import type { Store } from '../store';
import type { LiveEvent } from '../wire/events';
import { type DeliveryWorker, startDeliveryWorker } from './delivery';
import { type Evaluator, startEvaluator } from './evaluator';
import { type AlertKind, DEFAULT_ENABLED, isAlertKind, ruleParams } from './kinds';
import type { WebhookFormat } from './payloads';
import { type AlertCaps, type AlertService, createAlertService, DEFAULT_CAPS } from './service';
import { checkWebhookUrl } from './url-guard';

export { ALERT_KINDS, type AlertKind, EVENT_KINDS, isAlertKind } from './kinds';
export { WEBHOOK_FORMATS, type WebhookFormat } from './payloads';
export { type AlertCaps, type AlertService, AlertsError, DEFAULT_CAPS, walletMessage } from './service';

/** One deployment webhook of ALERT_WEBHOOKS. */
export interface EnvWebhook {
  url: string;
  format: WebhookFormat;
  secret?: string;
  /** `all`, or agent ids (hex or base58). */
  agents: 'all' | string[];
  /** Rule kinds with optional params; default the rules a new watchlist starts with. */
  rules?: Partial<Record<AlertKind, Record<string, unknown>>>;
}

export interface AlertsConfig {
  caps: AlertCaps;
  allowPrivateWebhooks: boolean;
  /** Evaluation period, ms. */
  tickMs: number;
  /** First webhook retry delay, ms. */
  retryBaseMs: number;
  /** Alerts per rule per watchlist per hour before throttling. */
  ruleAlertsPerHour: number;
  /** The observatory's public base URL, for links in messages. */
  publicUrl: string;
  envWebhooks: readonly EnvWebhook[];
}

export const DEFAULT_ALERTS_CONFIG: Omit<AlertsConfig, 'publicUrl'> = {
  caps: DEFAULT_CAPS,
  allowPrivateWebhooks: false,
  tickMs: 5_000,
  retryBaseMs: 30_000,
  ruleAlertsPerHour: 20,
  envWebhooks: [],
};

export interface Alerts {
  service: AlertService;
  /**
   * The evaluator while this process runs it; without one its calls do nothing (a tick opens
   * nothing). It runs once per deployment: started with `evaluate` or `startEvaluator`.
   */
  evaluator: Evaluator;
  delivery: DeliveryWorker;
  /** Starts the evaluator if it is not running (this process became the alerts leader). */
  startEvaluator(): void;
  /** Stops the evaluator (leadership lost); the outbox and the service go on. */
  stopEvaluator(): Promise<void>;
  stop(): Promise<void>;
}

/** NOTIFY channel of watchlist changes: the evaluator re-reads the lists, whichever process changed them. */
export const WATCH_CHANNEL = 'zerox1_watch_changed';

const stableId = (s: string) => createHash('sha256').update(s).digest('base64url').slice(0, 22);

function agentId(s: string): Uint8Array | null {
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(s)) return new Uint8Array(Buffer.from(s.replace(/^0x/, ''), 'hex'));
  try {
    const b = bs58.decode(s);
    return b.length === 32 ? b : null;
  } catch {
    return null;
  }
}

export async function startAlerts(p: {
  /** With `listen` and `notify`, a watchlist changed through any process reaches the evaluator's. */
  store: Pick<Store, 'alerts' | 'usedSignatures'> & Partial<Pick<Store, 'listen' | 'notify'>>;
  subscribe(listener: (e: LiveEvent) => void): () => void;
  epochSeconds: number;
  config: AlertsConfig;
  ownedAgents?: (wallet: Uint8Array) => Promise<Uint8Array[]>;
  log?: { info(msg: string): void; warn(msg: string): void };
  /**
   * Start the evaluator now (default true). The outbox sender runs in every process (its rows
   * are claimed with SKIP LOCKED); the evaluator runs in one (server/runtime.ts: the alerts leader).
   */
  evaluate?: boolean;
}): Promise<Alerts> {
  const { config: c, log } = p;
  const store = p.store.alerts;
  await syncEnvWebhooks(store, c, log);
  const delivery = startDeliveryWorker({
    store,
    allowPrivate: c.allowPrivateWebhooks,
    retryBaseMs: c.retryBaseMs,
    log,
    linkFor: (id) => `${c.publicUrl.replace(/\/$/, '')}/alerts?alert=${id}`,
  });
  let running: Evaluator | null = null;
  const startRunning = () => {
    running ??= startEvaluator({
      store,
      subscribe: p.subscribe,
      epochSeconds: p.epochSeconds,
      tickMs: c.tickMs,
      ruleAlertsPerHour: c.ruleAlertsPerHour,
      deliveriesPerHour: c.caps.deliveriesPerHour,
      onQueued: () => delivery.kick(),
      log,
    });
  };
  const stopRunning = async () => {
    const e = running;
    running = null;
    await e?.stop();
  };
  if (p.evaluate !== false) startRunning();
  const evaluator: Evaluator = {
    invalidate: () => running?.invalidate(),
    refresh: async () => running?.refresh(),
    tick: async () => running?.tick() ?? { opened: 0, cleared: 0 },
    dropped: (s) => running?.dropped(s),
    watchedCount: () => running?.watchedCount() ?? 0,
    stop: stopRunning,
  };
  // The evaluator runs in one process (the alerts leader); lists change through the API of any.
  const unlisten = await p.store.listen?.(WATCH_CHANNEL, () => evaluator.invalidate());
  const service = createAlertService({
    store,
    signatures: p.store.usedSignatures,
    caps: c.caps,
    allowPrivateWebhooks: c.allowPrivateWebhooks,
    ownedAgents: p.ownedAgents,
    changed: () => {
      evaluator.invalidate();
      p.store
        .notify?.(WATCH_CHANNEL, '')
        .catch((e: unknown) => log?.warn(`alerts: change not announced: ${String(e)}`));
    },
  });
  return {
    service,
    evaluator,
    delivery,
    startEvaluator: startRunning,
    stopEvaluator: stopRunning,
    async stop() {
      await unlisten?.().catch(() => undefined);
      await stopRunning();
      await delivery.stop();
    },
  };
}

/** Deployment webhooks: one list per entry, its id derived from the URL (stable across restarts). */
async function syncEnvWebhooks(
  store: Store['alerts'],
  c: AlertsConfig,
  log: { info(msg: string): void; warn(msg: string): void } | undefined,
): Promise<void> {
  for (const w of c.envWebhooks) {
    const ok = await checkWebhookUrl(w.url, { allowPrivate: c.allowPrivateWebhooks });
    if (!ok.ok) {
      log?.warn(`ALERT_WEBHOOKS: ${w.url} skipped: ${ok.error}`);
      continue;
    }
    const agents = w.agents === 'all' ? [] : w.agents.map((a) => agentId(a)).filter((a): a is Uint8Array => a !== null);
    const kinds = w.rules ? Object.keys(w.rules).filter(isAlertKind) : [...DEFAULT_ENABLED];
    await store.syncEnvWatchlist(`env${stableId(w.url)}`.slice(0, 22), {
      allAgents: w.agents === 'all',
      agents,
      rules: kinds.map((kind) => ({ kind, params: ruleParams(kind, w.rules?.[kind] ?? {}) })),
      webhooks: [
        { id: stableId(`${w.url}#webhook`), url: ok.url.toString(), format: w.format, secret: w.secret ?? null },
      ],
    });
    log?.info(
      `alerts: deployment webhook ${ok.url.host} (${w.format}) watching ` +
        `${w.agents === 'all' ? 'every agent' : `${agents.length} agents`}: ${kinds.join(', ')}`,
    );
  }
}
