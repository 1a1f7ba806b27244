/**
 * Ed25519 signature checks on worker threads, so live validation uses more than the event
 * loop's core (bench:ingest: the signature is most of an envelope's check). Requests
 * made in one turn of the event loop travel as one packed message per worker; results come
 * back as one byte each. Promises resolve in submission order whatever worker answers first,
 * so a caller that finishes validation when its promise resolves sees envelopes in arrival
 * order (the per-sender nonce rule needs that).
 *
 * A worker that fails or exits has its outstanding checks redone on the calling thread: a
 * check is never lost and never answered wrongly.
 */

import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ed25519Verify } from '../protocol/crypto';

export interface SignaturePool {
  /** True when `signature` verifies `message` under one of `keys` (strict RFC 8032). */
  verify(signature: Uint8Array, message: Uint8Array, keys: readonly Uint8Array[]): Promise<boolean>;
  /** Worker threads currently serving checks. */
  readonly workers: number;
  /** Checks done on the calling thread because no worker could take them. */
  readonly inThread: number;
  /** Stops the workers; outstanding checks are finished on the calling thread. */
  close(): Promise<void>;
}

export interface SignaturePoolOptions {
  /** Worker threads (default: available cores − 1, at least 1). */
  workers?: number;
  /** Most checks in one message to a worker (default 256). */
  maxBatch?: number;
  /** The worker script (default verify-worker.mjs beside this file). */
  workerUrl?: URL;
}

interface Item {
  signature: Uint8Array;
  message: Uint8Array;
  keys: readonly Uint8Array[];
  done: boolean;
  ok: boolean;
  resolve: (ok: boolean) => void;
}

interface Slot {
  worker: Worker;
  alive: boolean;
  outstanding: Map<number, Item[]>;
  load: number;
}

const WORKER_URL = new URL('./verify-worker.mjs', import.meta.url);
const isKey = (k: unknown): k is Uint8Array => k instanceof Uint8Array && k.length === 32;

/** Default worker count: every core but the event loop's, at least one. */
export function defaultVerifyWorkers(): number {
  return Math.max(1, availableParallelism() - 1);
}

/** Starts `workers` verification threads. Throws RangeError for a bad option. */
export function createSignaturePool(options: SignaturePoolOptions = {}): SignaturePool {
  const count = options.workers ?? defaultVerifyWorkers();
  const maxBatch = options.maxBatch ?? 256;
  if (!Number.isInteger(count) || count < 1) throw new RangeError('workers must be a positive integer');
  if (!Number.isInteger(maxBatch) || maxBatch < 1) throw new RangeError('maxBatch must be a positive integer');

  const queue: Item[] = []; // submission order; queue[head] is the oldest unresolved
  let head = 0;
  let batch: Item[] = [];
  let scheduled = false;
  let seq = 0;
  let inThread = 0;
  let closed = false;

  const slots: Slot[] = [];
  for (let i = 0; i < count; i++) {
    const worker = new Worker(options.workerUrl ?? WORKER_URL, { execArgv: [] }); // plain JS: no loaders needed
    worker.unref();
    const slot: Slot = { worker, alive: true, outstanding: new Map(), load: 0 };
    worker.on('message', (m: { seq: number; out: Uint8Array }) => {
      const items = slot.outstanding.get(m.seq);
      if (!items) return;
      slot.outstanding.delete(m.seq);
      slot.load -= items.length;
      if (slot.outstanding.size === 0) worker.unref();
      for (let k = 0; k < items.length; k++) settle(items[k], m.out[k] === 1);
      drain();
    });
    const fail = () => {
      if (!slot.alive) return;
      slot.alive = false;
      for (const items of slot.outstanding.values()) for (const it of items) local(it);
      slot.outstanding.clear();
      slot.load = 0;
      drain();
    };
    worker.on('error', fail);
    worker.on('exit', fail);
    slots.push(slot);
  }

  function settle(it: Item, ok: boolean): void {
    it.ok = ok;
    it.done = true;
  }

  function local(it: Item): void {
    if (it.done) return;
    inThread++;
    let ok = false;
    for (let k = 0; k < it.keys.length && !ok; k++) ok = ed25519Verify(it.signature, it.message, it.keys[k]);
    settle(it, ok);
  }

  /** Resolves finished checks from the oldest on, stopping at the first unfinished one. */
  function drain(): void {
    while (head < queue.length && queue[head].done) {
      const it = queue[head];
      queue[head++] = undefined as unknown as Item;
      it.resolve(it.ok);
    }
    if (head > 1024 && head * 2 > queue.length) {
      queue.splice(0, head);
      head = 0;
    }
  }

  function flush(): void {
    scheduled = false;
    if (batch.length === 0) return;
    const items = batch;
    batch = [];
    let slot: Slot | undefined;
    for (const s of slots) if (s.alive && (slot === undefined || s.load < slot.load)) slot = s;
    if (slot === undefined || closed) {
      for (const it of items) local(it);
      drain();
      return;
    }
    let size = 0;
    for (const it of items) size += 4 + it.message.length + 64 + 2 + 32 * it.keys.length;
    const buf = new ArrayBuffer(size);
    const u8 = new Uint8Array(buf);
    const dv = new DataView(buf);
    let o = 0;
    for (const it of items) {
      dv.setUint32(o, it.message.length);
      u8.set(it.message, o + 4);
      o += 4 + it.message.length;
      u8.set(it.signature, o);
      o += 64;
      dv.setUint16(o, it.keys.length);
      o += 2;
      for (const k of it.keys) {
        u8.set(k, o);
        o += 32;
      }
    }
    const id = seq++;
    // Referenced while it owes answers, so pending checks keep the process alive.
    if (slot.outstanding.size === 0) slot.worker.ref();
    slot.outstanding.set(id, items);
    slot.load += items.length;
    slot.worker.postMessage({ seq: id, buf, n: items.length }, [buf]);
  }

  return {
    verify(signature, message, keys) {
      return new Promise<boolean>((resolve) => {
        // Only 32-byte keys and 64-byte signatures can verify (ed25519Verify says false otherwise).
        const usable =
          signature.length !== 64
            ? []
            : keys.every(isKey) && keys.length <= 0xffff
              ? keys
              : keys.filter(isKey).slice(0, 0xffff);
        const it: Item = { signature, message, keys: usable, done: false, ok: false, resolve };
        queue.push(it);
        if (usable.length === 0 || message.length > 0xffffffff) {
          settle(it, false);
          drain();
          return;
        }
        batch.push(it);
        if (batch.length >= maxBatch) flush();
        else if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    get workers() {
      return slots.filter((s) => s.alive).length;
    },
    get inThread() {
      return inThread;
    },
    async close() {
      if (closed) return;
      closed = true;
      flush();
      await Promise.all(
        slots.map(async (s) => {
          const pending = [...s.outstanding.values()].flat();
          s.alive = false;
          s.outstanding.clear();
          for (const it of pending) local(it);
          await s.worker.terminate();
        }),
      );
      drain();
    },
  };
}
