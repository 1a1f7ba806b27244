'use client';
/**
 * A small "copy" button for an agent id: copies the hex form (what the API, the CLI tools and the
 * wire use) while the page shows base58. Says "copied" for a moment so the click is visible.
 */
import { useState } from 'react';

export function CopyId({ hex }: { hex: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(hex);
      setDone('copied');
    } catch {
      // No clipboard (insecure origin, permission refused): say so instead of pretending.
      setDone('failed');
    }
    setTimeout(() => setDone(null), 1500);
  };
  return (
    <button type="button" className="copy-id" onClick={copy} title={`copy hex ${hex}`} aria-label="copy hex agent id" data-testid="copy-agent-id" data-hex={hex}>
      {done ?? 'copy'}
    </button>
  );
}
