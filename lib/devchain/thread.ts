/**
 * The embedded chain on a thread of its own. Everything the chain does (executing transactions,
 * answering JSON-RPC and PubSub, snapshots, reading cold history) is synchronous work; run on the
 * observatory's main thread it competed with pages, the observer and /api/health for one event
 * loop (a burst of RPC or a snapshot showed up as a stall of every page). On a worker_thread it
 * keeps its own event loop and heap; the main thread talks to it over JSON-RPC like any client,
 * plus a small message port for what JSON-RPC does not carry (fixture accounts, shutdown).
 */
import { Worker } from 'node:worker_threads';
import { PublicKey } from '@solana/web3.js';
import type { EmbeddedChainParams } from './index';

/**
 * What the thread accepts: every option but the clock (a function cannot cross a thread; the logger stays on this
 * side).
 */
export type EmbeddedChainThreadParams = Omit<EmbeddedChainParams, 'now'>;

/** The running chain as the main thread sees it. */
export interface EmbeddedChainThread {
  rpcUrl: string;
  wsUrl: string;
  port: number;
  companionWsUrl: string | null;
  /** The account that funds requestAirdrop. */
  faucet: PublicKey;
  /** Development only: writes an account outside any transaction (Ledger.writeAccount); resolves once written. */
  writeAccount(address: string, account: { lamports: bigint; data: Uint8Array; owner: string }): Promise<void>;
  /** Writes a snapshot now (no-op without dataDir); resolves once written. */
  snapshot(): Promise<void>;
  /** The thread's own V8 heap and off-heap memory (process.memoryUsage() on the main thread does not count it). */
  memory(): Promise<ThreadMemory>;
  /** Stops the chain (final snapshot included) and the thread. */
  close(): Promise<void>;
}

/** A thread's memory: its heap in use and the memory its objects hold outside the heap, bytes. */
export interface ThreadMemory {
  heapUsed: number;
  external: number;
}

/** Messages between the threads (thread-worker.ts). */
export type ToWorker =
  | { id: number; op: 'writeAccount'; address: string; lamports: string; data: Uint8Array; owner: string }
  | { id: number; op: 'snapshot' }
  | { id: number; op: 'memory' }
  | { id: number; op: 'close' };
export type FromWorker =
  | { op: 'ready'; rpcUrl: string; wsUrl: string; port: number; companionWsUrl: string | null; faucet: string }
  | { op: 'failed'; error: string; code?: string }
  | { op: 'log'; level: 'info' | 'warn' | 'error'; msg: string; fields?: Record<string, unknown> }
  | { op: 'done'; id: number; error?: string; memory?: ThreadMemory };

/** Starts the embedded chain on a worker thread; resolves when it listens (rejects as startEmbeddedChain would). */
export function startEmbeddedChainThread(p: EmbeddedChainThreadParams = {}): Promise<EmbeddedChainThread> {
  const { logger, ...params } = p;
  // thread-worker.mjs sets up the same module hooks as this process, then loads the chain.
  const worker = new Worker(new URL('./thread-worker.mjs', import.meta.url), { workerData: params });
  let nextId = 1;
  const waiting = new Map<number, { resolve: (m: FromWorker & { op: 'done' }) => void; reject: (e: Error) => void }>();
  let exited = false;
  const call = (msg: ToWorker extends infer T ? (T extends unknown ? Omit<T, 'id'> : never) : never) =>
    new Promise<FromWorker & { op: 'done' }>((resolve, reject) => {
      if (exited) {
        reject(new Error('the embedded chain thread has stopped'));
        return;
      }
      const id = nextId++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...msg, id } as ToWorker);
    });
  return new Promise((resolve, reject) => {
    let started = false;
    worker.on('message', (m: FromWorker) => {
      if (m.op === 'log') logger?.[m.level](m.msg, m.fields);
      else if (m.op === 'done') {
        const w = waiting.get(m.id);
        waiting.delete(m.id);
        if (m.error) w?.reject(new Error(m.error));
        else w?.resolve(m);
      } else if (m.op === 'failed') {
        reject(Object.assign(new Error(m.error), m.code ? { code: m.code } : {}));
        void worker.terminate();
      } else if (m.op === 'ready') {
        started = true;
        let closing: Promise<void> | null = null;
        resolve({
          rpcUrl: m.rpcUrl,
          wsUrl: m.wsUrl,
          port: m.port,
          companionWsUrl: m.companionWsUrl,
          faucet: new PublicKey(m.faucet),
          writeAccount: async (address, a) => {
            await call({ op: 'writeAccount', address, lamports: a.lamports.toString(), data: a.data, owner: a.owner });
          },
          snapshot: async () => {
            await call({ op: 'snapshot' });
          },
          memory: async () => {
            const { memory } = await call({ op: 'memory' });
            // Absent only from a thread that does not know the message: no figure, not zero.
            if (!memory) throw new Error('the embedded chain thread reported no memory');
            return memory;
          },
          close: () =>
            (closing ??= call({ op: 'close' })
              .then(
                () => undefined,
                () => undefined,
              )
              .then(async () => {
                await worker.terminate();
              })),
        });
      }
    });
    worker.on('error', (e) => {
      logger?.error('embedded chain thread failed', { err: String(e) });
      if (!started) reject(e);
    });
    worker.on('exit', (code) => {
      exited = true;
      for (const w of waiting.values()) w.reject(new Error(`the embedded chain thread exited (${code})`));
      waiting.clear();
      if (!started) reject(new Error(`the embedded chain thread exited before it listened (${code})`));
    });
  });
}
