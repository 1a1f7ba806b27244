/** A term with its glossary definition as its tooltip, linking to the glossary entry. */
import { GLOSSARY, type GlossaryKey, glossaryText } from './glossary';

export function Term({ k, children }: { k: GlossaryKey; children?: React.ReactNode }) {
  return (
    <a href={`/glossary#${k}`} className="tip" title={glossaryText(k)} data-term={k}>
      {children ?? GLOSSARY[k].term}
    </a>
  );
}
