'use client';
/**
 * The browser node's connections and how each travels (lib/mesh/transports.ts): WebSockets to
 * the observer, a relayed hop through the observer's circuit relay (signalling only, with the
 * relay's data and time budget), or a direct WebRTC connection to another browser. Shows this
 * browser's own WebRTC address and dials another browser's.
 */
import { useState } from 'react';
import type { BrowserConnection, BrowserNode } from '../../lib/mesh/browser';

const LABEL: Record<BrowserConnection['transport'], string> = {
  websocket: 'WebSocket',
  webrtc: 'WebRTC',
  relayed: 'relayed',
  other: 'other',
};

export function BrowserConnections({
  node,
  conns,
  webrtcAddrs,
}: {
  node: BrowserNode;
  conns: BrowserConnection[];
  webrtcAddrs: string[];
}) {
  const [target, setTarget] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const dial = async () => {
    setBusy(true);
    setError(null);
    try {
      await node.dialWebRtc(target);
      setTarget('');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-testid="browser-connections">
      <p className="small muted">Connections ({conns.length})</p>
      <ul className="small mono">
        {conns.map((c) => (
          <li
            key={c.id}
            data-testid="browser-connection"
            data-transport={c.transport}
            data-limited={c.limited}
            data-peer={c.peer}
          >
            <b>{LABEL[c.transport]}</b>
            {c.limited ? ' (limited)' : ''} {c.direction === 'inbound' ? '←' : '→'} peer {c.peer.slice(-10)}{' '}
            <span className="muted" title={c.addr}>
              {c.addr.length > 72 ? `${c.addr.slice(0, 34)}…${c.addr.slice(-34)}` : c.addr}
            </span>
          </li>
        ))}
      </ul>
      <p className="small muted">
        This browser over WebRTC{' '}
        {webrtcAddrs.length === 0 ? <span>(waiting for a relay reservation on the observer…)</span> : null}
      </p>
      {webrtcAddrs.slice(0, 1).map((a) => (
        <p key={a} className="small mono" data-testid="webrtc-addr" style={{ wordBreak: 'break-all' }}>
          {a}
        </p>
      ))}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void dial();
        }}
      >
        <input
          className="mono small"
          style={{ width: '70%' }}
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          placeholder="another browser's …/p2p-circuit/webrtc/p2p/<peer> address"
          aria-label="another browser's WebRTC address"
          data-testid="webrtc-dial-input"
        />{' '}
        <button type="submit" className="button" disabled={busy || target.trim() === ''} data-testid="webrtc-dial">
          {busy ? 'Connecting…' : 'Connect over WebRTC'}
        </button>
      </form>
      {error ? (
        <p className="verify-fail small" role="alert" data-testid="webrtc-dial-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
