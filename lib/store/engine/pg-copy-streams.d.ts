/** Minimal typings for pg-copy-streams 7 (the package ships none); only what db.ts uses. */
declare module 'pg-copy-streams' {
  import type { Readable, Writable } from 'node:stream';
  import type { Submittable } from 'pg';
  /** A `COPY … FROM STDIN` submittable: pass to `client.query`, write the data, end it. */
  export function from(sql: string): Writable & Submittable;
  /** A `COPY … TO STDOUT` submittable: pass to `client.query`, read the data chunks. */
  export function to(sql: string): Readable & Submittable;
}
