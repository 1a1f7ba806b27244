import type { Metadata } from 'next';
import { NotRunning } from '../_lib/not-running';
import { getServices } from '../_lib/services';
import { releases as listReleases } from '../_lib/datasets';
import { DatasetsClient } from '../../components/datasets/DatasetsClient';
import '../../components/datasets/datasets.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Datasets' };

export default function DatasetsPage() {
  const o = getServices();
  if (!o) return <NotRunning />;
  if (!o.datasets) return <p className="notice">This observatory offers no dataset export.</p>;
  const releases = listReleases(o.datasets.dir);
  return (
    <>
      <header className="page-head">
        <div>
          <h1>Datasets</h1>
          <p className="muted">Export the observed mesh for research: envelopes, NEG1 offers, negotiations with their analytics, feedback, batches and challenges, as CSV, JSONL or Parquet. Columns are documented in docs/datasets.md.</p>
        </div>
      </header>
      <DatasetsClient releases={releases.map((r) => ({ epoch: r.epoch, from: r.from, to: r.to, manifest: r.manifest, tables: r.tables }))} />
    </>
  );
}
