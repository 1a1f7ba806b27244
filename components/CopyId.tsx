'use client';
/**
 * A small "copy" button: copies exactly the id shown beside it (an agent's base58 address on every
 * page; hex only where a raw view shows hex). Says "copied" for a moment so the click is visible.
 */
import { useState } from 'react';

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
    >
      {done ?? 'copy'}
    </button>
  );
}
