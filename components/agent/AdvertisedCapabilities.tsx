/**
 * "Advertised capabilities" on the agent page: the agent's latest ADVERTISE decoded from its
 * `JSON` / `CBOR` format hint (docs/protocol.md §8), each top-level field a row; a payload with
 * no hint is shown as opaque, since the protocol gives it no meaning.
 */
import type { AdvertisedView } from '../../lib/wire';
import { shortHex } from '../format';
import { Time } from '../time/Time';

/** A field name in words (`serviceHash` → "service hash", `max_rounds` → "max rounds"); the raw key is its tooltip. */
export const keyWords = (k: string) =>
  k
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();

/** One value in a line: scalars as they are, lists comma-separated, objects as `key: value` pairs. */
function inline(v: unknown, depth = 0): string {
  if (v === null || v === undefined) return '—';
  if (typeof v !== 'object') return String(v);
  if (depth > 1) return JSON.stringify(v);
  if (Array.isArray(v)) return v.map((x) => inline(x, depth + 1)).join(', ');
  return Object.entries(v)
    .map(([k, x]) => `${keyWords(k)}: ${inline(x, depth + 1)}`)
    .join(' · ');
}

export function AdvertisedCapabilities({ a }: { a: AdvertisedView | null }) {
  if (!a)
    return (
      <p className="muted empty" data-testid="advertised-none">
        No ADVERTISE from this agent yet.
      </p>
    );
  const when = (
    <p className="muted">
      ADVERTISE{' '}
      <span className="mono" title={a.envelopeId}>
        {shortHex(a.envelopeId)}
      </span>{' '}
      · <Time ms={a.timestampMs} />
      {a.format ? (
        <>
          {' '}
          · format hint <span className="mono">{a.format}</span>
        </>
      ) : null}
    </p>
  );
  const caps = a.capabilities;
  if (!a.format || caps === null) {
    return (
      <div data-testid="advertised-opaque">
        {when}
        <p>
          opaque payload <span className="muted">({a.opaque ?? 'no format hint'})</span>
        </p>
      </div>
    );
  }
  const rows =
    typeof caps === 'object' && !Array.isArray(caps)
      ? Object.entries(caps as Record<string, unknown>)
      : [['value', caps] as const];
  return (
    <div data-testid="advertised-capabilities">
      {when}
      <dl className="kv">
        {rows.map(([k, v]) => (
          <div key={k} style={{ display: 'contents' }} data-cap={k}>
            <dt title={`field ${k}`}>{keyWords(k)}</dt>
            <dd className="mono" style={{ overflowWrap: 'anywhere' }}>
              {inline(v)}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
