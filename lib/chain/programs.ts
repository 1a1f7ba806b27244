/**
 * The Zerox1 programs from TypeScript (0x01 spec §10.2–10.5, programs/README.md): program ids,
 * PDA derivation, account/instruction/event codecs and @solana/web3.js 1.x instruction builders,
 * all generated from programs/<name>/program.json. Use as `lease.payLeaseInstruction(...)`.
 */
import { PublicKey } from '@solana/web3.js';
import * as behaviorLog from './gen/behavior_log';
import * as challenge from './gen/challenge';
import * as haggle from './gen/haggle';
import { PROGRAM_IDS } from './gen/ids';
import * as lease from './gen/lease';
import * as satiRegistry from './gen/sati_registry';
import * as stakeLock from './gen/stake_lock';

export { behaviorLog, challenge, lease, PROGRAM_IDS, stakeLock };

/** Lease status values (spec §10.3). */
export const LEASE_STATUS = { active: 0, grace: 1, deactivated: 2 } as const;
/** Stake status values (spec §10.5). */
export const STAKE_STATUS = { locked: 1, unlocking: 2, claimed: 3, slashed: 4 } as const;

/** Every PDA an agent's stake and lease flows touch (spec §10.3, §10.5). */
export interface AgentAddresses {
  lease: PublicKey;
  stake: PublicKey;
  agentChallenges: PublicKey;
}

/** Derives the per-agent PDAs of lease, stake_lock and challenge. */
export function agentAddresses(agent: PublicKey): AgentAddresses {
  if (!(agent instanceof PublicKey)) throw new TypeError('agent must be a PublicKey');
  return {
    lease: lease.findLeasePda(agent)[0],
    stake: stakeLock.findStakePda(agent)[0],
    agentChallenges: challenge.findAgentPda(agent)[0],
  };
}

const ALL_ERRORS: ReadonlyMap<number, string> = new Map(
  [lease, stakeLock, behaviorLog, challenge, haggle, satiRegistry].flatMap((m) =>
    Object.entries(m.ERROR_MESSAGES).map(([k, v]) => [Number(k), v] as const),
  ),
);

/** The name and message of a custom program error code of any Zerox1 program, or undefined. */
export function programErrorMessage(code: number): string | undefined {
  return ALL_ERRORS.get(code);
}
