/**
 * The replay page loader: a window's stored envelopes, one keyset page, as the `message` live
 * events the stream would have carried (lib/wire/replay.ts).
 */
import 'server-only';
import { fromHex, toHex } from '../../lib/protocol/hex';
import type { ReplayRow } from '../../lib/store/envelopes';
import { msgTypeName } from '../../lib/wire/msg-type';
import type { ReplayCursor, ReplayEvent, ReplayPage } from '../../lib/wire/replay';
import type { Services } from './services';

export function replayEvent(r: ReplayRow): ReplayEvent {
  const data: ReplayEvent['data'] = {
    id: toHex(r.id),
    msgType: r.msgType,
    type: msgTypeName(r.msgType),
    sender: toHex(r.sender),
    recipient: toHex(r.recipient),
    conversationId: toHex(r.conversationId),
    nonce: String(r.nonce),
    timestamp: String(r.timestamp),
    blockRef: String(r.blockRef),
    payloadLen: r.payloadLen,
    source: r.source,
    topic: r.topic,
    receivedAt: r.receivedAt.getTime(),
  };
  if (r.bidType !== undefined) data.bidType = r.bidType;
  return { type: 'message', at: data.receivedAt, data };
}

export async function loadReplayPage(
  o: Services,
  q: { fromMs: number; toMs: number; after?: ReplayCursor; limit: number },
): Promise<ReplayPage> {
  const rows = await o.reads.replayEnvelopes({
    fromUs: BigInt(q.fromMs) * 1000n,
    // `to` is a millisecond: every µs of it is in the window.
    toUs: BigInt(q.toMs) * 1000n + 999n,
    after: q.after ? { timestampUs: q.after.timestampUs, id: fromHex(q.after.id) } : undefined,
    limit: q.limit,
  });
  const events = rows.map(replayEvent);
  const last = events.at(-1);
  return {
    from: q.fromMs,
    to: q.toMs,
    events,
    next: rows.length === q.limit && last ? `${last.data.timestamp}:${last.data.id}` : null,
  };
}
