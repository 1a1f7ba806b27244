'use client';
/**
 * A node on the mesh in this browser (lib/mesh/browser.ts): it dials the observer's WebSocket
 * listener (and, through the observer's relay, other browsers over WebRTC: ./BrowserConnections.tsx),
 * subscribes to the three gossip topics and checks every envelope it receives itself
 * (lib/verify: id, payload hash, Ed25519 against the signer read from the chain). Side by side:
 * what this browser saw first-hand and what the observer reported on its live stream, with the
 * envelopes only one of them saw (./mesh-compare.ts).
 */
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import type { BrowserConnection, BrowserNode } from '../../lib/mesh/browser';
import { MESH_TOPICS } from '../../lib/mesh/constants';
import { topicFor } from '../../lib/mesh/topics';
import { keccak256 } from '../../lib/protocol/crypto';
import { decodeEnvelope } from '../../lib/protocol/envelope';
import { toHex } from '../../lib/protocol/hex';
import { checkEnvelope, type SignerResolution } from '../../lib/verify/envelope';
import { HealthReportSchema, type SatiAddressesView } from '../../lib/wire';
import { useLiveStream } from '../useLiveStream';
import { BrowserConnections } from './BrowserConnections';
import { type Comparison, compareSeen, type SeenLog } from './mesh-compare';

type Phase = 'idle' | 'joining' | 'joined' | 'failed';
interface Counts {
  received: number;
  verified: number;
  failed: number;
  lastFailure: string | null;
}

