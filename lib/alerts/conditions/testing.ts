/**
 * Test helpers of the pure alert conditions: agents as plain bytes, a watch set built from plain
 * rows (the shape of the store's `watchState`) and a condition input at a given time. No store.
 */
import { toHex } from '../../protocol/hex';
import type { AlertKind } from '../kinds';
import { type Status, whyOf } from '../tick-write';
import { buildWatchSet, type WatchSet } from '../watch-set';
import type { ConditionInput } from './input';

export const ES = 20;
/** 2024-01-01T00:00:00Z, an epoch boundary at ES. */
export const EPOCH_START = 1_704_067_200_000;
export const CUR = BigInt(EPOCH_START / 1000 / ES);

export const bytes = (b: number) => new Uint8Array(32).fill(b);
export const hex = (b: number) => toHex(bytes(b));

export interface ListSpec {
  id: string;
  allAgents?: boolean;
  /** Enabled rules with stored params (defaults filled in as the evaluator does). */
  rules: Partial<Record<AlertKind, Record<string, unknown>>>;
  /** Watched agents, with when they were added (ms, default 0). */
  agents?: Array<[number, number?]>;
  /** Watched conversations (hex). */
  convs?: string[];
}

export function watchOf(...lists: ListSpec[]): WatchSet {
  return buildWatchSet({
    lists: lists.map((l) => ({ id: l.id, allAgents: l.allAgents ?? false })),
    rules: lists.flatMap((l) => Object.entries(l.rules).map(([kind, params]) => ({ watchlistId: l.id, kind, params }))),
    items: lists.flatMap((l) => [
      ...(l.agents ?? []).map(([b, at]) => ({
        watchlistId: l.id,
        kind: 'agent',
        target: bytes(b),
        addedAt: new Date(at ?? 0),
      })),
      ...(l.convs ?? []).map((c) => ({
        watchlistId: l.id,
        kind: 'conversation',
        target: Uint8Array.from(Buffer.from(c, 'hex')),
        addedAt: new Date(0),
      })),
    ]),
  });
}

/** The input of a tick at `t` (default 5 s into epoch CUR); agents are named by their first byte. */
export function input(watch: WatchSet, over: Partial<ConditionInput> = {}): ConditionInput {
  const t = over.t ?? EPOCH_START + 5_000;
  return {
    t,
    es: ES,
    cur: BigInt(Math.floor(t / 1000 / ES)),
    watch,
    open: new Map(),
    name: (a) => `agent-${a.slice(0, 2)}`,
    ...over,
  };
}

/** Statuses as `list:agent's first byte:kind:subject=firing`, in order. */
export const brief = (ss: readonly Status[]) =>
  ss.map((s) => `${s.wl}:${s.agent.slice(0, 2)}:${s.kind}:${s.subject}=${s.firing}`);

/** The sentence of the one status of `kind` for the agent `b`. */
export function whyFor(ss: readonly Status[], b: number, kind: AlertKind): string {
  const found = ss.filter((s) => s.agent === hex(b) && s.kind === kind);
  if (found.length !== 1) throw new Error(`${found.length} statuses of ${kind} for ${hex(b).slice(0, 2)}`);
  return whyOf(found[0]);
}
