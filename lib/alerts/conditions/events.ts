/**
 * The event conditions the live bus raises directly: `dispute` (a DISPUTE where a watched agent
 * is the sender or the recipient, or in a watched conversation) and `slashed` (a watched agent's
 * stake slashed). They only fire; an event alert never opens twice for its subject.
 */
import type { LiveEventOf } from '../../wire/events';
import type { Status } from '../tick-write';
import { type WatchSet, watchedBy } from '../watch-set';

type Name = (agentHex: string) => string;

export function dispute(d: LiveEventOf<'dispute_raised'>['data'], watch: WatchSet, name: Name): Status[] {
  const out: Status[] = [];
  for (const l of watch.lists.values()) {
    if (!l.rules.has('dispute')) continue;
    for (const a of [d.sender, d.recipient]) {
      if (l.allAgents || l.agents.has(a))
        out.push({
          wl: l.id,
          agent: a,
          kind: 'dispute',
          subject: d.conversationId,
          firing: true,
          why:
            `${name(d.disputant)} raised a DISPUTE in conversation ` +
            `${d.conversationId} (envelope ${d.envelopeId.slice(0, 16)}…), where ` +
            `${name(a)} is ${a === d.sender ? 'the sender' : 'the recipient'}`,
        });
    }
    if (l.convs.has(d.conversationId) && !l.agents.has(d.sender) && !l.agents.has(d.recipient)) {
      out.push({
        wl: l.id,
        agent: d.disputant,
        kind: 'dispute',
        subject: d.conversationId,
        firing: true,
        why:
          `${name(d.disputant)} raised a DISPUTE in watched conversation ` +
          `${d.conversationId} (envelope ${d.envelopeId.slice(0, 16)}…)`,
      });
    }
  }
  return out;
}

export function slashed(d: LiveEventOf<'stake_slashed'>['data'], watch: WatchSet, name: Name): Status[] {
  return watchedBy(watch, d.agentHex)
    .filter((l) => l.rules.has('slashed'))
    .map((l) => ({
      wl: l.id,
      agent: d.agentHex,
      kind: 'slashed' as const,
      subject: d.signature,
      firing: true,
      why:
        `stake of ${name(d.agentHex)} slashed: ${d.amount} base units of USDC (${d.reward} to the challenger, ` +
        `${d.toTreasury} to the treasury), transaction ${d.signature.slice(0, 16)}… at slot ${d.slot}`,
    }));
}
