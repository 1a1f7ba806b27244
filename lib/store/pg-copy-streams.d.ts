/** Minimal typings for pg-copy-streams 7 (the package ships none); only what db.ts uses. */
declare module 'pg-copy-streams' {
  import type { Readable, ReadableOptions, Writable } from 'node:stream';
  import type { Submittable } from 'pg';
  /** A `COPY … FROM STDIN` submittable: pass to `client.query`, write the data, end it. */
  export function from(sql: string): Writable & Submittable;
  /**
   * A `COPY … TO STDOUT` submittable: pass to `client.query`, read the data chunks. `options`
   * go to its Readable (copy-to.js passes them to the constructor), e.g. a larger highWaterMark.
   */
  export function to(sql: string, options?: ReadableOptions): Readable & Submittable;
}
