/** /glossary: every term the pages use, the same text as their tooltips (components/glossary.ts). */
import type { Metadata } from 'next';
import { DROP_REASONS, GLOSSARY, type GlossaryEntry } from '../../components/glossary';

export const metadata: Metadata = { title: 'Glossary' };

const GROUPS: { key: GlossaryEntry['group']; title: string }[] = [
  { key: 'mesh', title: 'The mesh' },
  { key: 'negotiation', title: 'Negotiations' },
  { key: 'chain', title: 'On chain' },
  { key: 'alerts', title: 'Watching and alerts' },
];

export default function GlossaryPage() {
  const entries = Object.entries(GLOSSARY) as [string, GlossaryEntry][];
  return (
    <>
      <header className="page-head">
        <div>
          <h1>Glossary</h1>
          <p className="muted">
            What the words on these pages mean. Hovering a dotted term anywhere shows the same text.
          </p>
        </div>
      </header>
      {GROUPS.map((g) => (
        <section className="card" style={{ marginBottom: 16 }} key={g.key}>
          <h2>{g.title}</h2>
          <dl className="glossary">
            {entries
              .filter(([, e]) => e.group === g.key)
              .map(([k, e]) => (
                <div key={k} id={k}>
                  <dt>{e.term}</dt>
                  <dd>{e.text}</dd>
                </div>
              ))}
          </dl>
        </section>
      ))}
      <section className="card" id="drops">
        <h2>Drop reasons</h2>
        <p className="muted small">Why the observer refused an envelope; the overview counts drops by these names.</p>
        <dl className="glossary">
          {Object.entries(DROP_REASONS).map(([k, t]) => (
            <div key={k} id={`drop-${k}`}>
              <dt className="mono">{k}</dt>
              <dd>{t}</dd>
            </div>
          ))}
        </dl>
      </section>
    </>
  );
}
