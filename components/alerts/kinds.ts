/**
 * The alert kinds as the pages name them: a label, the glossary entry that explains the kind
 * (its tooltip everywhere), and the thresholds a rule of that kind takes, with their units. The
 * server decides what the parameters mean; a parameter the server sends that is not listed here
 * is still shown (by its name), so a newer server never hides a setting. Browser-safe.
 */
import type { GlossaryKey } from '../glossary';

export interface ParamDef {
  name: string;
  label: string;
  unit: string;
  /** The smallest value a person may type (in the shown unit). */
  min: number;
  step: number;
  /** Shown in the field until the server says otherwise (in the shown unit); null: left empty. */
  fallback: number | null;
  /** The server's integer is this many times the shown value. */
  scale?: number;
  /** Decimals the server keeps of a value it takes as shown (reliability in score points: 6). */
  decimals?: number;
  /** An empty field sends nothing: the server's own default applies. */
  optional?: string;
}

export interface KindDef {
  kind: string;
  label: string;
  term: GlossaryKey;
  params: ParamDef[];
}

// Thresholds as lib/alerts/kinds.ts's RULE_PARAMS takes them: whole numbers of at least 1.
export const ALERT_KINDS: readonly KindDef[] = [
  {
    kind: 'offline',
    label: 'Offline',
    term: 'alertOffline',
    params: [{ name: 'minutes', label: 'silent for', unit: 'min', min: 1, step: 1, fallback: 10 }],
  },
  {
    kind: 'lease_due',
    label: 'Lease due',
    term: 'alertLeaseDue',
    params: [{ name: 'hours', label: 'due within', unit: 'h', min: 1, step: 1, fallback: 24 }],
  },
  { kind: 'lease_grace', label: 'Lease in grace', term: 'alertLeaseGrace', params: [] },
  { kind: 'deactivated', label: 'Deactivated', term: 'alertDeactivated', params: [] },
  {
    kind: 'batch_missing',
    label: 'Batch missing',
    term: 'alertBatchMissing',
    params: [
      {
        name: 'graceSeconds',
        label: 'after the epoch ends, wait',
        unit: 's',
        min: 1,
        step: 1,
        fallback: null,
        optional: 'one epoch',
      },
    ],
  },
  { kind: 'batch_mismatch', label: 'Batch mismatch', term: 'alertBatchMismatch', params: [] },
  { kind: 'challenged', label: 'Challenged', term: 'alertChallenged', params: [] },
  { kind: 'challenge_resolved', label: 'Challenge resolved', term: 'alertChallengeResolved', params: [] },
  { kind: 'slashed', label: 'Slashed', term: 'alertSlashed', params: [] },
  {
    kind: 'reputation_drop',
    label: 'Reputation drop',
    term: 'alertReputationDrop',
    params: [
      {
        name: 'drop',
        label: 'falls by more than',
        unit: 'points',
        min: 0.000001,
        step: 0.01,
        fallback: 0.1,
        decimals: 6,
      },
      { name: 'windowMinutes', label: 'within', unit: 'min', min: 1, step: 1, fallback: 60 },
    ],
  },
  {
    kind: 'drops_rate',
    label: 'Drops rate',
    term: 'alertDropsRate',
    params: [{ name: 'perMinute', label: 'more than', unit: 'dropped / min', min: 1, step: 1, fallback: 10 }],
  },
  { kind: 'dispute', label: 'Dispute', term: 'alertDispute', params: [] },
];

const BY_KIND = new Map(ALERT_KINDS.map((k) => [k.kind, k]));

export function kindDef(kind: string): KindDef | undefined {
  return BY_KIND.get(kind);
}

/** `lease_due` → "Lease due"; an unknown kind by its words. */
export function kindLabel(kind: string): string {
  return BY_KIND.get(kind)?.label ?? kind.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

/**
 * The fields of one rule, in the shown unit: the known parameters in their order (the server's
 * value, else the fallback; null for an empty optional field), then any other parameter the
 * server sent.
 */
export function ruleFields(
  kind: string,
  params: Record<string, number> | undefined,
): { def: ParamDef; value: number | null }[] {
  const known = BY_KIND.get(kind)?.params ?? [];
  const p = params ?? {};
  const out: { def: ParamDef; value: number | null }[] = known.map((def) => ({
    def,
    value: p[def.name] !== undefined ? p[def.name] / (def.scale ?? 1) : def.fallback,
  }));
  for (const [name, value] of Object.entries(p)) {
    if (!known.some((d) => d.name === name))
      out.push({
        def: {
          name,
          label: name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase(),
          unit: '',
          min: 1,
          step: 1,
          fallback: value,
        },
        value,
      });
  }
  return out;
}

/**
 * A typed threshold, checked before it is sent: the value the server takes (scaled, whole),
 * `undefined` for an empty optional field, or a sentence when it is not usable.
 */
export function checkParam(def: ParamDef, text: string): { value: number | undefined } | { error: string } {
  const t = text.trim();
  if (t === '') return def.optional ? { value: undefined } : { error: `Give a number for "${def.label}".` };
  const n = Number(t);
  if (!Number.isFinite(n)) return { error: `"${t}" is not a number (${def.label}).` };
  if (n < def.min) return { error: `"${def.label}" must be at least ${def.min}${def.unit ? ` ${def.unit}` : ''}.` };
  if (def.decimals !== undefined) {
    const k = 10 ** def.decimals;
    if (Math.abs(n * k - Math.round(n * k)) > 1e-6)
      return { error: `"${def.label}" has more decimals than the server keeps (${def.decimals}).` };
    return { value: n };
  }
  const scaled = n * (def.scale ?? 1);
  const whole = Math.round(scaled);
  if (Math.abs(scaled - whole) > 1e-6 * Math.max(1, Math.abs(scaled))) {
    return {
      error: def.scale
        ? `"${def.label}" has more decimals than the server keeps (${String(def.scale).length - 1}).`
        : `"${def.label}" must be a whole number.`,
    };
  }
  return { value: whole };
}
