/**
 * The dataset export's contract (docs/datasets.md): the table and format names, the media type of
 * each download, and the JSON answers of GET /api/datasets and GET /api/export/progress. lib/export
 * builds its tables and writers on these names, so the API document and the exporter agree.
 */
import { z } from 'zod';

export const EXPORT_TABLES = [
  'envelopes',
  'offers',
  'negmas',
  'negotiations',
  'feedback',
  'batches',
  'challenges',
  'reconciliation',
  'disputes',
] as const;
export type ExportTable = (typeof EXPORT_TABLES)[number];
/** The tables a release holds: every export table but negmas, a view of offers in NegMAS's shape. */
export const RELEASE_TABLES = [
  'envelopes',
  'offers',
  'negotiations',
  'feedback',
  'batches',
  'challenges',
  'reconciliation',
  'disputes',
] as const satisfies readonly ExportTable[];
export type ReleaseTable = (typeof RELEASE_TABLES)[number];
export const EXPORT_FORMATS = ['csv', 'jsonl', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The Content-Type of each export format. */
export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  jsonl: 'application/x-ndjson; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
};

const ReleaseTablesSchema = z.record(
  z.string(),
  z.object({
    rows: z.number().int(),
    sha256: z.string(),
    file: z.string(),
    setAside: z
      .number()
      .int()
      .optional()
      .meta({ description: 'rows of the epoch left out because a value does not fit its Parquet column' }),
  }),
);

/** One release file set (a revision of an epoch): docs/datasets.md "Final states". */
export const DatasetRevisionSchema = z.object({
  revision: z.number().int().meta({ description: "0 for the epoch's first release, then counting up" }),
  id: z.string().meta({ description: 'the release id: sha256 of the manifest file (cite this)' }),
  supersedes: z.string().nullable().meta({ description: 'the release id this revision replaces' }),
  createdAt: z.string(),
  asOf: z.string().nullable().meta({ description: 'the instant the derived tables describe' }),
  final: z.boolean().meta({ description: 'nothing was still moving at asOf, or the settle time had passed' }),
  moving: z
    .object({ pendingChallenges: z.number().int(), openNegotiations: z.number().int() })
    .meta({ description: 'what was still moving at asOf' }),
  manifest: z.string().meta({ description: 'the manifest file; GET /api/datasets/{file} serves it' }),
  signature: z.string().nullable().meta({ description: "the manifest's detached Ed25519 signature file, when signed" }),
  card: z.object({ readme: z.string(), datapackage: z.string(), citation: z.string() }).nullable().meta({
    description: 'the dataset card: README.md, Frictionless datapackage.json, CITATION.cff (GET /api/datasets/{file})',
  }),
  context: z.object({ rows: z.number().int(), sha256: z.string(), file: z.string() }).nullable().meta({
    description: "the context file: the epoch's negotiations' envelopes dated outside it (verifying needs it)",
  }),
  files: z.array(z.string()).meta({
    description:
      'every file of this revision a verifier needs (manifest, signature, card, tables, ' +
      'context): download these and run verify-dataset to check the revision alone',
  }),
  tables: ReleaseTablesSchema,
});
export type DatasetRevision = z.infer<typeof DatasetRevisionSchema>;

/** One epoch in `<DATA_DIR>/datasets`: its latest revision, with the older ones it superseded (still served). */
export const DatasetReleaseSchema = DatasetRevisionSchema.extend({
  epoch: z.number().int(),
  from: z.string(),
  to: z.string(),
  batches: z.number().int(),
  older: z.array(DatasetRevisionSchema).meta({ description: 'older revisions of the epoch, newest first' }),
});
export type DatasetRelease = z.infer<typeof DatasetReleaseSchema>;

/** The key manifests are signed with. */
export const SigningKeySchema = z.object({
  publicKey: z.string().meta({ description: 'Ed25519 public key, hex: pass it to verify-dataset --key' }),
  signer: z.string(),
});

export const DatasetReleaseListSchema = z.object({
  releases: z.array(DatasetReleaseSchema),
  signingKey: SigningKeySchema.nullable(),
});
export type DatasetReleaseList = z.infer<typeof DatasetReleaseListSchema>;

/** Rows written so far by one running (or just finished) export. */
export const ExportProgressSchema = z.object({ rows: z.number().int(), total: z.number().int(), done: z.boolean() });
export type ExportProgress = z.infer<typeof ExportProgressSchema>;

/** The release scheduler's state in GET /api/health (`datasets`): releases are never failing silently. */
export const ReleaseStatusSchema = z.object({
  lastRelease: z.object({ epoch: z.number().int(), at: z.string() }).nullable(),
  lastError: z
    .object({ epoch: z.number().int(), at: z.string(), error: z.string() })
    .nullable()
    .meta({ description: 'the latest failed attempt (epoch -1: finding the epochs failed)' }),
  failures: z.number().int().meta({ description: 'failed attempts since the process started' }),
  retrying: z
    .array(z.object({ epoch: z.number().int(), attempts: z.number().int(), nextTry: z.string() }))
    .meta({ description: 'epochs whose release failed, each retried with backoff' }),
  setAside: z.number().int().meta({ description: 'rows left out of releases because a value did not fit its column' }),
  window: z
    .object({ first: z.number().int(), last: z.number().int() })
    .meta({ description: 'epochs a release may be made for now; epochs with data outside are never released' }),
  signingKey: SigningKeySchema.nullable().meta({
    description: 'the key every release manifest is signed with (verify-dataset --key)',
  }),
});
export type ReleaseStatusView = z.infer<typeof ReleaseStatusSchema>;
