'use client';
import { useState } from 'react';
import type { AgentSatiProfileView } from '../../lib/wire';
/**
 * "SATI identity" on the agent page: the agent's registration as discovery read it from the
 * chain (name, symbol, member number, mint) and from its registration file (description, image,
 * services). The file is untrusted: every string is shown as text, links are not made from it,
 * and an http(s) image is fetched only when the viewer asks (a data: image, already in the page,
 * is shown at once; lib/chain/registration-file.ts keeps only raster data: images).
 */
import { type Column, DataTable } from '../table/DataTable';

function SatiImage({ src, name }: { src: string; name: string }) {
  const [shown, setShown] = useState(src.startsWith('data:image/'));
  if (!shown) {
    return (
      <button
        type="button"
        className="btn small"
        data-testid="sati-image-load"
        onClick={() => setShown(true)}
        title={src}
      >
        Load image from {(() => {
          try {
            return new URL(src).host;
          } catch {
            return 'its host';
          }
        })()}
      </button>
    );
  }
  return (
    // biome-ignore lint/performance/noImgElement: an image from an agent's registration file, not a site asset
    <img
      src={src}
      alt={name}
      width={64}
      height={64}
      referrerPolicy="no-referrer"
      data-testid="sati-image"
      style={{ objectFit: 'cover', borderRadius: 6 }}
    />
  );
}

type Service = { name: string; endpoint: string; version?: string | null };

/** The registration's services: a phone shows each as a card. */
const SERVICE_COLUMNS: Column<Service>[] = [
  { label: 'Service', priority: true, cell: (s) => s.name },
  { label: 'Endpoint', priority: true, className: 'mono', cell: (s) => s.endpoint },
  { label: 'Version', cell: (s) => s.version ?? '' },
];

export function SatiProfile({ p }: { p: AgentSatiProfileView | null }) {
  if (!p)
    return (
      <p className="muted empty" data-testid="sati-none">
        Not found in SATI&apos;s registry (yet): discovery reads new registrations every few seconds.
      </p>
    );
  const name = p.name ?? p.file?.name ?? 'unnamed';
  return (
    <div data-testid="sati-profile" data-registered={String(p.registered)}>
      <dl className="kv">
        <dt>SATI name</dt>
        <dd data-testid="sati-name">
          {name}
          {p.symbol ? <span className="muted"> ({p.symbol})</span> : null}
        </dd>
        <dt>Member</dt>
        <dd className="mono">
          #{p.memberNumber} · {p.registered ? 'registered' : `not registered (${p.reason ?? 'unknown'})`}
        </dd>
        <dt>Mint</dt>
        <dd className="mono">{p.mint}</dd>
        {p.image ? (
          <>
            <dt>Image</dt>
            <dd>
              <SatiImage src={p.image} name={name} />
            </dd>
          </>
        ) : null}
        {p.description ? (
          <>
            <dt>Description</dt>
            <dd>{p.description}</dd>
          </>
        ) : null}
        <dt>Registration file</dt>
        <dd className="mono small" style={{ overflowWrap: 'anywhere' }}>
          {p.uri ? (p.uri.length > 120 ? `${p.uri.slice(0, 120)}…` : p.uri) : 'none'}
          {p.fileError ? <span className="bad"> · {p.fileError}</span> : null}
        </dd>
        {p.meshEndpoint ? (
          <>
            <dt>zerox1-mesh</dt>
            <dd className="mono small" style={{ overflowWrap: 'anywhere' }}>
              {p.meshEndpoint}
              {p.dialed ? <span className="muted"> · dialled: {p.dialed}</span> : null}
            </dd>
          </>
        ) : null}
      </dl>
      {p.services.length ? (
        <DataTable
          columns={SERVICE_COLUMNS}
          rows={p.services}
          rowKey={(s) => `${s.name}|${s.endpoint}`}
          testId="sati-services"
          className="small"
          fold="never"
        />
      ) : null}
    </div>
  );
}
