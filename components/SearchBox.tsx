'use client';
/**
 * The header's search box: suggestions from GET /api/search as the user types (hex or base58
 * ids, prefixes, `agent epoch`, signatures, labels), arrow keys to pick one, Enter to open it.
 * Enter on the text itself opens the one exact hit directly (`direct`), otherwise the /search
 * page with every hit grouped by kind. A plain GET form underneath, so it works without script.
 */
import { useRouter } from 'next/navigation';
import { useEffect, useId, useRef, useState } from 'react';
import { type SearchHit, type SearchResult, SearchResultSchema } from '../lib/wire/search';
import { shortBase58 } from './names/label';

/** Agents and batches by their base58 id (hex stays in the hit's data for raw use). */
function shownId(h: SearchHit): string {
  if (h.kind === 'agent') return shortBase58(h.id);
  if (h.kind === 'batch') {
    const [a, e] = h.id.split('/');
    return `${shortBase58(a)} epoch ${e}`;
  }
  return shortId(h.id);
}

const KIND_LABEL: Record<SearchHit['kind'], string> = {
  agent: 'agent',
  conversation: 'conversation',
  envelope: 'envelope',
  batch: 'batch',
  challenge: 'challenge',
  transaction: 'tx',
};

/** Middle-elided id for a suggestion row. */
function shortId(id: string): string {
  return id.length > 26 ? `${id.slice(0, 14)}…${id.slice(-8)}` : id;
}

export function SearchBox() {
  const router = useRouter();
  const listId = useId();
  const [text, setText] = useState('');
  const [result, setResult] = useState<SearchResult | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const box = useRef<HTMLFormElement>(null);

  useEffect(() => {
    const q = text.trim();
    if (q.length < 2) {
      setResult(null);
      setNote(null);
      return;
    }
    const ctl = new AbortController();
    // Wait for a pause in typing; each keystroke cancels the previous request.
    const t = setTimeout(async () => {
      try {
        const res = await fetch(`/api/search?q=${encodeURIComponent(q)}&limit=5`, { signal: ctl.signal });
        if (res.status === 429) return setNote(`slow down: retry in ${res.headers.get('retry-after') ?? 'a few'} s`);
        const body: unknown = await res.json();
        const parsed = SearchResultSchema.safeParse(body);
        if (!res.ok || !parsed.success)
          return setNote(
            typeof (body as { error?: unknown })?.error === 'string'
              ? (body as { error: string }).error
              : 'search failed',
          );
        setNote(null);
        setResult(parsed.data);
        setActive(-1);
      } catch (e) {
        if ((e as Error).name !== 'AbortError') setNote('search failed');
      }
    }, 150);
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [text]);

  useEffect(() => {
    const close = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, []);

  const current = result !== null && result.query === text.trim();
  const hits = current ? result.hits : [];
  const go = (href: string) => {
    setOpen(false);
    router.push(href);
  };
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const q = text.trim();
    if (!q) return;
    if (active >= 0 && hits[active]) return go(hits[active].href);
    if (current && result.direct) return go(result.direct);
    go(`/search?q=${encodeURIComponent(q)}`);
  };
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      const n = hits.length;
      if (n) setActive((i) => (e.key === 'ArrowDown' ? (i + 1) % n : (i - 1 + n) % n));
    } else if (e.key === 'Escape') setOpen(false);
  };

  const show = open && text.trim().length >= 2 && (current || note !== null);
  return (
    <form ref={box} className="searchbox" role="search" action="/search" method="get" onSubmit={submit}>
      <input
        type="search"
        name="q"
        value={text}
        placeholder="Search agent, conversation, envelope, batch, tx…"
        aria-label="Search"
        aria-autocomplete="list"
        aria-controls={listId}
        aria-expanded={show}
        autoComplete="off"
        spellCheck={false}
        data-testid="search-input"
        onChange={(e) => {
          setText(e.target.value);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onKeyDown={onKey}
      />
      {show && (
        <ul className="search-suggest" id={listId} role="listbox" data-testid="search-suggest">
          {note && <li className="muted small search-note">{note}</li>}
          {!note && hits.length === 0 && <li className="muted small search-note">no match for “{text.trim()}”</li>}
          {hits.map((h, i) => (
            <li
              key={`${h.kind}:${h.id}:${h.detail}`}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'active' : ''}
              onMouseDown={(e) => {
                e.preventDefault();
                go(h.href);
              }}
              onMouseEnter={() => setActive(i)}
              data-kind={h.kind}
            >
              <span className={`badge kind-${h.kind}`}>{KIND_LABEL[h.kind]}</span>
              <span className="mono">{shownId(h)}</span>
              <span className="muted small">{h.detail}</span>
            </li>
          ))}
          {hits.length > 0 && (
            <li
              className="search-all small"
              onMouseDown={(e) => {
                e.preventDefault();
                go(`/search?q=${encodeURIComponent(text.trim())}`);
              }}
            >
              All results for “{text.trim()}” ↵
            </li>
          )}
        </ul>
      )}
    </form>
  );
}
