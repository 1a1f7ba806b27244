/**
 * Live events as sentences ("locked 10 USDC of stake", "The seller countered 0.00081 USDC in round
 * 3"): the agent an event is about is named separately (the page shows its name and id before the
 * sentence), amounts go through the exact formatter, and no raw field name or code reaches the page.
 * The event's fields stay one click away (the overview's event list). Browser-safe.
 */
import type { LiveEvent } from '../lib/wire';
import { formatTokenAmount, USDC_TOKEN } from './format';
import { shortBase58 } from './names/label';

export interface EventText {
  /** The agent (hex) the sentence is about, shown before it; null when the sentence stands alone. */
  agent: string | null;
  conversationId: string | null;
  text: string;
}

const usdc = (v: string | number | bigint) => {
  try {
    return formatTokenAmount(BigInt(v), USDC_TOKEN);
  } catch {
    return 'an unknown amount';
  }
};
const side = (s: number) => (s === 1 ? 'The buyer' : s === 2 ? 'The seller' : 'A party');
const plural = (n: number | string, w: string) => `${n} ${w}${String(n) === '1' ? '' : 's'}`;

/** A signed 16-byte int128 in hex (a Haggle reservation) as a bigint. */
function int128(hex: string): bigint {
  const v = BigInt(`0x${hex}`);
  return v >= 1n << 127n ? v - (1n << 128n) : v;
}

export function eventText(event: LiveEvent): EventText {
  const none = { agent: null, conversationId: null };
  switch (event.type) {
    case 'message':
      return {
        agent: event.data.sender,
        conversationId: event.data.conversationId,
        text: `sent a ${event.data.msgType} envelope`,
      };
    case 'agent_joined':
      return { agent: event.data.agent, conversationId: null, text: 'joined the mesh' };
    case 'reputation_update': {
      const d = event.data;
      const score = d.score > 0 ? `+${d.score}` : String(d.score);
      return {
        agent: d.agent,
        conversationId: d.conversationId,
        text: `was rated ${score} by ${shortBase58(d.from)}${d.isDispute ? ', disputing the outcome' : ''}`,
      };
    }
    case 'notary_assigned':
      return {
        agent: event.data.notary,
        conversationId: event.data.conversationId,
        text: `was picked as notary by ${shortBase58(event.data.assignedBy)}`,
      };
    case 'verdict_issued':
      return {
        agent: event.data.notary,
        conversationId: event.data.conversationId,
        text: `gave its verdict on ${shortBase58(event.data.party)}'s delivery`,
      };
    case 'dispute_raised':
      return { agent: event.data.disputant, conversationId: event.data.conversationId, text: 'disputed a verdict' };
    case 'drop':
      return {
        ...none,
        text: `${plural(event.data.count, 'envelope')} refused (${event.data.reason.replace(/_/g, ' ')})`,
      };
    case 'lease_paid': {
      const d = event.data;
      return {
        agent: d.agentHex,
        conversationId: null,
        text:
          `paid ${usdc(d.amount)} of lease for ${plural(d.epochs, 'epoch')}` +
          `, now paid through epoch ${d.paidThroughEpoch}`,
      };
    }
    case 'agent_deactivated':
      return {
        agent: event.data.agentHex,
        conversationId: null,
        text: `was deactivated: its lease ran out after epoch ${event.data.paidThroughEpoch}`,
      };
    case 'stake_locked':
      return { agent: event.data.agentHex, conversationId: null, text: `locked ${usdc(event.data.amount)} of stake` };
    case 'stake_slashed': {
      const d = event.data;
      return {
        agent: d.agentHex,
        conversationId: null,
        text: `lost ${usdc(d.amount)} of stake to an upheld challenge (${usdc(d.reward)} to the challenger)`,
      };
    }
    case 'batch_submitted': {
      const d = event.data;
      return {
        agent: d.agentHex,
        conversationId: null,
        text: `submitted its batch for epoch ${d.epoch} (${plural(d.messageCount, 'message')}), ${d.status}`,
      };
    }
    case 'challenge_submitted':
      return {
        agent: event.data.agentHex,
        conversationId: null,
        text: `was challenged over its batch of epoch ${event.data.epoch} by ${event.data.challenger.slice(0, 5)}…`,
      };
    case 'challenge_resolved':
      return {
        agent: event.data.agentHex,
        conversationId: null,
        text:
          `saw the challenge over its batch of epoch ${event.data.epoch}` +
          ` ${event.data.statusName.replace(/_/g, ' ')}`,
      };
    case 'haggle_created': {
      const d = event.data;
      return {
        agent: null,
        conversationId: d.conversationId,
        text:
          `A buyer escrowed ${usdc(d.deposit)} on chain for a negotiation of at ` +
          `most ${plural(d.maxRounds, 'round')}, decaying ${d.decayBps} bps per offer`,
      };
    }
    case 'haggle_joined':
      return {
        agent: null,
        conversationId: event.data.conversationId,
        text: 'The seller joined the on-chain negotiation',
      };
    case 'haggle_offer': {
      const d = event.data;
      const verb = d.round <= 1 ? 'offered' : 'countered'; // the chain counts offers from 1: round 1 is the opening
      return {
        agent: null,
        conversationId: d.conversationId,
        text:
          `${side(d.side)} ${verb} ${usdc(d.amount)} in round ${d.round} on ` +
          `chain (${usdc(d.decay)} decayed, ${usdc(d.escrow)} left in escrow)`,
      };
    }
    case 'haggle_committed':
      return {
        agent: null,
        conversationId: event.data.conversationId,
        text: `${side(event.data.side)} sealed its reservation price on chain`,
      };
    case 'haggle_revealed': {
      const d = event.data;
      let price = 'an unreadable price';
      try {
        price = formatTokenAmount(int128(d.price), USDC_TOKEN);
      } catch {
        /* keep the words */
      }
      return {
        agent: null,
        conversationId: d.conversationId,
        text:
          `${side(d.side)} revealed its reservation of ${price}` +
          (d.bothRevealed ? (d.zopa ? '; the prices overlap' : '; the prices do not overlap') : ''),
      };
    }
    case 'haggle_accepted':
      return {
        agent: null,
        conversationId: event.data.conversationId,
        text: `${side(event.data.side)} accepted ${usdc(event.data.amount)} in round ${event.data.round} on chain`,
      };
    case 'haggle_settled': {
      const d = event.data;
      return {
        agent: null,
        conversationId: d.conversationId,
        text:
          `Settled on chain at ${usdc(d.amount)}: ${usdc(d.toSeller)} to the ` +
          `seller, ${usdc(d.fee)} fee, ${usdc(d.refund)} back to the buyer`,
      };
    }
    case 'haggle_refunded': {
      const d = event.data;
      return {
        agent: null,
        conversationId: d.conversationId,
        text: `Refunded ${usdc(d.refund)} to the buyer on chain (${d.reasonName.replace(/_/g, ' ')})`,
      };
    }
    default:
      return { ...none, text: String((event as { type: string }).type).replace(/_/g, ' ') };
  }
}
