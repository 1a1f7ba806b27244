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
 * - every demo agent's economy series (stake, stake status, lease paid through, lease active: the
 *   figures the agent page's chart and GET /api/agents/{id}/economy end on) against its stake and
 *   lease accounts read now with getAccountInfo (lib/indexer/economy-check.ts).
 */

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PublicKey } from '../lib/chain';
import { checkEconomyAgainstChain } from '../lib/indexer/economy-check';
import { conversationState, isDeal } from '../lib/protocol/conversation-state';
import { MsgType } from '../lib/protocol/types';
import type {
  ConversationList,
  ConversationSummaryView,
  ConversationView,
  EnvelopePage,
  NegotiationView,
} from '../lib/wire';
import { type ApiHarness, startApiHarness, until } from './api-testing';

let h: ApiHarness;
const EPOCH_SECONDS = 5n;

/** Envelope type names (as the API spells them) back to their codes. */
const TYPE_CODE = new Map<string, number>(Object.entries(MsgType).map(([k, v]) => [k, v]));

before(
  async () => {
    h = await startApiHarness({ DEMO_AGENTS: '6', EPOCH_SECONDS: String(EPOCH_SECONDS) });
  },
  { timeout: 120_000 },
);

after(async () => {
  await h?.stop();
});

async function allConversations(): Promise<ConversationSummaryView[]> {
  const out: ConversationSummaryView[] = [];
  let before: string | null = null;
  do {
    const r: { status: number; body: ConversationList } = await h.getJson<ConversationList>(
      `/api/conversations?limit=500${before ? `&before=${encodeURIComponent(before)}` : ''}`,
    );
    assert.equal(r.status, 200);
    out.push(...r.body.conversations);
    before = r.body.next;
  } while (before);
  return out;
}

test("every conversation: list, conversation and flight recorder give the state machine's stage and outcome", {
  timeout: 120_000,
}, async () => {
  // Enough of the demo to hold both kinds, counted from the envelopes (not from the stages under
  // test): conversations holding FEEDBACK (the ring's among them) and negotiations.
  await until('two conversations holding only FEEDBACK and two negotiations stored', 75_000, async () => {
    const page = (await h.getJson<EnvelopePage>('/api/envelopes?limit=500')).body.envelopes;
    const other = new Set(page.filter((e) => e.type !== 'FEEDBACK').map((e) => e.conversationId));
    const feedbackOnly = new Set(
      page.filter((e) => e.type === 'FEEDBACK' && !other.has(e.conversationId)).map((e) => e.conversationId),
    );
    const negotiations = new Set(page.filter((e) => e.type === 'PROPOSE').map((e) => e.conversationId));
    return feedbackOnly.size >= 2 && negotiations.size >= 2;
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
    const seen = {
      list: [c.stage, c.outcome],
      conversation: [one.body.stage, one.body.outcome],
      recorder: [want.stage, nego.body.outcome],
    };
    for (const [where, got] of Object.entries(seen)) {
      if (got[0] !== want.stage || got[1] !== want.outcome)
        wrong.push(
          `${c.id} ${where}: ${got.join('/')} but its envelopes (` +
            `${one.body.envelopes.map((e) => e.type).join(' ')}) make ${want.stage}/${want.outcome}`,
        );
    }
    if (types.every((t) => t === MsgType.FEEDBACK)) {
      ringOnly++;
      if (isDeal(c.outcome)) wrong.push(`${c.id}: only FEEDBACK, yet ${c.outcome}`);
    }
  }
  assert.deepEqual(
    wrong,
    [],
    `${new Set(wrong.map((w) => w.slice(0, 32))).size} of ${list.length} conversations disagree`,
  );
  assert.ok(ringOnly >= 2, `conversations with only FEEDBACK checked: ${ringOnly}`);
});

test("every demo agent: the latest stake and lease figure of its economy series equals the chain's accounts", {
  timeout: 90_000,
}, async () => {
  const chain = h.runtime.chain;
  const agents = h.runtime.demo?.agents ?? [];
  assert.ok(chain && agents.length === 6, 'the demo runs on the embedded chain');
  // The agents are stopped (above): the chain stops moving, and the indexer catches up within a
  // few polls. What must hold then is equality, for every agent, whatever it did.
  let mismatches: Awaited<ReturnType<typeof checkEconomyAgainstChain>> = [];
  await until('the economy series of every agent equal to its accounts', 60_000, async () => {
    mismatches = await checkEconomyAgainstChain(
      { store: h.runtime.observatory.store, connection: chain.connection, epochSeconds: EPOCH_SECONDS },
      agents.map((a) => a.agentId),
    ).catch(() => [{ agent: '?', figure: 'stake', series: null, chain: 'read failed' } as const]);
    return mismatches.length === 0;
  }).catch(() => undefined);
  assert.deepEqual(mismatches, []);
  // The series the API serves (and the agent page draws) ends on the same figures.
  let staked = 0;
  for (const a of agents) {
    const id = new PublicKey(Buffer.from(a.agentId, 'hex')).toBase58();
    const r = await h.getJson<{
      known: boolean;
      points: Array<{ stake: string }>;
      accounts: { stake: { amount: string } | null };
    }>(`/api/agents/${id}/economy`);
    assert.equal(r.status, 200, id);
    assert.equal(r.body.known, true, id);
    const last = r.body.points.at(-1);
    assert.equal(
      last?.stake ?? '0',
      r.body.accounts.stake?.amount ?? '0',
      `${id}: the last point against the stake account`,
    );
    if (BigInt(last?.stake ?? '0') > 0n) staked++;
  }
  assert.ok(staked >= 1, 'at least one demo agent has stake locked');
});
