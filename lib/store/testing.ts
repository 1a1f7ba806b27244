/**
 * Test and bench helpers for lib/store: signed synthetic envelopes (real lib/protocol
 * encoding) and throwaway Postgres databases. Not part of the runtime API.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildEnvelope } from '../protocol/envelope';
import type { IngestItem, EnvelopeSource } from './types';

/** A deterministic 32-byte value from a small number (agent ids, seeds). */
export function bytes32(n: number, tag = 0): Uint8Array {
  const b = new Uint8Array(32);
  b[0] = tag;
  new DataView(b.buffer).setUint32(28, n);
  return b;
}

export function conv16(n: number): Uint8Array {
  const b = new Uint8Array(16);
  new DataView(b.buffer).setUint32(12, n);
  return b;
}

export interface MakeItemParams {
  msgType: number;
  sender: Uint8Array;
  recipient?: Uint8Array;
  conversationId: Uint8Array;
  nonce: bigint;
  timestamp: bigint;
  payload?: Uint8Array;
  blockRef?: bigint;
  source?: EnvelopeSource;
  topic?: string;
  receivedAt?: Date;
}

/** Builds and signs an envelope (seed = sender id, fine for tests) and wraps it as an IngestItem. */
export function makeItem(p: MakeItemParams): IngestItem {
  const built = buildEnvelope({
    msgType: p.msgType, sender: p.sender, recipient: p.recipient, conversationId: p.conversationId, nonce: p.nonce,
    timestamp: p.timestamp, payload: p.payload ?? new Uint8Array(0), blockRef: p.blockRef,
  }, p.sender);
  return { id: built.id, envelope: built.envelope, raw: built.bytes, source: p.source ?? 'gossip', topic: p.topic, receivedAt: p.receivedAt ?? new Date(Number(p.timestamp / 1000n)) };
}

/** A fresh database on the server of `baseUrl`; `drop()` removes it. */
export async function createTestDatabase(baseUrl: string, prefix = 'zx_store'): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(baseUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** True when a Postgres server answers at `url` within `timeoutMs` (benches pick their store with it). */
export async function postgresReachable(url: string, timeoutMs = 2_000): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  try {
    await c.connect();
    await c.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => undefined);
  }
}
