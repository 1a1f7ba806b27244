/**
 * The bilateral stream protocol `/0x01/v1/envelope` (docs/protocol.md §9): one unsigned-varint
 * length-prefixed envelope per message, many messages per stream. A sender keeps one
 * outbound stream per peer and reuses it; libp2p reuses the connection.
 */
import type { Connection, Libp2p, PeerId, Stream } from '@libp2p/interface';
import { isPeerId } from '@libp2p/interface';
import { peerIdFromString } from '@libp2p/peer-id';
import { isMultiaddr, type Multiaddr, multiaddr } from '@multiformats/multiaddr';
import * as lp from 'it-length-prefixed';
import { DRAIN_TIMEOUT_MS, ENVELOPE_MAX_INBOUND_STREAMS, ENVELOPE_PROTOCOL } from './constants';
import { MeshSendError, MeshStoppedError } from './errors';
import { FrameError, skipOversizeFrames } from './frames';

/** Where to send: a peer id (string or PeerId) or a multiaddr (string starting with `/`, or Multiaddr). */
export type SendTarget = string | PeerId | Multiaddr;

export interface EnvelopeStreamsParams {
  libp2p: Libp2p;
  maxMessageBytes: number;
  /** Called for each complete frame, in order; awaited (back-pressures the sender). */
  onFrame(bytes: Uint8Array, peer: string): Promise<unknown>;
  /** A frame could not be read: `oversize` or `stream_error`. */
  onBadFrame(reason: 'oversize' | 'stream_error', peer: string): void;
}

/** Normalises a send target; throws TypeError naming `target` on caller misuse. */
export function parseTarget(target: SendTarget): { peer?: PeerId; addr?: Multiaddr } {
  if (isPeerId(target)) return { peer: target };
  if (isMultiaddr(target)) return addrTarget(target);
  if (typeof target !== 'string' || target === '') throw new TypeError('target must be a peer id or multiaddr');
  if (target.startsWith('/')) {
    let ma: Multiaddr;
    try {
      ma = multiaddr(target);
    } catch (cause) {
      throw new TypeError(`target is not a valid multiaddr: ${target}`, { cause });
    }
    return addrTarget(ma);
  }
  try {
    return { peer: peerIdFromString(target) };
  } catch (cause) {
    throw new TypeError(`target is not a valid peer id: ${target}`, { cause });
  }
}

function addrTarget(ma: Multiaddr): { peer?: PeerId; addr: Multiaddr } {
  const id = ma.getComponents().findLast((c) => c.name === 'p2p')?.value;
  return { addr: ma, peer: id === undefined ? undefined : peerIdFromString(id) };
}

export class EnvelopeStreams {
  readonly #p: EnvelopeStreamsParams;
  readonly #outbound = new Map<string, Promise<Stream>>();
  #stopped = false;

  constructor(params: EnvelopeStreamsParams) {
    this.#p = params;
  }

  async start(): Promise<void> {
    await this.#p.libp2p.handle(ENVELOPE_PROTOCOL, (stream, connection) => this.#read(stream, connection), {
      maxInboundStreams: ENVELOPE_MAX_INBOUND_STREAMS,
    });
  }

  /** Sends one envelope; resolves once it is in the stream's buffer and the buffer has drained. */
  async send(target: SendTarget, bytes: Uint8Array): Promise<void> {
    if (this.#stopped) throw new MeshStoppedError('mesh node is stopped');
    const { peer, addr } = parseTarget(target);
    const frame = lp.encode.single(bytes, { maxDataLength: this.#p.maxMessageBytes });
    let lastErr: unknown;
    for (let attempt = 0; attempt < 2; attempt++) {
      let stream: Stream;
      try {
        stream = await this.#streamFor(peer, addr);
      } catch (err) {
        throw new MeshSendError(`cannot open ${ENVELOPE_PROTOCOL} to ${String(peer ?? addr)}`, { cause: err });
      }
      try {
        if (!stream.send(frame)) await stream.onDrain({ signal: AbortSignal.timeout(DRAIN_TIMEOUT_MS) });
        return;
      } catch (err) {
        // A stream reset under us (remote restart, idle timeout): retry once on a fresh one.
        lastErr = err;
        stream.abort(err instanceof Error ? err : new Error(String(err)));
      }
    }
    throw new MeshSendError(`cannot write ${ENVELOPE_PROTOCOL} to ${String(peer ?? addr)}`, { cause: lastErr });
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    const pending = [...this.#outbound.values()];
    this.#outbound.clear();
    await Promise.allSettled(
      pending.map(async (p) => {
        const s = await p;
        await s.close({ signal: AbortSignal.timeout(1000) }).catch((e: Error) => s.abort(e));
      }),
    );
  }

  async #streamFor(peer: PeerId | undefined, addr: Multiaddr | undefined): Promise<Stream> {
    const libp2p = this.#p.libp2p;
    let key = peer?.toString();
    let conn: Connection | undefined;
    if (key === undefined) {
      // A bare multiaddr: the connection tells us who is there.
      conn = await libp2p.dial(addr!);
      key = conn.remotePeer.toString();
    }
    const cached = this.#outbound.get(key);
    if (cached !== undefined) {
      const s = await cached.catch(() => undefined);
      if (s !== undefined && s.status === 'open' && s.writeStatus === 'writable') return s;
      if (this.#outbound.get(key) === cached) this.#outbound.delete(key);
    }
    const k = key;
    const opening = (async () => {
      const c = conn ?? (await libp2p.dial(peer !== undefined && addr === undefined ? peer : addr!));
      const s = await c.newStream(ENVELOPE_PROTOCOL);
      s.addEventListener('close', () => {
        if (this.#outbound.get(k) === opening) this.#outbound.delete(k);
      });
      return s;
    })();
    this.#outbound.set(k, opening);
    opening.catch(() => {
      if (this.#outbound.get(k) === opening) this.#outbound.delete(k);
    });
    return opening;
  }

  async #read(stream: Stream, connection: Connection): Promise<void> {
    const peer = connection.remotePeer.toString();
    const max = this.#p.maxMessageBytes;
    try {
      // An oversize frame is counted and skipped; the frames behind it are still read.
      const within = skipOversizeFrames(stream, {
        maxDataLength: max,
        onOversize: () => this.#p.onBadFrame('oversize', peer),
      });
      for await (const frame of lp.decode(within, { maxDataLength: max })) {
        await this.#p.onFrame(frame.subarray(), peer);
      }
      await stream.close().catch(() => undefined);
    } catch (err) {
      const name = (err as Error | undefined)?.name;
      if (err instanceof FrameError && err.reported) {
        // Counted when its length was read; too long to skip, so the stream ends here.
      } else if (name === 'InvalidDataLengthError' || name === 'InvalidDataLengthLengthError') {
        this.#p.onBadFrame('oversize', peer);
      } else if (name === 'InvalidMessageLengthError' || name === 'UnexpectedEOFError') {
        this.#p.onBadFrame('stream_error', peer);
      }
      // Anything else is the connection going away: not the peer's message, not a drop.
      stream.abort(err instanceof Error ? err : new Error(String(err)));
    }
  }
}
