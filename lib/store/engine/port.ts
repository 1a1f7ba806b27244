/**
 * What every feature's port is built from (lib/store/README.md "Features and ports"): the db
 * handle, the generated Prisma client on the same connection, the store's epoch length and its
 * `live` guard, which refuses a call once the store is closed.
 */
import type { PrismaClient } from '../generated/client';
import type { Db } from './db';

/** Runs `fn` unless the store is closed (then rejects with StoreClosedError). */
export type Live = <T>(fn: () => Promise<T>) => Promise<T>;

export interface PortContext {
  db: Db;
  prisma: PrismaClient;
  live: Live;
  /** Epoch length of the envelope `epoch` column, seconds. */
  epochSeconds: number;
}
