/**
 * lib/store/export: every statement of the datasets export (lib/store/export/README.md).
 * ExportPort: the export's reads as one source (lib/export turns the rows into dataset rows).
 */
import 'server-only';
import type { PortContext } from '../engine/port';
import { type ExportReader, type ExportSource, exportSource } from './export';

export type {
  DbRow,
  ExportFilter,
  ExportReader,
  ExportSource,
  ExportStoreTable,
  NegotiationPage,
  ScanOptions,
} from './export';
export type { EnvelopeCsvCopy } from './export-copy';

export interface ExportPort {
  /** Dataset export reads (lib/store/export/export.ts, docs/datasets.md). */
  exportSource(reader?: ExportReader): ExportSource;
}

export function exportPort({ db, epochSeconds }: PortContext): ExportPort {
  return { exportSource: (reader) => exportSource(db, epochSeconds, reader) };
}
