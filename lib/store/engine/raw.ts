/**
 * The db handle behind each open Store, for test support only: the Store type has no raw SQL
 * (nothing outside lib/store sees SQL), so tests and benches that must set up or inspect rows
 * directly reach the handle through lib/store/testing.ts (rawQuery, rawPrisma), keyed by the
 * store object. Not exported from any index.
 */
import type { PrismaClient } from '../generated/client';
import type { Db } from './db';
import type { Live } from './port';

export interface RawHandles {
  db: Db;
  prisma: PrismaClient;
  live: Live;
}

const handles = new WeakMap<object, RawHandles>();

export function registerRaw(store: object, h: RawHandles): void {
  handles.set(store, h);
}

export function rawHandles(store: object): RawHandles {
  const h = handles.get(store);
  if (!h) throw new TypeError('not a store returned by openStore');
  return h;
}
