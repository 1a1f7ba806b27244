/**
 * Building a BehaviorBatch from an agent's own epoch log (docs/protocol.md §5–6, spec §8.2–8.3).
 *
 * Rules (the log holds envelopes the agent sent and received, in log order):
 * - message_count: every envelope; msg_type_counts[t]: envelopes of msg_type t (t < 16).
 * - unique_counterparties: distinct non-broadcast recipients of sent envelopes and senders
 *   of received ones, the agent itself excluded.
 * - bid_values: NEG1 PROPOSE/COUNTER/ACCEPT the agent sent: [conv, recipient, bid, block_ref].
 * - task_selections: ACCEPT sent (counterparty = recipient) or received (= sender).
 * - tasks_completed: DELIVER the agent sent. notarizations: VERDICT the agent sent.
 * - verifier_ids: NOTARIZE_ASSIGN sent or received; the verifier is its recipient.
 * - feedback_events: FEEDBACK from others whose target_agent is the agent, attestation hash
 *   zero (the SATI attestation is not in the log); disputes: those with is_dispute = 1, so
 *   the authoritative and gossip folds count disputes alike (§7).
 * - Each array keeps its first MAX_BATCH_ENTRIES entries; if any was cut, overflow = true and
 *   overflow_data_hash covers the full arrays (§6). log_merkle_root: §5 root of the same log.
 */

import type { BehaviorBatch, FeedbackEvent, TaskSelection, TypedBid, VerifierAssignment } from './batch';
import { overflowDataHashOf } from './batch';
import { MAX_BATCH_ENTRIES } from './constants';
import { assertBytes } from './errors';
import { bytesEqual, toHex } from './hex';
import { leafHash, logEntryOf, merkleRoot } from './merkle';
import { decodeNeg1 } from './neg1';
import { decodeFeedback } from './payloads';
import type { Envelope } from './types';
import { MsgType } from './types';

/** Parameters of {@link buildBatchFromLog}. */
export interface BuildBatchParams {
  agentId: Uint8Array;
  epochNumber: bigint;
  slotStart: bigint;
  slotEnd: bigint;
  /** The agent's own epoch log, sent and received, in log order. */
  envelopes: Envelope[];
}

const ZERO32 = new Uint8Array(32);
const isZero = (b: Uint8Array) => b.every((x) => x === 0);

/** Builds the batch of one agent's epoch from its log (rules in the module comment). */
export function buildBatchFromLog(params: BuildBatchParams): BehaviorBatch {
  const { agentId, envelopes } = params;
  assertBytes('agentId', agentId, 32);
  if (!Array.isArray(envelopes)) throw new TypeError('params.envelopes must be an array');
  const counts = Array.from({ length: 16 }, () => 0n);
  const counterparties = new Set<string>();
  const bids: TypedBid[] = [];
  const tasks: TaskSelection[] = [];
  const verifiers: VerifierAssignment[] = [];
  const feedback: FeedbackEvent[] = [];
  let tasksCompleted = 0n;
  let notarizations = 0n;
  let disputes = 0n;

  for (const e of envelopes) {
    const sent = bytesEqual(e.sender, agentId);
    if (e.msgType >= 0 && e.msgType < 16) counts[e.msgType]++;
    if (sent) {
      if (!isZero(e.recipient) && !bytesEqual(e.recipient, agentId)) counterparties.add(toHex(e.recipient));
    } else {
      counterparties.add(toHex(e.sender));
    }
    const conv = e.conversationId;
    switch (e.msgType) {
      case MsgType.PROPOSE:
      case MsgType.COUNTER:
      case MsgType.ACCEPT: {
        if (sent) {
          const n = decodeNeg1(e.payload);
          if (n.ok)
            bids.push({
              conversationId: conv,
              counterparty: e.recipient,
              bidValue: n.value.bidValue,
              slot: e.blockRef,
            });
        }
        if (e.msgType === MsgType.ACCEPT) {
          tasks.push({ conversationId: conv, counterparty: sent ? e.recipient : e.sender, slot: e.blockRef });
        }
        break;
      }
      case MsgType.DELIVER:
        if (sent) tasksCompleted++;
        break;
      case MsgType.VERDICT:
        if (sent) notarizations++;
        break;
      case MsgType.NOTARIZE_ASSIGN:
        verifiers.push({ conversationId: conv, verifierId: e.recipient, slot: e.blockRef });
        break;
      case MsgType.FEEDBACK: {
        if (sent) break;
        const f = decodeFeedback(e.payload);
        if (!f.ok || !bytesEqual(f.value.targetAgent, agentId)) break;
        feedback.push({
          conversationId: f.value.conversationId,
          fromAgent: e.sender,
          score: f.value.score,
          outcome: f.value.outcome,
          role: f.value.role,
          slot: e.blockRef,
          satiAttestationHash: ZERO32,
        });
        if (f.value.isDispute) disputes++;
        break;
      }
    }
  }

  const overflow = [bids, tasks, verifiers, feedback].some((a) => a.length > MAX_BATCH_ENTRIES);
  const cap = <T>(a: T[]) => a.slice(0, MAX_BATCH_ENTRIES);
  return {
    agentId,
    epochNumber: params.epochNumber,
    slotStart: params.slotStart,
    slotEnd: params.slotEnd,
    messageCount: BigInt(envelopes.length),
    msgTypeCounts: counts,
    uniqueCounterparties: BigInt(counterparties.size),
    tasksCompleted,
    notarizations,
    disputes,
    bidValues: cap(bids),
    taskSelections: cap(tasks),
    verifierIds: cap(verifiers),
    feedbackEvents: cap(feedback),
    overflow,
    overflowDataHash: overflow ? overflowDataHashOf(bids, tasks, verifiers, feedback) : ZERO32,
    logMerkleRoot: merkleRoot(envelopes.map((e) => leafHash(logEntryOf(e)))),
  };
}
