/**
 * The alert kinds, their parameters (zod, defaults filled in) and which are events. A condition
 * alert stays open while its condition holds and is cleared when it stops; an event alert is
 * keyed by its subject (a challenge, an epoch, a conversation, a transaction) and never opens
 * twice for the same subject.
 */
import { z } from 'zod';
import { AlertKindSchema } from '../wire/alerts';

/** The kinds as the API names them (lib/wire/alerts.ts). */
export const ALERT_KINDS = AlertKindSchema.options;
export type AlertKind = z.infer<typeof AlertKindSchema>;

/** Kinds keyed by an event's subject: a repeat for the same subject does not alert again. */
export const EVENT_KINDS: ReadonlySet<AlertKind> = new Set<AlertKind>([
  'challenged',
  'challenge_resolved',
  'slashed',
  'dispute',
  'batch_mismatch',
]);

const posInt = (max: number) => z.number().int().min(1).max(max);
/** Score points above 0 and at most 200 (the whole -100..100 range), at most 6 decimals (what fixed point keeps). */
const scorePointsAmount = z
  .number()
  .positive()
  .max(200)
  .refine((n) => Math.abs(n * 1e6 - Math.round(n * 1e6)) < 1e-6, 'at most 6 decimals');

/** Parameters per kind; every field has a default, unknown fields are refused. */
export const RULE_PARAMS = {
  offline: z.strictObject({ minutes: posInt(10_080).default(10) }),
  lease_due: z.strictObject({ hours: posInt(8_760).default(24) }),
  lease_grace: z.strictObject({}),
  deactivated: z.strictObject({}),
  /** Seconds after an epoch ends before its batch counts as missing (default one epoch, at least 30 s). */
  batch_missing: z.strictObject({ graceSeconds: posInt(7 * 86_400).optional() }),
  batch_mismatch: z.strictObject({}),
  challenged: z.strictObject({}),
  challenge_resolved: z.strictObject({}),
  slashed: z.strictObject({}),
  /**
   * Alert when reliability falls by more than `drop` score points (lib/wire/score.ts: the unit the pages show) within
   * `windowMinutes`.
   */
  reputation_drop: z.strictObject({ drop: scorePointsAmount.default(0.1), windowMinutes: posInt(10_080).default(60) }),
  /** Envelopes from the agent dropped by validation in the last minute, above `perMinute`. */
  drops_rate: z.strictObject({ perMinute: posInt(1_000_000).default(10) }),
  dispute: z.strictObject({}),
} as const satisfies Record<AlertKind, z.ZodType>;

export type RuleParams<K extends AlertKind> = z.output<(typeof RULE_PARAMS)[K]>;

/**
 * Hysteresis of `lease_grace` (docs/app.md "Alerts and watchlists"). A lease is in grace from the
 * first instant of an epoch it has not paid, so an agent that pays at each epoch boundary is in
 * grace for the second its payment takes, every epoch: the raw condition flaps once per epoch.
 * The alert opens only after the lease has stayed in grace for `openAfterEpochs` of an epoch
 * (measured from the epoch's start on the chain's clock, not from when it was first seen), and an
 * open alert clears only when the lease is paid ahead (through an epoch after the current one), is
 * deactivated (the `deactivated` rule takes over), or has gone `quietEpochs` epochs without such
 * a grace; until then it stays open even while the lease is paid through the current epoch.
 */
export const LEASE_GRACE_HYSTERESIS = { openAfterEpochs: 0.25, quietEpochs: 1 } as const;

/** Rules a new watchlist starts with (the rest exist, off). */
export const DEFAULT_ENABLED: readonly AlertKind[] = [
  'offline',
  'lease_grace',
  'deactivated',
  'batch_missing',
  'challenged',
  'slashed',
];

export function isAlertKind(s: string): s is AlertKind {
  return (ALERT_KINDS as readonly string[]).includes(s);
}

/** Parses a rule's params (defaults filled in) or returns the problem as a sentence. */
export function parseRuleParams(
  kind: AlertKind,
  raw: unknown,
): { ok: true; params: Record<string, unknown> } | { ok: false; error: string } {
  const r = RULE_PARAMS[kind].safeParse(raw ?? {});
  if (r.success) return { ok: true, params: r.data as Record<string, unknown> };
  const i = r.error.issues[0];
  const where =
    i.code === 'unrecognized_keys'
      ? `unknown parameter ${i.keys.join(', ')}`
      : i.path.length
        ? `parameter "${i.path.join('.')}"`
        : 'params';
  return { ok: false, error: `rule ${kind}: ${where}: ${i.message}` };
}

/** Stored params read back with today's defaults (a bad stored value falls back to the defaults). */
export function ruleParams<K extends AlertKind>(kind: K, stored: unknown): RuleParams<K> {
  const r = RULE_PARAMS[kind].safeParse(stored ?? {});
  return (r.success ? r.data : RULE_PARAMS[kind].parse({})) as RuleParams<K>;
}
