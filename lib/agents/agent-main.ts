/**
 * Entry of one demo agent process (forked by ./demo-mesh with an IPC channel). Waits for its
 * config, runs a {@link DemoAgent}, and relays commands and reports over IPC.
 */

import { toHex } from '../protocol/hex';
import { DemoAgent } from './agent';
import type { AgentToParent, ParentToAgent } from './types';

if (typeof process.send !== 'function') {
  console.error('agent-main.ts must be started by lib/agents/demo-mesh (needs an IPC channel)');
  process.exit(2);
}

const send = (m: AgentToParent) => {
  if (process.connected) process.send!(m);
};
let agent: DemoAgent | undefined;
let reqSeq = 0;
const pendingUploads = new Map<number, (ok: boolean) => void>();

async function httpUpload(url: string, body: Uint8Array, path = '/api/ingest/envelopes'): Promise<boolean> {
  const res = await fetch(`${url.replace(/\/$/, '')}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/cbor' },
    body: Buffer.from(body),
    signal: AbortSignal.timeout(10_000),
  });
  return res.ok;
}

async function stop(code = 0): Promise<never> {
  try {
    await agent?.stop();
  } finally {
    process.exit(code);
  }
}

process.on('message', (m: ParentToAgent) => {
  switch (m.t) {
    case 'config': {
      const cfg = m.config;
      const upload = (kind: 'upload' | 'upload_log', path: string) => (body: Uint8Array) => {
        if (cfg.uploadVia === 'http' && cfg.observerUrl) return httpUpload(cfg.observerUrl, body, path);
        const reqId = ++reqSeq;
        return new Promise<boolean>((resolve) => {
          pendingUploads.set(reqId, resolve);
          send({ t: kind, reqId, bodyHex: toHex(body) });
        });
      };
      agent = new DemoAgent(cfg, {
        emit: send,
        upload: upload('upload', '/api/ingest/envelopes'),
        uploadLog: upload('upload_log', '/api/ingest/log'),
      });
      agent.start().catch((e) => {
        send({ t: 'error', message: `start failed: ${e?.stack ?? e}` });
        void stop(1);
      });
      break;
    }
    case 'registered':
      agent?.registered();
      break;
    case 'funded':
      agent?.funded();
      break;
    case 'peers':
      agent?.setPeers(m.peers);
      break;
    case 'open':
      void agent?.open(m.seller, m.sealed, m.conversationIdHex);
      break;
    case 'flush':
      void agent?.flush().finally(() => send({ t: 'flushed', reqId: m.reqId }));
      break;
    case 'upload_result':
      pendingUploads.get(m.reqId)?.(m.ok);
      pendingUploads.delete(m.reqId);
      break;
    case 'fault':
      void agent?.sendFault(m.reason as never).then((id) => send({ t: 'faulted', reqId: m.reqId, id }));
      break;
    case 'published':
      agent?.onPublished(m.batch);
      break;
    case 'stop':
      void stop(0);
      break;
  }
});
process.on('disconnect', () => void stop(0));