export function BrowserNodePanel({ rpcUrl, sati = null }: { rpcUrl: string | null; sati?: SatiAddressesView | null }) {
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState<string | null>(null);
  const [peerId, setPeerId] = useState('');
  const [counts, setCounts] = useState<Counts>({ received: 0, verified: 0, failed: 0, lastFailure: null });
  const [cmp, setCmp] = useState<Comparison>({ both: 0, onlyBrowser: [], onlyObserver: [] });
  const seen = useRef<SeenLog>({ browser: new Map(), observer: new Map(), joinedAt: 0 });
  const signers = useRef(new Map<string, Promise<SignerResolution>>());
  const node = useRef<BrowserNode | null>(null);
  const [conns, setConns] = useState<BrowserConnection[]>([]);
  const [webrtcAddrs, setWebrtcAddrs] = useState<string[]>([]);
  const [meshPeers, setMeshPeers] = useState<string[]>([]);
  const refresh = () => {
    const n = node.current;
    if (!n) return;
    setConns(n.connections());
    setWebrtcAddrs(n.webrtcAddrs());
    setMeshPeers([...new Set(MESH_TOPICS.flatMap((t) => n.meshPeers(t)))].sort());
  };

  useLiveStream({
    onEvent: (e) => {
      if (e.type !== 'message' || phase !== 'joined' || topicFor(e.data.msgType) === null) return;
      if (!seen.current.observer.has(e.data.id)) seen.current.observer.set(e.data.id, Date.now());
    },
  });

  // refresh reads only the node's ref and state setters, so each render's copy does the same
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (phase !== 'joined') return;
    const t = setInterval(() => {
      setCmp(compareSeen(seen.current, Date.now()));
      refresh();
    }, 1_000);
    return () => clearInterval(t);
  }, [phase]);
  useEffect(
    () => () => {
      void node.current?.stop();
    },
    [],
  );

  const onMessage = async (data: Uint8Array) => {
    const id = toHex(keccak256(data));
    if (seen.current.browser.has(id)) return;
    seen.current.browser.set(id, Date.now());
    setCounts((c) => ({ ...c, received: c.received + 1 }));
    const d = decodeEnvelope(data);
    let signer: SignerResolution | null = null;
    if (d.ok) {
      const k = toHex(d.envelope.sender);
      let p = signers.current.get(k);
      if (!p) {
        // web3.js loads only once someone joins: the overview's bundle stays small.
        const sender = d.envelope.sender;
        p = rpcUrl
          ? import('../../lib/verify/rpc').then((m) => m.resolveSigner(rpcUrl, sender, sati))
          : Promise.resolve({ error: 'no RPC' });
        signers.current.set(k, p);
      }
      signer = await p;
    }
    const r = checkEnvelope(data, keccak256(data), signer);
    setCounts((c) =>
      r.ok
        ? { ...c, verified: c.verified + 1 }
        : {
            ...c,
            failed: c.failed + 1,
            lastFailure: `${id.slice(0, 12)}…: ${r.steps
              .filter((s) => !s.ok && !s.skipped)
              .map((s) => s.name)
              .join(', ')}`,
          },
    );
  };

  const join = async () => {
    setPhase('joining');
    setError(null);
    try {
      const res = await fetch('/api/health', { cache: 'no-store' });
      const health = HealthReportSchema.parse(await res.json());
      seen.current.joinedAt = Date.now();
      // libp2p loads only when the viewer asks to join.
      const { startBrowserNode } = await import('../../lib/mesh/browser');
      const n = await startBrowserNode({
        dial: health.mesh.multiaddrs,
        onMessage: (_t, data) => void onMessage(data),
        onChange: refresh,
      });
      node.current = n;
      refresh();
      setPeerId(n.peerId);
      setPhase('joined');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setPhase('failed');
    }
  };

  return (
    <section
      className="card"
      style={{ margin: '16px 0' }}
      data-testid="browser-node"
      data-phase={phase}
      data-verified={counts.verified}
      data-failed={counts.failed}
      data-peer-id={peerId}
      data-mesh-peers={meshPeers.join(' ')}
    >
      <h2>This browser on the mesh</h2>
      {phase === 'idle' || phase === 'failed' ? (
        <p>
          <button type="button" className="button" onClick={() => void join()} data-testid="join-mesh">
            Join the mesh from this browser
          </button>{' '}
          <span className="muted small">
            a libp2p node here subscribes to the gossip topics and checks every envelope itself
          </span>
        </p>
      ) : null}
      {error ? (
        <p className="verify-fail" role="alert">
          {error}
        </p>
      ) : null}
      {phase === 'joining' ? <p className="muted">Dialing the observer…</p> : null}
      {phase === 'joined' ? (
        <div className="grid-2" style={{ marginBottom: 0 }}>
          <div>
            <p className="small muted">
              First-hand (peer <span className="mono">{peerId.slice(-10)}</span>)
            </p>
            <p>
              <b data-testid="browser-received">{counts.received}</b> gossip envelopes received ·{' '}
              <b className="verify-ok-title" data-testid="browser-verified">
                {counts.verified}
              </b>{' '}
              verified here · <b className={counts.failed ? 'verify-bad-title' : ''}>{counts.failed}</b> failed
            </p>
            {counts.lastFailure ? <p className="small mono verify-fail">last failure {counts.lastFailure}</p> : null}
          </div>
          <div>
            <p className="small muted">Compared with what the observer reported</p>
            <p>
              <b>{cmp.both}</b> seen by both ·{' '}
              <b className={cmp.onlyBrowser.length ? 'verify-bad-title' : ''} data-testid="only-browser">
                {cmp.onlyBrowser.length}
              </b>{' '}
              only here ·{' '}
              <b className={cmp.onlyObserver.length ? 'verify-bad-title' : ''} data-testid="only-observer">
                {cmp.onlyObserver.length}
              </b>{' '}
              only at the observer
            </p>
            <ul className="small mono">
              {[...cmp.onlyBrowser.map((id) => ['here', id]), ...cmp.onlyObserver.map((id) => ['observer', id])]
                .slice(0, 6)
                .map(([w, id]) => (
                  <li key={id}>
                    only {w}:{' '}
                    <Link href={`/envelopes/${id}`} prefetch={false}>
                      {id.slice(0, 16)}…
                    </Link>
                  </li>
                ))}
            </ul>
          </div>
        </div>
      ) : null}
      {phase === 'joined' && node.current ? (
        <BrowserConnections node={node.current} conns={conns} webrtcAddrs={webrtcAddrs} />
      ) : null}
    </section>
  );
}
