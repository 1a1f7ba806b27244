/**
 * The negmas table (docs/datasets.md "NegMAS"): one conversation's offers in the shape of NegMAS's
 * negotiation trace, so a NegMAS user loads it without glue. The NegMAS types targeted (negmas
 * 0.10/0.11, `negmas.common.TraceElement` and `SAOMechanism.full_trace`):
 * - `TraceElement(time, relative_time, step, negotiator, offer, responses, state)`;
 * - `offer` an Outcome: a tuple with one value per issue, here the one issue price;
 * - `responses` what answered the offer, as `ResponseType` (ACCEPT_OFFER, REJECT_OFFER,
 *   END_NEGOTIATION, NO_RESPONSE, WAIT); SAOMechanism writes a one-item tuple, so one name here;
 * - `state` one of continuing, agreement, timedout, ended, error (SAOMechanism's `response(state)`);
 * - `step` the mechanism's step, which for NEG1 is the round the offer names;
 * - no row of its own for the acceptance: NegMAS adds one only when the agreement is not the last
 *   offer, and an ACCEPT names the offer it takes.
 */
import type { HaggleNegotiationRow } from '../store';
import { negotiationOutcome, offerRows } from './negotiation';
import type { EnvelopeRecord } from './rows';
import type { Row } from './schema';

/** NegMAS's state after the last offer, by the negotiations table's outcome. */
const LAST_STATE: Record<string, string> = {
  agreed: 'agreement',
  disputed: 'agreement',
  rejected: 'ended',
  no_deal: 'ended',
  expired: 'timedout',
  open: 'continuing',
};

/**
 * The negmas rows of one conversation (every envelope of it, protocol order), at `nowUs` with its Haggle negotiations.
 */
export function negmasRows(envs: EnvelopeRecord[], nowUs: bigint, chain: readonly HaggleNegotiationRow[] = []): Row[] {
  const offers = offerRows(envs).filter((r) => r.msg_type_name === 'PROPOSE' || r.msg_type_name === 'COUNTER');
  if (!offers.length) return [];
  const last = LAST_STATE[negotiationOutcome(envs, nowUs, chain) ?? 'open'] ?? 'continuing';
  return offers.map((r, i) => {
    const final = i === offers.length - 1;
    // The last offer's answer, when no message gave one, is what the outcome says happened to it.
    const answer =
      (r.response as string | null) ??
      (final && last === 'agreement' ? 'ACCEPT_OFFER' : final && last === 'ended' ? 'END_NEGOTIATION' : 'NO_RESPONSE');
    return {
      time: r.time,
      relative_time: r.relative_time,
      step: r.round,
      negotiator: r.negotiator,
      offer: [r.offer],
      responses: [answer],
      state: final ? last : 'continuing',
      conversation_id: r.conversation_id,
      envelope_id: r.envelope_id,
    };
  });
}
