/**
 * The agent's advertised capabilities: its latest ADVERTISE envelope with the payload decoded
 * when it carries a format hint (lib/protocol/advertise.ts), for the agent page and
 * GET /api/agents/{id}.
 */
import 'server-only';
import { decodeAdvertise } from '../../lib/protocol/advertise';
import { fromHex, toHex } from '../../lib/protocol/hex';
import { MsgType } from '../../lib/protocol/types';
import type { AdvertisedView } from '../../lib/wire';
import type { Services } from './services';

/** The newest ADVERTISE the agent sent, decoded or marked opaque; null when it sent none. */
export async function loadAdvertised(o: Services, idHex: string): Promise<AdvertisedView | null> {
  // Sender or recipient: ADVERTISE goes to the broadcast topic, so its rows are the agent's own;
  // the sender check keeps a (malformed) addressed ADVERTISE to this agent out.
  const rows = await o.reads.recentEnvelopes({ agent: fromHex(idHex), type: MsgType.ADVERTISE, limit: 20 });
  const mine = rows.find((r) => toHex(r.envelope.sender) === idHex);
  if (!mine) return null;
  const d = decodeAdvertise(mine.envelope.payload);
  return {
    envelopeId: toHex(mine.id),
    timestampMs: Number(mine.envelope.timestamp / 1000n),
    format: d.ok ? d.format : null,
    capabilities: d.ok ? d.value : null,
    opaque: d.ok ? null : d.detail,
  };
}
