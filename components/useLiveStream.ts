'use client';
/**
 * Subscribes to the observatory's `/api/stream` WebSocket and hands each live event, checked
 * against lib/wire's schema, to `onEvent`. Reconnects with capped exponential backoff;
 * `onResync` fires after a reconnect and when the server says this client lagged (events were
 * dropped for it), so the caller reloads a snapshot. Frames that fail the schema are dropped
 * and counted (`invalidFrames`); the first one is logged to the console.
 */
import { useEffect, useRef, useState } from 'react';
import type { LiveEvent } from '../lib/wire';
import { handleFrame } from './stream-frames';

export type StreamStatus = 'connecting' | 'live' | 'reconnecting';

export interface LiveStream {
  status: StreamStatus;
  /** Frames ignored since the page opened because they did not match the wire schema. */
  invalidFrames: number;
}

export interface LiveStreamOptions {
  onEvent: (event: LiveEvent) => void;
  onResync?: () => void;
  path?: string;
}

const MIN_DELAY_MS = 500;
const MAX_DELAY_MS = 10_000;

export function useLiveStream({ onEvent, onResync, path = '/api/stream' }: LiveStreamOptions): LiveStream {
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const [invalidFrames, setInvalidFrames] = useState(0);
  // Handlers change every render; the socket must not.
  const handlers = useRef({ onEvent, onResync });
  handlers.current = { onEvent, onResync };

  useEffect(() => {
    let ws: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = MIN_DELAY_MS;
    let connectedBefore = false;
    let closed = false;
    let warned = false;

    const connect = () => {
      const url = new URL(path, window.location.href);
      url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
      ws = new WebSocket(url);
      ws.onopen = () => {
        delay = MIN_DELAY_MS;
        setStatus('live');
        if (connectedBefore) handlers.current.onResync?.();
        connectedBefore = true;
      };
      ws.onmessage = (msg) => {
        handleFrame(msg.data, {
          onEvent: (e) => handlers.current.onEvent(e),
          onResync: () => handlers.current.onResync?.(),
          onInvalid: (error) => {
            if (!warned) console.warn(`/api/stream: ignoring a frame that does not match the wire schema (${error})`);
            warned = true;
            setInvalidFrames((n) => n + 1);
          },
        });
      };
      ws.onclose = () => {
        ws = null;
        if (closed) return;
        setStatus('reconnecting');
        timer = setTimeout(connect, delay);
        delay = Math.min(delay * 2, MAX_DELAY_MS);
      };
      ws.onerror = () => ws?.close();
    };

    connect();
    return () => {
      closed = true;
      clearTimeout(timer);
      ws?.close();
    };
  }, [path]);

  return { status, invalidFrames };
}
