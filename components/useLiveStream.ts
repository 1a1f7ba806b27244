'use client';
/**
 * Subscribes to the observatory's `/api/stream` WebSocket and hands each LiveEvent to `onEvent`.
 * Reconnects with capped exponential backoff; `onResync` fires after a reconnect and when the
 * server says this client lagged (events were dropped for it), so the caller reloads a snapshot.
 */
import { useEffect, useRef, useState } from 'react';
import type { LiveEvent } from '../lib/observer/types';

export type StreamStatus = 'connecting' | 'live' | 'reconnecting';

export interface LiveStreamOptions {
  onEvent: (event: LiveEvent) => void;
  onResync?: () => void;
  path?: string;
}

const MIN_DELAY_MS = 500;
const MAX_DELAY_MS = 10_000;

export function useLiveStream({ onEvent, onResync, path = '/api/stream' }: LiveStreamOptions): StreamStatus {
  const [status, setStatus] = useState<StreamStatus>('connecting');
  // Handlers change every render; the socket must not.
  const handlers = useRef({ onEvent, onResync });
  handlers.current = { onEvent, onResync };

  useEffect(() => {
    let ws: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let delay = MIN_DELAY_MS;
    let connectedBefore = false;
    let closed = false;

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
        if (typeof msg.data !== 'string') return;
        let event: LiveEvent;
        try {
          event = JSON.parse(msg.data) as LiveEvent;
        } catch {
          return;
        }
        if ((event.type as string) === 'lagged') handlers.current.onResync?.();
        else if ((event.type as string) !== 'hello') handlers.current.onEvent(event);
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

  return status;
}
