'use client';
/**
 * The /datasets page (docs/datasets.md "Page"): pick a table, time range, agent and message
 * types; preview the first rows; download CSV/JSONL/Parquet with a progress bar (rows written of
 * the total the server announces in X-Total-Rows, rate, ETA) and cancel. The download is a
 * fetch read through its ReadableStream reader; rows come from the export's progress endpoint
 * (exact for Parquet too) and, for CSV/JSONL, from the line ends seen.
 */
import { useRef, useState } from 'react';
import { EXPORT_TABLES, RELEASE_TABLES } from '../../lib/wire/datasets';
import { EpochTime, Time } from '../time/Time';
import { countLines, dispositionName, type ExportForm, exportUrl, progressFigures } from './progress';

/** Tables a release holds (columns of the releases list); the export form offers every export table (negmas too). */
const TABLES: readonly string[] = RELEASE_TABLES;
const TYPES = [
  'ADVERTISE',
  'DISCOVER',
  'PROPOSE',
  'COUNTER',
  'ACCEPT',
  'REJECT',
  'DELIVER',
  'NOTARIZE_BID',
  'NOTARIZE_ASSIGN',
  'VERDICT',
  'FEEDBACK',
  'DISPUTE',
  'BEACON',
];

export interface ReleaseView {
  epoch: number;
  from: string;
  to: string;
  manifest: string;
  tables: Record<string, { rows: number; file: string }>;
  /** The files a verifier needs besides the tables: signature, context file, card (null when absent). */
  signature: string | null;
  context: string | null;
  card: { readme: string; datapackage: string; citation: string } | null;
}

/** A release file's download URL (app/api/datasets/[...file]); the name's segments kept as path segments. */
const releaseHref = (file: string) => `/api/datasets/${file.split('/').map(encodeURIComponent).join('/')}`;

type Dl =
  | { state: 'idle' }
  | {
      state: 'running' | 'done' | 'cancelled' | 'failed';
      rows: number;
      total: number;
      bytes: number;
      startedAt: number;
      now: number;
      error?: string;
      file?: string;
    };

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
/** A preview cell: long hex shortened to its head and tail (agent ids share their first bytes); lists as their JSON. */
const cell = (v: unknown) => {
  if (v === null || v === undefined) return '';
  const s = typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /^[0-9a-f]{20,}$/.test(s) ? `${s.slice(0, 8)}…${s.slice(-6)}` : s.length > 32 ? `${s.slice(0, 31)}…` : s;
};

