/**
 * The dataset export's contract (docs/datasets.md): the table and format names, the media type of
 * each download, and the JSON answers of GET /api/datasets and GET /api/export/progress. lib/export
 * builds its tables and writers on these names, so the API document and the exporter agree.
 */
import { z } from 'zod';

export const EXPORT_TABLES = ['envelopes', 'offers', 'negotiations', 'feedback', 'batches', 'challenges'] as const;
export type ExportTable = (typeof EXPORT_TABLES)[number];
export const EXPORT_FORMATS = ['csv', 'jsonl', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The Content-Type of each export format. */
export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  jsonl: 'application/x-ndjson; charset=utf-8',
  parquet: 'application/vnd.apache.parquet',
};

/** One release in `<DATA_DIR>/datasets`: its epoch window, manifest and tables (paths relative to the folder). */
export const DatasetReleaseSchema = z.object({
  epoch: z.number().int(),
  from: z.string(),
  to: z.string(),
  createdAt: z.string(),
  batches: z.number().int(),
  manifest: z.string().meta({ description: 'the manifest file; GET /api/datasets/{file} serves it' }),
  tables: z.record(z.string(), z.object({ rows: z.number().int(), sha256: z.string(), file: z.string() })),
});
export type DatasetRelease = z.infer<typeof DatasetReleaseSchema>;

export const DatasetReleaseListSchema = z.object({ releases: z.array(DatasetReleaseSchema) });
export type DatasetReleaseList = z.infer<typeof DatasetReleaseListSchema>;

/** Rows written so far by one running (or just finished) export. */
export const ExportProgressSchema = z.object({ rows: z.number().int(), total: z.number().int(), done: z.boolean() });
export type ExportProgress = z.infer<typeof ExportProgressSchema>;
