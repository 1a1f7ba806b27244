/**
 * Oversize frames are skipped, not fatal. Both inbound byte streams of the mesh (gossipsub's RPC
 * stream and `/0x01/v1/envelope`) are unsigned-varint length-prefixed frames. it-length-prefixed
 * throws on a frame over its `maxDataLength`, which ends the stream: every valid frame the peer
 * had already sent behind the oversize one was lost without a word. The length prefix tells
 * exactly where the oversize frame ends, so its bytes can be discarded as they arrive (nothing
 * is buffered) and the frames after it read as usual; only a declared length past
 * {@link FRAME_SKIP_MAX_BYTES} (no honest sender gets near it) still ends the stream.
 *
 * {@link skipOversizeFrames} is a filter: it passes the bytes of every frame within the limit
 * through unchanged (views of the incoming chunks; only a length prefix split across two chunks
 * is copied) and leaves out oversize frames, prefix and body, reporting each. Downstream, the
 * usual decoder then never meets a frame over its limit.
 */

import { BaseError } from '../protocol/errors';

/** Longest declared frame that is skipped; a longer one ends the stream (after being reported). */
export const FRAME_SKIP_MAX_BYTES = 16 * 1024 * 1024;
/** Bytes of an unsigned-varint length prefix accepted (it-length-prefixed's own limit). */
const MAX_LENGTH_BYTES = 8;

/** Names match it-length-prefixed's errors, so one handler serves both. */
export class FrameError extends BaseError {
  constructor(
    name: 'InvalidDataLengthError' | 'InvalidDataLengthLengthError' | 'UnexpectedEOFError',
    message: string,
    /** True when the frame was already reported through `onOversize`. */
    readonly reported = false,
  ) {
    super(message);
    this.name = name;
  }
}

export interface SkipOversizeOptions {
  /** Largest frame body passed on, bytes. */
  maxDataLength: number;
  /** Largest frame body skipped; default {@link FRAME_SKIP_MAX_BYTES}. */
  maxSkipBytes?: number;
  /** Called once per oversize frame, as soon as its length is read (skipped or not). */
  onOversize(length: number): void;
}

/** A chunk as libp2p streams yield it: a Uint8Array, or a list of them (Uint8ArrayList). */
type Chunk = Uint8Array | Iterable<Uint8Array>;

function* piecesOf(chunk: Chunk): Iterable<Uint8Array> {
  if (chunk instanceof Uint8Array) yield chunk;
  else yield* chunk;
}

/**
 * Passes on every frame of `source` whose body is at most `maxDataLength` bytes, byte for byte,
 * and drops the others whole. Throws {@link FrameError} on a length prefix longer than 8 bytes,
 * a declared length over `maxSkipBytes`, or a source that ends inside a length prefix (a source
 * ending inside a passed frame is left to the downstream decoder to notice).
 */
export async function* skipOversizeFrames(
  source: AsyncIterable<Chunk>,
  opts: SkipOversizeOptions,
): AsyncGenerator<Uint8Array> {
  const max = opts.maxDataLength;
  const maxSkip = Math.max(opts.maxSkipBytes ?? FRAME_SKIP_MAX_BYTES, max);
  const HEADER = 0;
  const PASS = 1;
  const SKIP = 2;
  let mode = HEADER;
  let remaining = 0; // body bytes left in the current PASS or SKIP frame
  let header: number[] = []; // length-prefix bytes read so far
  let length = 0;
  let scale = 1;
  for await (const chunk of source) {
    for (const buf of piecesOf(chunk)) {
      const n = buf.length;
      // Start of the run of passed bytes within `buf`, or -1 when none is open.
      let run = mode === PASS ? 0 : -1;
      // Where the length prefix being read began in `buf`; -1 if it began in an earlier chunk.
      let headerAt = -1;
      let i = 0;
      while (i < n) {
        if (mode !== HEADER) {
          const take = Math.min(remaining, n - i);
          i += take;
          remaining -= take;
          if (remaining === 0) mode = HEADER;
          continue;
        }
        if (header.length === 0) headerAt = i;
        const byte = buf[i++]!;
        header.push(byte);
        length += (byte & 0x7f) * scale;
        scale *= 128;
        if (byte & 0x80) {
          if (header.length >= MAX_LENGTH_BYTES)
            throw new FrameError('InvalidDataLengthLengthError', 'frame length prefix too long');
          continue;
        }
        // A whole length prefix.
        if (length <= max) {
          if (headerAt < 0) {
            // It began in an earlier chunk, whose bytes were held back: pass them now.
            yield Uint8Array.from(header);
            run = i;
          } else if (run < 0) {
            run = headerAt;
          }
          mode = length > 0 ? PASS : HEADER;
          remaining = length;
        } else {
          if (run >= 0 && headerAt > run) yield buf.subarray(run, headerAt);
          run = -1;
          opts.onOversize(length);
          if (length > maxSkip)
            throw new FrameError('InvalidDataLengthError', `frame of ${length} bytes is past the skip limit`, true);
          mode = SKIP;
          remaining = length;
        }
        header = [];
        length = 0;
        scale = 1;
        headerAt = -1;
      }
      // A prefix begun in this chunk and not finished waits for the next chunk.
      const end = header.length > 0 && headerAt >= 0 ? headerAt : n;
      if (run >= 0 && end > run) yield buf.subarray(run, end);
    }
  }
  if (header.length > 0) throw new FrameError('UnexpectedEOFError', 'stream ended inside a frame length prefix');
}
