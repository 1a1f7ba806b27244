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
  min: number;
  step: number;
  /** Shown in the field until the server says otherwise. */
  fallback: number;
}

export interface KindDef {
  kind: string;
  label: string;
  term: GlossaryKey;
  params: ParamDef[];
}

export const ALERT_KINDS: readonly KindDef[] = [
  { kind: 'offline', label: 'Offline', term: 'alertOffline', params: [{ name: 'minutes', label: 'silent for', unit: 'min', min: 1, step: 1, fallback: 10 }] },
  { kind: 'lease_due', label: 'Lease due', term: 'alertLeaseDue', params: [{ name: 'hours', label: 'due within', unit: 'h', min: 0, step: 1, fallback: 24 }] },
  { kind: 'lease_grace', label: 'Lease in grace', term: 'alertLeaseGrace', params: [] },
  { kind: 'deactivated', label: 'Deactivated', term: 'alertDeactivated', params: [] },
  { kind: 'batch_missing', label: 'Batch missing', term: 'alertBatchMissing', params: [] },
  { kind: 'batch_mismatch', label: 'Batch mismatch', term: 'alertBatchMismatch', params: [] },
  { kind: 'challenged', label: 'Challenged', term: 'alertChallenged', params: [] },
  { kind: 'challenge_resolved', label: 'Challenge resolved', term: 'alertChallengeResolved', params: [] },
  { kind: 'slashed', label: 'Slashed', term: 'alertSlashed', params: [] },
  {
    kind: 'reputation_drop', label: 'Reputation drop', term: 'alertReputationDrop',
    params: [
      { name: 'drop', label: 'drops by', unit: 'of 1.0', min: 0, step: 0.01, fallback: 0.1 },
      { name: 'windowHours', label: 'within', unit: 'h', min: 1, step: 1, fallback: 24 },
    ],
  },
  { kind: 'drops_rate', label: 'Drops rate', term: 'alertDropsRate', params: [{ name: 'perMinute', label: 'more than', unit: 'per min', min: 0, step: 1, fallback: 10 }] },
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
 * The fields of one rule: the known parameters in their order (the server's value, else the
 * fallback), then any other parameter the server sent.
 */
export function ruleFields(kind: string, params: Record<string, number> | undefined): { def: ParamDef; value: number }[] {
  const known = BY_KIND.get(kind)?.params ?? [];
  const p = params ?? {};
  const out = known.map((def) => ({ def, value: p[def.name] ?? def.fallback }));
  for (const [name, value] of Object.entries(p)) {
    if (!known.some((d) => d.name === name)) out.push({ def: { name, label: name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase(), unit: '', min: 0, step: 1, fallback: value }, value });
  }
  return out;
}

/** A typed threshold, checked before it is sent: a sentence when it is not a usable number. */
export function checkParam(def: ParamDef, text: string): { value: number } | { error: string } {
  const t = text.trim();
  if (t === '') return { error: `Give a number for "${def.label}".` };
  const n = Number(t);
  if (!Number.isFinite(n)) return { error: `"${t}" is not a number (${def.label}).` };
  if (n < def.min) return { error: `"${def.label}" must be at least ${def.min}${def.unit ? ` ${def.unit}` : ''}.` };
  return { value: n };
}
