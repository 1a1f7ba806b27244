/**
 * JSON forms of program events and accounts (lib/wire conventions): addresses base58, byte
 * arrays lowercase hex, u64 as decimal strings. Agent ids also as hex (`agentHex`), the form
 * envelopes carry them in. The live events' shapes are lib/wire/chain-events.ts.
 */
import { PublicKey } from '../chain';
import type { ProgramEvent } from '../chain/events';
import { HAGGLE_REFUND_REASONS, HAGGLE_STATUS_NAMES } from '../chain/haggle';
import { bytesToHex, type Json } from '../wire/codec';
import type { ChainEventType, ChainLiveEvent, HaggleEventType, HaggleLiveEvent } from '../wire/events';

export type { Json };

/** Recursively converts decoded fields to JSON-ready values. */
export function toJson(v: unknown): Json {
  if (v === null || v === undefined) return null;
  if (v instanceof PublicKey) return v.toBase58();
  if (v instanceof Uint8Array) return bytesToHex(v);
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(toJson);
  if (typeof v === 'object')
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, toJson(x)]));
  return String(v);
}

export const STAKE_STATUS_NAMES: Record<number, string> = {
  0: 'none',
  1: 'locked',
  2: 'unlocking',
  3: 'claimed',
  4: 'slashed',
};
export const LEASE_STATUS_NAMES: Record<number, string> = { 0: 'active', 1: 'grace', 2: 'deactivated' };
export const CHALLENGE_STATUS_NAMES: Record<number, string> = {
  0: 'pending',
  1: 'upheld',
  2: 'rejected',
  3: 'void',
  4: 'expired',
};

const hex = (k: PublicKey) => bytesToHex(k.toBytes());

/**
 * The live event for one newly stored program event, or null when it has none
 * (UnlockQueued, StakeClaimed, buffers, initializations stay in chain_event only). Haggle
 * events name their negotiation and conversation, not an agent.
 */
export function liveEventOf(
  ev: ProgramEvent,
  ctx: { signature: string; slot: number; at: number; batchStatus?: string },
): ChainLiveEvent | HaggleLiveEvent | null {
  const base = { signature: ctx.signature, slot: ctx.slot };
  const d = ev.event.data as unknown as Record<string, unknown>;
  const agent = d.agent instanceof PublicKey ? { agent: d.agent.toBase58(), agentHex: hex(d.agent) } : {};
  const data = { ...agent, ...(toJson(d) as Record<string, Json>), ...base };
  // The decoded fields are the program's event layout, so each `data` matches its lib/wire
  // schema by construction (lib/wire/events.test.ts checks every type against it).
  const mk = (type: ChainEventType | HaggleEventType, extra: Record<string, Json> = {}) =>
    ({ type, at: ctx.at, data: { ...data, ...extra } }) as ChainLiveEvent | HaggleLiveEvent;
  const name = (table: Readonly<Record<number, string>>, v: unknown) => table[v as number] ?? String(v);
  switch (ev.event.name) {
    case 'LeasePaid':
      return mk('lease_paid');
    case 'LeaseTicked': {
      const t = ev.event.data as { status: number; prevStatus: number };
      return t.status === 2 && t.prevStatus !== 2 ? mk('agent_deactivated') : null;
    }
    case 'StakeLocked':
      return mk('stake_locked');
    case 'StakeSlashed':
      return mk('stake_slashed');
    case 'BatchSubmitted':
      return mk('batch_submitted', { status: ctx.batchStatus ?? 'unverified' });
    case 'ChallengeSubmitted':
      return mk('challenge_submitted');
    case 'ChallengeResolved': {
      const r = ev.event.data as { status: number };
      return mk('challenge_resolved', { statusName: CHALLENGE_STATUS_NAMES[r.status] ?? String(r.status) });
    }
    case 'NegotiationCreated':
      return mk('haggle_created');
    case 'NegotiationJoined':
      return mk('haggle_joined');
    case 'OfferSubmitted':
      return mk('haggle_offer', { statusName: name(HAGGLE_STATUS_NAMES, d.status) });
    case 'ReservationCommitted':
      return mk('haggle_committed');
    case 'ReservationRevealed':
      return mk('haggle_revealed');
    case 'OfferAccepted':
      return mk('haggle_accepted');
    case 'NegotiationSettled':
      return mk('haggle_settled');
    case 'NegotiationRefunded':
      return mk('haggle_refunded', {
        statusName: name(HAGGLE_STATUS_NAMES, d.status),
        reasonName: name(HAGGLE_REFUND_REASONS, d.reason),
      });
    default:
      return null;
  }
}
