/**
 * The API route walker's checks of routes that answer downloads rather than JSON: dataset exports
 * (CSV, JSONL, Parquet), released dataset files, and Handshake receipts (CBOR). Each checks the
 * status, the content type against the document's media types, and what the download promises.
 */
import assert from 'node:assert/strict';
import { type DatasetReleaseList, EXPORT_CONTENT_TYPES } from '../lib/wire';
import type { ApiDocument, ApiHarness } from './api-testing';

/** Whether `path`'s documented 200 answer lists a media type (parameters such as charset ignored). */
export function documentedMediaTypeOf(doc: ApiDocument): (path: string, type: string) => boolean {
  return (path, type) => {
    const content = doc.paths[path]?.get?.responses['200']?.content ?? {};
    return Object.keys(content).some((m) => m.split(';')[0].trim() === type.split(';')[0].trim());
  };
}

/** What the download checks need from the walker. */
export interface DownloadCheckContext {
  h: ApiHarness;
  convId: string;
  releases: DatasetReleaseList['releases'];
  documentedMediaType: (path: string, type: string) => boolean;
  conforms: (method: string, path: string, status: number, body: unknown) => void;
}

/** Checks `path` when it is a download route; false for every other route. */
export async function checkDownloadRoute(path: string, c: DownloadCheckContext): Promise<boolean> {
  if (path === '/api/export/{table}') {
    // Downloads: the status and the documented media type of each format, rows counted in a header.
    for (const [format, type] of Object.entries(EXPORT_CONTENT_TYPES)) {
      const res = await fetch(`${c.h.base}/api/export/envelopes?format=${format}&limit=5`);
      assert.equal(res.status, 200, `export ${format} answered ${res.status}`);
      assert.equal(res.headers.get('content-type'), type);
      assert.ok(c.documentedMediaType('/api/export/{table}', type), `${type} is documented`);
      assert.match(res.headers.get('x-total-rows') ?? '', /^\d+$/);
      await res.arrayBuffer();
    }
    return true;
  }
  if (path === '/api/datasets/{file}') {
    const released = Object.values(c.releases[0].tables)[0];
    for (const [file, type] of [
      [c.releases[0].manifest, /^application\/json/],
      [released.file, /^application\/vnd\.apache\.parquet/],
    ] as const) {
      const res = await fetch(`${c.h.base}/api/datasets/${file}`);
      assert.equal(res.status, 200, `datasets/${file} answered ${res.status}`);
      const ct = res.headers.get('content-type') ?? '';
      assert.match(ct, type);
      assert.ok(c.documentedMediaType('/api/datasets/{file}', ct), `${ct} is documented`);
      await res.arrayBuffer();
    }
    const missing = await c.h.getJson('/api/datasets/epoch=999999999.manifest.json');
    assert.equal(missing.status, 404);
    c.conforms('get', '/api/datasets/{file}', 404, missing.body);
    return true;
  }
  if (path === '/api/stats/series/csv') {
    const res = await fetch(`${c.h.base}/api/stats/series/csv?metric=envelopes&range=1h`);
    assert.equal(res.status, 200, `stats csv answered ${res.status}`);
    const ct = res.headers.get('content-type') ?? '';
    assert.ok(c.documentedMediaType(path, ct), `${ct} is documented`);
    const lines = (await res.text()).trim().split('\n');
    assert.equal(lines[0], 'interval_start_utc,interval_seconds,envelopes_per_s');
    assert.equal(lines.length, 61, '60 one-minute rows after the header');
    return true;
  }
  if (path === '/api/conversations/{id}/receipt') {
    // A CBOR download when the conversation is finished, else a 409 naming what is missing.
    const res = await fetch(`${c.h.base}/api/conversations/${c.convId}/receipt`);
    assert.ok(res.status === 200 || res.status === 409, `receipt answered ${res.status}`);
    assert.match(res.headers.get('content-type') ?? '', res.status === 200 ? /application\/cbor/ : /json/);
    await res.arrayBuffer();
    return true;
  }
  return false;
}
