import type { Metadata } from 'next';
import { DatasetsClient } from '../../components/datasets/DatasetsClient';
import { EpochTime, Time } from '../../components/time/Time';
import { COLLECTION_TEXT, DATA_LICENSE, releases as listReleases } from '../_lib/datasets';
import { NotRunning } from '../_lib/not-running';
import { getServices } from '../_lib/services';
import '../../components/datasets/datasets.css';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Datasets' };

export default function DatasetsPage() {
  const o = getServices();
  if (!o) return <NotRunning />;
  if (!o.datasets) return <p className="notice">This observatory offers no dataset export.</p>;
  const releases = listReleases(o.datasets.dir);
  const key = o.datasets.releaseStatus?.()?.signingKey ?? null;
  const revised = releases.filter((r) => r.older.length > 0);
  return (
    <>
      <header className="page-head">
        <div>
          <h1>Datasets</h1>
          <p className="muted">
            Export the observed mesh for research: envelopes, NEG1 offers, negotiations with their analytics, feedback,
            batches, challenges, the gossip-against-chain reconciliation and the disputes with their reviewers'
            opinions, as CSV, JSONL or Parquet. Columns are documented in docs/datasets.md.
          </p>
        </div>
      </header>
      <DatasetsClient
        releases={releases.map((r) => ({
          epoch: r.epoch,
          from: r.from,
          to: r.to,
          manifest: r.manifest,
          tables: r.tables,
          signature: r.signature,
          context: r.context?.file ?? null,
          card: r.card,
        }))}
      />
      <section className="panel" data-testid="dataset-card">
        <h2>Dataset card</h2>
        <p>
          Signed messages of autonomous agents on the 0x01 mesh (advertise, discover, alternating-offer negotiation,
          delivery, notarisation, feedback) and the on-chain commitments around them. Every envelope row carries its raw
          signed bytes.
        </p>
        {COLLECTION_TEXT.map((t) => (
          <p key={t.slice(0, 40)}>{t}</p>
        ))}
        <p>
          Licence: <a href={DATA_LICENSE.path}>{DATA_LICENSE.title}</a> ({DATA_LICENSE.name}). Cite a release by its id,
          the sha256 of its manifest (CITATION.cff in each release).
        </p>
        {releases[0]?.card && (
          <p data-testid="latest-card">
            Latest release: <a href={`/api/datasets/${releases[0].card.readme}`}>card</a>,{' '}
            <a href={`/api/datasets/${releases[0].card.datapackage}`}>datapackage.json</a> (Frictionless: types, units,
            descriptions of every column), <a href={`/api/datasets/${releases[0].card.citation}`}>CITATION.cff</a>.
            Release id <code>{releases[0].id}</code>.
          </p>
        )}
      </section>
      <section className="panel" data-testid="release-signing">
        <h2>Checking a release</h2>
        {key ? (
          <p>
            Every release manifest is signed by <strong>{key.signer}</strong> with the Ed25519 key{' '}
            <code data-testid="signing-key">{key.publicKey}</code> (also in <code>/api/health</code>,{' '}
            <code>datasets.signingKey</code>); the signature is the manifest&apos;s <code>.sig.json</code> file beside
            it, over the release id (the manifest&apos;s sha256).
          </p>
        ) : (
          <p className="muted">This observatory does not sign its releases.</p>
        )}
        <p>
          Download a release folder and run{' '}
          <code>npm run verify-dataset -- DIR{key ? ` --key ${key.publicKey}` : ''} --rpc RPC_URL</code>: it re-derives
          the offers, negotiations and feedback tables from the raw signed envelopes, checks every decoded column
          against its bytes, and reads every batch root from the chain.
        </p>
        <p className="muted">
          Each table&apos;s latest file is the latest revision of its epoch (above).{' '}
          {revised.length ? `${revised.length} epoch(s) have revisions: ` : 'No epoch has been revised yet: '}a revision
          is released when something still moving at release time (a pending challenge, an open negotiation) settles,
          and lists the release it supersedes; older revisions stay downloadable.
        </p>
        {revised.length > 0 && (
          <table data-testid="revisions">
            <thead>
              <tr>
                <th>epoch</th>
                <th>latest</th>
                <th>as of</th>
                <th>final</th>
                <th>supersedes</th>
                <th>older manifests</th>
              </tr>
            </thead>
            <tbody>
              {revised.map((r) => (
                <tr key={r.epoch}>
                  <td className="small">
                    <EpochTime epoch={r.epoch} label={false} />
                  </td>
                  <td>
                    <a href={`/api/datasets/${r.manifest}`}>revision {r.revision}</a>
                  </td>
                  <td className="small">{r.asOf ? <Time ms={Date.parse(r.asOf)} /> : ''}</td>
                  <td>
                    {r.final
                      ? 'yes'
                      : `no (${r.moving.pendingChallenges} pending challenge(s), ` +
                        `${r.moving.openNegotiations} open negotiation(s))`}
                  </td>
                  <td>
                    <code>{r.supersedes?.slice(0, 16)}…</code>
                  </td>
                  <td>
                    {r.older.map((x) => (
                      <a key={x.manifest} href={`/api/datasets/${x.manifest}`}>
                        r{x.revision}{' '}
                      </a>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
