/**
 * The one inbound path shared by gossip and streams (0x01 spec §11 limits, then the caller's
 * validation, docs/protocol.md "Validation"): rate limit → size → validate → deliver or report the drop.
 * Validation decides; delivery is separate: an accepted envelope goes to `onAccepted` (with what
 * the validator decoded) and `onEnvelope` after the validator returns, never from inside it.
 */
import type { MeshTopic } from './constants';
import type { PeerRateLimiter } from './rate-limit';
import type {
  MeshAccepted,
  MeshAcceptedHandler,
  MeshDropHandler,
  MeshEnvelopeHandler,
  MeshStats,
  MeshValidateMeta,
  MeshValidationResult,
  MeshValidator,
  MeshVia,
} from './types';

export interface InboundPipelineParams {
  limiter: PeerRateLimiter;
  maxMessageBytes: number;
  validate: MeshValidator;
  onAccepted?: MeshAcceptedHandler;
  onEnvelope?: MeshEnvelopeHandler;
  onDrop?: MeshDropHandler;
  now: () => number;
}

export interface InboundPipeline {
  /** Never throws; returns what gossipsub should do with the message. */
  handle(bytes: Uint8Array, peer: string, topic: string, via: MeshVia): Promise<MeshValidationResult>;
  /** Reports a drop found outside `handle` (stream framing errors). */
  drop(reason: string, peer: string, via: MeshVia): void;
  stats(): MeshStats;
}

/** Builds the inbound pipeline; callbacks that throw are contained (logged to stderr). */
export function createInboundPipeline(params: InboundPipelineParams): InboundPipeline {
  const { limiter, maxMessageBytes, validate, onAccepted, onEnvelope, onDrop, now } = params;
  const acceptedCount: Record<MeshVia, number> = { gossip: 0, stream: 0 };
  const drops: Record<string, number> = {};

  function drop(reason: string, peer: string, via: MeshVia): void {
    drops[reason] = (drops[reason] ?? 0) + 1;
    if (onDrop === undefined) return;
    try {
      onDrop(reason, peer, via);
    } catch (err) {
      console.error('lib/mesh: onDrop threw', err);
    }
  }

  async function handle(raw: Uint8Array, peer: string, topic: string, via: MeshVia): Promise<MeshValidationResult> {
    const receivedAt = now();
    // Decoders hand out Buffer views; callers get a plain Uint8Array view (no copy).
    const bytes = raw.constructor === Uint8Array ? raw : new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
    if (!limiter.take(peer)) {
      drop('rate_limit', peer, via);
      return 'ignore';
    }
    if (bytes.length > maxMessageBytes) {
      drop('oversize', peer, via);
      return 'reject';
    }
    let result: MeshValidationResult;
    let reason: string | undefined;
    let accepted: MeshAccepted | undefined;
    const meta: MeshValidateMeta = { peer, topic, via };
    try {
      const out = await validate(bytes, meta);
      if (out === 'accept' || out === 'reject' || out === 'ignore') {
        result = out;
      } else if (out !== null && typeof out === 'object' && (out as MeshAccepted).ok === true) {
        result = 'accept';
        accepted = out as MeshAccepted;
      } else if (
        out !== null &&
        typeof out === 'object' &&
        'result' in out &&
        (out.result === 'reject' || out.result === 'ignore')
      ) {
        result = out.result;
        reason = typeof out.reason === 'string' && out.reason !== '' ? out.reason : undefined;
      } else {
        result = 'ignore';
        reason = 'validator_error';
      }
    } catch {
      result = 'ignore';
      reason = 'validator_error';
    }
    if (result !== 'accept') {
      drop(reason ?? (result === 'reject' ? 'rejected' : 'ignored'), peer, via);
      return result;
    }
    acceptedCount[via] += 1;
    if (accepted !== undefined && onAccepted !== undefined) {
      try {
        onAccepted(accepted, bytes, meta);
      } catch (err) {
        console.error('lib/mesh: onAccepted threw', err);
      }
    }
    if (onEnvelope !== undefined) {
      try {
        onEnvelope(bytes, { peer, topic: via === 'gossip' ? (topic as MeshTopic) : undefined, via, receivedAt });
      } catch (err) {
        console.error('lib/mesh: onEnvelope threw', err);
      }
    }
    return 'accept';
  }

  return {
    handle,
    drop,
    stats: () => ({ accepted: { ...acceptedCount }, drops: { ...drops } }),
  };
}
