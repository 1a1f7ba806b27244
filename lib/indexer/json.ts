/**
 * JSON forms of program events and accounts (lib/wire conventions): addresses base58, byte
 * arrays lowercase hex, u64 as decimal strings. Agent ids also as hex (`agentHex`), the form
 * envelopes carry them in. The live events' shapes are lib/wire/chain-events.ts.
 */
import { PublicKey } from '../chain';
import type { ProgramEvent } from '../chain/events';
import { bytesToHex, type Json } from '../wire/codec';
import type { ChainEventType, ChainLiveEvent } from '../wire/events';

export type { Json };

/** Recursively converts decoded fields to JSON-ready values. */
export function toJson(v: unknown): Json {
  if (v === null || v === undefined) return null;
  if (v instanceof PublicKey) return v.toBase58();
  if (v instanceof Uint8Array) return bytesToHex(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(toJson);
  if (typeof v === 'object') return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, toJson(x)]));
  return String(v);
}

export const STAKE_STATUS_NAMES: Record<number, string> = { 0: 'none', 1: 'locked', 2: 'unlocking', 3: 'claimed', 4: 'slashed' };
export const LEASE_STATUS_NAMES: Record<number, string> = { 0: 'active', 1: 'grace', 2: 'deactivated' };
export const CHALLENGE_STATUS_NAMES: Record<number, string> = { 0: 'pending', 1: 'upheld', 2: 'rejected', 3: 'void', 4: 'expired' };

const hex = (k: PublicKey) => bytesToHex(k.toBytes());

/**
 * The live event for one newly stored program event, or null when it has none
 * (UnlockQueued, StakeClaimed, buffers, initializations stay in chain_event only).
 */
export function liveEventOf(ev: ProgramEvent, ctx: { signature: string; slot: number; at: number; batchStatus?: string }): ChainLiveEvent | null {
  const base = { signature: ctx.signature, slot: ctx.slot };
  const d = ev.event.data as unknown as Record<string, unknown>;
  const agent = d.agent instanceof PublicKey ? { agent: d.agent.toBase58(), agentHex: hex(d.agent) } : {};
  const data = { ...agent, ...(toJson(d) as Record<string, Json>), ...base };
  // The decoded fields are the program's event layout, so each `data` matches its lib/wire
  // schema by construction (lib/wire/events.test.ts checks every type against it).
  const mk = (type: ChainEventType, extra: Record<string, Json> = {}): ChainLiveEvent => ({ type, at: ctx.at, data: { ...data, ...extra } }) as ChainLiveEvent;
  switch (ev.event.name) {
    case 'LeasePaid': return mk('lease_paid');
    case 'LeaseTicked': {
      const t = ev.event.data as { status: number; prevStatus: number };
      return t.status === 2 && t.prevStatus !== 2 ? mk('agent_deactivated') : null;
    }
    case 'StakeLocked': return mk('stake_locked');
    case 'StakeSlashed': return mk('stake_slashed');
    case 'BatchSubmitted': return mk('batch_submitted', { status: ctx.batchStatus ?? 'unverified' });
    case 'ChallengeSubmitted': return mk('challenge_submitted');
    case 'ChallengeResolved': {
      const r = ev.event.data as { status: number };
      return mk('challenge_resolved', { statusName: CHALLENGE_STATUS_NAMES[r.status] ?? String(r.status) });
    }
    default: return null;
  }
}
