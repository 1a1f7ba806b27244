'use client';
/**
 * A sentence the server wrote (an alert's reason, a refusal) shown with the page's clock: every
 * ISO 8601 instant in it in the zone the viewer chose, and every "epoch N" with its clock span.
 * The stored text stays plain and in UTC, as webhooks and the API carry it.
 */
import { Fragment } from 'react';
import { EpochTime, Time } from './Time';

const PARTS = /(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z)|\bepoch (\d{1,19})\b/g;

export function TimedText({ text }: { text: string }) {
  const out: React.ReactNode[] = [];
  let at = 0;
  for (const m of text.matchAll(PARTS)) {
    const i = m.index ?? 0;
    if (i > at) out.push(text.slice(at, i));
    out.push(
      <Fragment key={i}>
        {m[1] ? <Time ms={Date.parse(m[1])} relative={false} /> : <EpochTime epoch={m[2]} />}
      </Fragment>,
    );
    at = i + m[0].length;
  }
  if (at < text.length) out.push(text.slice(at));
  return <>{out}</>;
}
