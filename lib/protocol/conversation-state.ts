/**
 * A conversation's stage and outcome as a state machine over its envelopes (docs/protocol.md
 * "Conversation state"). Only an ACCEPT makes a deal: what follows a deal (DELIVER, notarisation,
 * VERDICT, FEEDBACK, DISPUTE) moves an agreed conversation along, and without an ACCEPT it is
 * "without a deal", never "agreed". FEEDBACK alone is feedback without a deal.
 *
 * The machine's state is the set of envelope types seen, so the answer is the same in whatever
 * order the envelopes arrive: the observer receives gossip out of order and ingests batches in any
 * split (lib/store/envelopes/ingest.ts), and every split must store the same stage. The store keeps that set
 * as a bit mask (`conversation.types_seen`); `conversationStateSql` is this function over the
 * mask in SQL, generated from the same rules, so the stored stage and this function cannot differ.
 */
import { MsgType } from './types';

/** Every stage a conversation can be in, in the order of the deal path. */
export const CONVERSATION_STAGES = [
  'discovery',
  'negotiating',
  'rejected',
  'accepted',
  'delivered',
  'notarizing',
  'verdict',
  'completed',
  'disputed',
  'feedback_without_deal',
  'without_deal',
] as const;
export type ConversationStage = (typeof CONVERSATION_STAGES)[number];

/** Every outcome: `open` while nothing decided it; `no_deal` for deal steps seen without an ACCEPT. */
export const CONVERSATION_OUTCOMES = ['agreed', 'rejected', 'disputed', 'no_deal', 'open'] as const;
export type ConversationOutcome = (typeof CONVERSATION_OUTCOMES)[number];

export interface ConversationState {
  stage: ConversationStage;
  outcome: ConversationOutcome;
}

/** Words for a stage, as every page shows it (the API and datasets carry the identifier). */
export const STAGE_LABELS: Record<ConversationStage, string> = {
  discovery: 'discovery',
  negotiating: 'negotiating',
  rejected: 'rejected',
  accepted: 'accepted',
  delivered: 'delivered',
  notarizing: 'notarizing',
  verdict: 'verdict',
  completed: 'completed',
  disputed: 'disputed',
  feedback_without_deal: 'feedback without a deal',
  without_deal: 'deal steps without a deal',
};
export const OUTCOME_LABELS: Record<ConversationOutcome, string> = {
  agreed: 'agreed',
  rejected: 'rejected',
  disputed: 'disputed',
  no_deal: 'no deal',
  open: 'open',
};

/** Envelope types that belong to a conversation (ADVERTISE and BEACON belong to none). */
const CONVERSATION_TYPES: readonly number[] = [
  MsgType.DISCOVER,
  MsgType.PROPOSE,
  MsgType.COUNTER,
  MsgType.ACCEPT,
  MsgType.REJECT,
  MsgType.DELIVER,
  MsgType.NOTARIZE_BID,
  MsgType.NOTARIZE_ASSIGN,
  MsgType.VERDICT,
  MsgType.FEEDBACK,
  MsgType.DISPUTE,
];
const AFTER_DEAL = [
  MsgType.DELIVER,
  MsgType.NOTARIZE_BID,
  MsgType.NOTARIZE_ASSIGN,
  MsgType.VERDICT,
  MsgType.FEEDBACK,
  MsgType.DISPUTE,
];

/** One rule: the first whose condition holds on the set of types seen gives the state. */
interface Rule {
  all?: number[];
  any?: number[];
  none?: number[];
  stage: ConversationStage;
  outcome: ConversationOutcome;
}

