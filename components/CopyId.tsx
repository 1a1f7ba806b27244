'use client';
/**
 * A small "copy" button: copies exactly the id shown beside it (an agent's base58 address on every
 * page; hex only where a raw view shows hex), whole even where the page shows it shortened. Says
 * "copied" for a moment so the click is visible. `Ident` is an id, signature, root or address as
 * the lists show it: the shown (often shortened) text with this button, marked data-ident so a
 * check can find every one.
 */
import { type ReactNode, useState } from 'react';

/** What kind of value an `Ident` holds: its button's label says "copy <kind>". */
export type IdentKind =
  | 'agent id'
  | 'signature'
  | 'address'
  | 'conversation id'
  | 'envelope id'
  | 'dispute id'
  | 'root';

export function Ident({ kind, value, children }: { kind: IdentKind; value: string; children: ReactNode }) {
  return (
    <span className="ident" data-ident={kind}>
      {children}
      <CopyId value={value} what={kind} />
    </span>
  );
}

export function CopyId({ value, what = 'agent id' }: { value: string; what?: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setDone('copied');
    } catch {
      // No clipboard (insecure origin, permission refused): say so instead of pretending.
      setDone('failed');
    }
    setTimeout(() => setDone(null), 1500);
  };
  return (
    <button
      type="button"
      className="copy-id"
      onClick={copy}
      title={`copy ${value}`}
      aria-label={`copy ${what}`}
      data-testid="copy-agent-id"
      data-copy={value}
      data-copy-kind={what}
    >
      {done ?? 'copy'}
    </button>
  );
}