export function DatasetsClient({ releases }: { releases: ReleaseView[] }) {
  const [form, setForm] = useState<ExportForm>({
    table: 'negotiations',
    format: 'parquet',
    from: '',
    to: '',
    agent: '',
    types: [],
  });
  const [preview, setPreview] = useState<{ cols: string[]; rows: Record<string, unknown>[]; total: number } | null>(
    null,
  );
  const [error, setError] = useState<string | null>(null);
  const [dl, setDl] = useState<Dl>({ state: 'idle' });
  const abortRef = useRef<AbortController | null>(null);
  const set = (patch: Partial<ExportForm>) => setForm((f) => ({ ...f, ...patch }));

  async function runPreview() {
    setError(null);
    const res = await fetch(exportUrl({ ...form, format: 'jsonl' }, { limit: '20' }));
    if (!res.ok) {
      setError(((await res.json()) as { error: string }).error);
      setPreview(null);
      return;
    }
    const rows = (await res.text())
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    setPreview({
      cols: rows[0] ? Object.keys(rows[0]) : [],
      rows,
      total: Number(res.headers.get('x-matching-rows') ?? rows.length),
    });
  }

  async function download() {
    setError(null);
    const job = crypto.randomUUID();
    const ac = new AbortController();
    abortRef.current = ac;
    const startedAt = Date.now();
    let st = { rows: 0, total: 0, bytes: 0, startedAt, now: startedAt };
    setDl({ state: 'running', ...st });
    let poll: ReturnType<typeof setInterval> | undefined;
    try {
      const res = await fetch(exportUrl(form, { job }), { signal: ac.signal });
      if (!res.ok) throw new Error(((await res.json()) as { error: string }).error);
      st = { ...st, total: Number(res.headers.get('x-total-rows') ?? 0) };
      const file = dispositionName(res.headers.get('content-disposition'), `export.${form.format}`);
      poll = setInterval(async () => {
        const p = (await fetch(`/api/export/progress?job=${job}`).then(
          (r) => (r.ok ? r.json() : null),
          () => null,
        )) as { rows: number } | null;
        if (p) st = { ...st, rows: Math.max(st.rows, p.rows) };
      }, 250);
      const reader = res.body!.getReader();
      const parts: Uint8Array[] = [];
      let lines = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        if (form.format !== 'parquet') lines += countLines(value);
        const textRows = form.format === 'csv' ? Math.max(0, lines - 1) : lines;
        st = { ...st, bytes: st.bytes + value.length, rows: Math.max(st.rows, textRows), now: Date.now() };
        setDl({ state: 'running', ...st });
      }
      st = { ...st, rows: st.total, now: Date.now() };
      const url = URL.createObjectURL(new Blob(parts as BlobPart[]));
      const a = document.createElement('a');
      a.href = url;
      a.download = file;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      setDl({ state: 'done', ...st, file });
    } catch (e) {
      const cancelled = ac.signal.aborted;
      setDl({
        state: cancelled ? 'cancelled' : 'failed',
        ...st,
        now: Date.now(),
        error: cancelled ? undefined : String((e as Error).message ?? e),
      });
    } finally {
      if (poll) clearInterval(poll);
      abortRef.current = null;
    }
  }

  const fig = dl.state === 'idle' ? null : progressFigures(dl);
  return (
    <div className="stack">
      <section className="card datasets-form">
        <label>
          Table
          <select value={form.table} onChange={(e) => set({ table: e.target.value })} data-testid="table">
            {EXPORT_TABLES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          From (UTC)
          <input type="datetime-local" value={form.from} onChange={(e) => set({ from: e.target.value })} />
        </label>
        <label>
          To (UTC)
          <input type="datetime-local" value={form.to} onChange={(e) => set({ to: e.target.value })} />
        </label>
        <label>
          Agent
          <input
            className="mono"
            placeholder="64 hex or base58"
            value={form.agent}
            onChange={(e) => set({ agent: e.target.value })}
          />
        </label>
        {form.table === 'envelopes' && (
          <fieldset className="types">
            <legend>Message types</legend>
            {TYPES.map((t) => (
              <label key={t} className="small">
                <input
                  type="checkbox"
                  checked={form.types.includes(t)}
                  onChange={(e) =>
                    set({ types: e.target.checked ? [...form.types, t] : form.types.filter((x) => x !== t) })
                  }
                />
                {t}
              </label>
            ))}
          </fieldset>
        )}
        <label>
          Format
          <select
            value={form.format}
            onChange={(e) => set({ format: e.target.value as ExportForm['format'] })}
            data-testid="format"
          >
            <option value="csv">CSV</option>
            <option value="jsonl">JSONL</option>
            <option value="parquet">Parquet</option>
          </select>
        </label>
        <div className="actions">
          <button type="button" onClick={runPreview}>
            Preview
          </button>
          <button type="button" onClick={download} disabled={dl.state === 'running'} data-testid="download">
            Download
          </button>
          <button type="button" onClick={() => abortRef.current?.abort()} disabled={dl.state !== 'running'}>
            Cancel
          </button>
        </div>
      </section>
      {error && (
        <p className="notice" role="alert">
          {error}
        </p>
      )}
      {dl.state !== 'idle' && fig && (
        <section
          className="card"
          data-testid="progress"
          data-state={dl.state}
          data-rows={dl.rows}
          data-total={dl.total}
        >
          <div className="progress">
            <span style={{ width: `${fig.percent}%` }} />
          </div>
          <p className="mono small">
            {dl.state}: {fmt(dl.rows)} of {fmt(dl.total)} rows · {fmt(fig.rate)} rows/s · ETA{' '}
            {fig.etaSeconds === null ? '–' : `${fig.etaSeconds} s`} · {fmt(dl.bytes / 1024)} KiB
            {dl.state === 'done' && dl.file ? ` · saved ${dl.file}` : ''}
            {dl.error ? ` · ${dl.error}` : ''}
          </p>
        </section>
      )}
      {preview && (
        <section className="card">
          <h2>Preview</h2>
          <p className="muted small">
            First {preview.rows.length} of {fmt(preview.total)} rows; hover a cell for its full value.
          </p>
          <div className="table-wrap">
            <table className="preview" data-testid="preview">
              <thead>
                <tr>
                  {preview.cols.map((c) => (
                    <th key={c}>{c}</th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((r, i) => (
                  <tr key={i}>
                    {preview.cols.map((c) => (
                      <td key={c} className="mono small" title={r[c] === null ? '' : String(r[c])}>
                        {cell(r[c])}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}
      <section className="card">
        <h2>Releases</h2>
        <p className="muted small">
          Immutable Parquet snapshots per epoch with a manifest. To recheck a release, download its tables and every
          file under &ldquo;to verify&rdquo; (manifest, signature, context, card) into one folder, keeping their paths,
          and run <code>npm run verify-dataset -- DIR</code>: each revision verifies alone.
        </p>
        {releases.length === 0 ? (
          <p className="muted empty">No release yet: one is written after each epoch ends.</p>
        ) : (
          <table data-testid="releases">
            <thead>
              <tr>
                <th>epoch</th>
                <th>from</th>
                <th>to</th>
                {TABLES.map((t) => (
                  <th key={t} className="num">
                    {t} (Parquet)
                  </th>
                ))}
                <th>to verify</th>
              </tr>
            </thead>
            <tbody>
              {releases.map((r) => (
                <tr key={r.epoch}>
                  <td className="mono small">
                    <EpochTime epoch={r.epoch} label={false} />
                  </td>
                  <td className="small">
                    <Time ms={Date.parse(r.from)} relative={false} />
                  </td>
                  <td className="small">
                    <Time ms={Date.parse(r.to)} relative={false} />
                  </td>
                  {TABLES.map((t) => {
                    const f = r.tables[t];
                    return (
                      <td key={t} className="num">
                        {f ? (
                          <a href={releaseHref(f.file)} download title={`${f.file}`}>
                            {fmt(f.rows)}
                          </a>
                        ) : (
                          fmt(0)
                        )}
                      </td>
                    );
                  })}
                  <td data-testid="verify-files">
                    <a href={releaseHref(r.manifest)} download>
                      manifest
                    </a>
                    {r.signature && (
                      <>
                        {' '}
                        <a href={releaseHref(r.signature)} download>
                          signature
                        </a>
                      </>
                    )}
                    {r.context && (
                      <>
                        {' '}
                        <a href={releaseHref(r.context)} download title={r.context}>
                          context
                        </a>
                      </>
                    )}
                    {r.card && (
                      <>
                        {' '}
                        <a href={releaseHref(r.card.readme)} download>
                          card
                        </a>{' '}
                        <a href={releaseHref(r.card.datapackage)} download>
                          datapackage
                        </a>{' '}
                        <a href={releaseHref(r.card.citation)} download>
                          CITATION
                        </a>
                      </>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
