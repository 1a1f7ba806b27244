/**
 * Typed errors of lib/store. One base with `cause` and an explicit name.
 */

/** Base error of the store: database, migration or schema-engine failures. */
export class StoreError extends Error {
  override name = 'StoreError';
}

/** Applying the migrations at start failed; `cause` holds the engine's or database's error. */
export class MigrationError extends StoreError {
  override name = 'MigrationError';
}

/** The store was used after `close()`. */
export class StoreClosedError extends StoreError {
  override name = 'StoreClosedError';
  constructor() {
    super('store is closed');
  }
}
