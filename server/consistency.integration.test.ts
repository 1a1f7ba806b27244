/**
 * One truth on every page, checked on the running demo: the real runtime (store, embedded chain,
 * observer, indexer) with six demo agents, so the feedback ring runs beside ordinary deals. After
 * the agents have traded for a while they stop, the observer flushes, and every stored
 * conversation is compared:
 *
 * - its stage and outcome as the list (`GET /api/conversations`) and the conversation
 *   (`GET /api/conversations/{id}`) give them, and the outcome of its flight recorder
 *   (`GET /api/conversations/{id}/negotiation`, what the page shows), against the state machine
 *   of lib/protocol/conversation-state.ts applied to the envelopes stored for it.
 *
 * The chain half (each agent's latest stake and lease figure against the chain's accounts) has
 * its place below, marked.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { conversationState, isDeal } from '../lib/protocol/conversation-state';
import { MsgType } from '../lib/protocol/types';
import type { ConversationList, ConversationSummaryView, ConversationView, EnvelopePage, NegotiationView } from '../lib/wire';
import { startApiHarness, until, type ApiHarness } from './api-testing';

let h: ApiHarness;

/** Envelope type names (as the API spells them) back to their codes. */
const TYPE_CODE = new Map<string, number>(Object.entries(MsgType).map(([k, v]) => [k, v]));

before(async () => {
  h = await startApiHarness({ DEMO_AGENTS: '6' });
}, { timeout: 120_000 });

after(async () => {
  await h?.stop();
});

async function allConversations(): Promise<ConversationSummaryView[]> {
  const out: ConversationSummaryView[] = [];
  let before: string | null = null;
  do {
    const r: { status: number; body: ConversationList } = await h.getJson<ConversationList>(`/api/conversations?limit=500${before ? `&before=${encodeURIComponent(before)}` : ''}`);
    assert.equal(r.status, 200);
    out.push(...r.body.conversations);
    before = r.body.next;
  } while (before);
  return out;
}

test('every conversation: list, conversation and flight recorder give the state machine\'s stage and outcome', { timeout: 90_000 }, async () => {
  // Enough of the demo to hold both kinds, counted from the envelopes (not from the stages under
  // test): conversations holding FEEDBACK (the ring's among them) and negotiations.
  await until('FEEDBACK in two conversations and two negotiations stored', 60_000, async () => {
    const convsOf = async (type: string) => new Set((await h.getJson<EnvelopePage>(`/api/envelopes?type=${type}&limit=500`)).body.envelopes.map((e) => e.conversationId));
    return (await convsOf('FEEDBACK')).size >= 2 && (await convsOf('PROPOSE')).size >= 2;
  });
  // A still picture: no agent sends while the check reads.
  await h.runtime.demo?.stop();
  await h.runtime.observatory.flush();

  const list = await allConversations();
  const wrong: string[] = [];
  let ringOnly = 0;
  for (const c of list) {
    const one = await h.getJson<ConversationView>(`/api/conversations/${c.id}`);
    assert.equal(one.status, 200, c.id);
    const types = one.body.envelopes.map((e) => TYPE_CODE.get(e.type) ?? -1);
    const want = conversationState(types);
    const nego = await h.getJson<NegotiationView>(`/api/conversations/${c.id}/negotiation`);
    assert.equal(nego.status, 200, c.id);
    const seen = { list: [c.stage, c.outcome], conversation: [one.body.stage, one.body.outcome], recorder: [want.stage, nego.body.outcome] };
    for (const [where, got] of Object.entries(seen)) {
      if (got[0] !== want.stage || got[1] !== want.outcome) wrong.push(`${c.id} ${where}: ${got.join('/')} but its envelopes (${one.body.envelopes.map((e) => e.type).join(' ')}) make ${want.stage}/${want.outcome}`);
    }
    if (types.every((t) => t === MsgType.FEEDBACK)) {
      ringOnly++;
      if (isDeal(c.outcome)) wrong.push(`${c.id}: only FEEDBACK, yet ${c.outcome}`);
    }
  }
  assert.deepEqual(wrong, [], `${new Set(wrong.map((w) => w.slice(0, 32))).size} of ${list.length} conversations disagree`);
  assert.ok(ringOnly >= 2, `conversations with only FEEDBACK checked: ${ringOnly}`);

  // ---------------------------------------------------------------------------------------------
  // STAKE / LEASE AGAINST THE CHAIN (to be added by the lead): for every demo agent, the latest
  // point of the agent page's stake and lease series against what the chain's accounts read now
  // (getAccountInfo). The runtime's chain is `h.runtime.chain`; the demo agents are
  // `h.runtime.demo.agents` (stopped above, so the chain no longer moves under the check).
  // ---------------------------------------------------------------------------------------------
});