/** The machine, furthest state first (docs/protocol.md "Conversation state" is this table in words). */
export const CONVERSATION_RULES: readonly Rule[] = [
  { all: [MsgType.ACCEPT, MsgType.DISPUTE], stage: 'disputed', outcome: 'disputed' },
  { all: [MsgType.ACCEPT, MsgType.FEEDBACK], stage: 'completed', outcome: 'agreed' },
  { all: [MsgType.ACCEPT, MsgType.VERDICT], stage: 'verdict', outcome: 'agreed' },
  {
    all: [MsgType.ACCEPT],
    any: [MsgType.NOTARIZE_BID, MsgType.NOTARIZE_ASSIGN],
    stage: 'notarizing',
    outcome: 'agreed',
  },
  { all: [MsgType.ACCEPT, MsgType.DELIVER], stage: 'delivered', outcome: 'agreed' },
  { all: [MsgType.ACCEPT], stage: 'accepted', outcome: 'agreed' },
  { all: [MsgType.REJECT], stage: 'rejected', outcome: 'rejected' },
  { all: [MsgType.FEEDBACK], stage: 'feedback_without_deal', outcome: 'no_deal' },
  { any: AFTER_DEAL, stage: 'without_deal', outcome: 'no_deal' },
  { any: [MsgType.PROPOSE, MsgType.COUNTER], stage: 'negotiating', outcome: 'open' },
  { stage: 'discovery', outcome: 'open' },
];

const bit = (t: number) => 1 << t;
const maskOf = (ts: readonly number[] | undefined) => (ts ?? []).reduce((m, t) => m | bit(t), 0);

/** The bit of a conversation envelope type in a `types_seen` mask; 0 for types that belong to no conversation. */
export function conversationTypeBit(msgType: number): number {
  return CONVERSATION_TYPES.includes(msgType) ? bit(msgType) : 0;
}

/** The mask of the conversation envelope types among `types`. */
export function typesSeenMask(types: Iterable<number>): number {
  let m = 0;
  for (const t of types) m |= conversationTypeBit(t);
  return m;
}

const holds = (r: Rule, m: number) => {
  const all = maskOf(r.all),
    any = maskOf(r.any),
    none = maskOf(r.none);
  return (m & all) === all && (any === 0 || (m & any) !== 0) && (m & none) === 0;
};

/** The state of a conversation whose envelopes have the types in `mask` (see {@link typesSeenMask}). */
export function conversationStateOfMask(mask: number): ConversationState {
  for (const r of CONVERSATION_RULES) if (holds(r, mask)) return { stage: r.stage, outcome: r.outcome };
  throw new Error('unreachable: the last rule always holds');
}

/** The state of a conversation from its envelopes' types (any order: the answer does not depend on it). */
export function conversationState(msgTypes: Iterable<number>): ConversationState {
  return conversationStateOfMask(typesSeenMask(msgTypes));
}

/** Whether an outcome is a deal (a counterparty relationship, a receipt, a surplus). */
export const isDeal = (o: ConversationOutcome | string | null | undefined) => o === 'agreed' || o === 'disputed';

/** "completed (agreed)", "feedback without a deal (no deal)": the stage with its outcome when that says more. */
export function stateLabel(stage: string, outcome: string | null | undefined): string {
  const s = STAGE_LABELS[stage as ConversationStage] ?? stage;
  const o = outcome ? (OUTCOME_LABELS[outcome as ConversationOutcome] ?? outcome) : null;
  if (!o || o === 'open' || o === s || outcome === 'no_deal') return s;
  return `${s} (${o})`;
}

/** The machine in SQL over an integer mask column: `stage` and `outcome` CASE expressions. */
export function conversationStateSql(maskCol: string): { stage: string; outcome: string } {
  const cond = (r: Rule) => {
    const parts: string[] = [];
    const all = maskOf(r.all),
      any = maskOf(r.any),
      none = maskOf(r.none);
    if (all) parts.push(`(${maskCol} & ${all}) = ${all}`);
    if (any) parts.push(`(${maskCol} & ${any}) <> 0`);
    if (none) parts.push(`(${maskCol} & ${none}) = 0`);
    return parts.length ? parts.join(' AND ') : 'TRUE';
  };
  const rules = CONVERSATION_RULES.slice(0, -1);
  const last = CONVERSATION_RULES[CONVERSATION_RULES.length - 1];
  const expr = (k: 'stage' | 'outcome') =>
    `CASE ${rules.map((r) => `WHEN ${cond(r)} THEN '${r[k]}'`).join(' ')} ELSE '${last[k]}' END`;
  return { stage: expr('stage'), outcome: expr('outcome') };
}
