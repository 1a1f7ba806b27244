/** pg-copy-streams' `to` (COPY … TO STDOUT), used by the export bench; merges with pg-copy-streams.d.ts. */
declare module 'pg-copy-streams' {
  import type { Readable } from 'node:stream';
  import type { Submittable } from 'pg';
  export function to(sql: string): Readable & Submittable;
}
