'use client';
/**
 * A part of a page fetched when the reader comes near it (600 px before it scrolls into view), not
 * sent with the page: `load` is a server function bound to what it draws (app/agents/[id]/charts.tsx),
 * called once; until it answers, a line says what is coming, with a button should the browser have no
 * IntersectionObserver or the first read fail.
 */
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';

type State = { phase: 'waiting' | 'reading' } | { phase: 'done'; node: ReactNode } | { phase: 'failed'; why: string };

export function OnDemand({
  load,
  what,
  minHeight,
}: {
  load: () => Promise<ReactNode>;
  /** What is coming, in words ("the reputation chart"). */
  what: string;
  /** The room it is likely to take, so the page does not jump when it comes. */
  minHeight: number;
}) {
  const [s, set] = useState<State>({ phase: 'waiting' });
  const box = useRef<HTMLDivElement>(null);
  const started = useRef(false);
  const read = useCallback(() => {
    if (started.current) return;
    started.current = true;
    set({ phase: 'reading' });
    load().then(
      (node) => set({ phase: 'done', node }),
      (e: unknown) => {
        started.current = false;
        set({ phase: 'failed', why: e instanceof Error ? e.message : String(e) });
      },
    );
  }, [load]);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((x) => x.isIntersecting)) {
          io.disconnect();
          read();
        }
      },
      { rootMargin: '600px 0px' },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [read]);
  if (s.phase === 'done') return <>{s.node}</>;
  return (
    <div ref={box} style={{ minHeight }} data-testid="on-demand" data-phase={s.phase}>
      <p className="muted small">
        {s.phase === 'reading'
          ? `Drawing ${what}…`
          : `${what[0].toUpperCase()}${what.slice(1)}, drawn when you get here.`}{' '}
        {s.phase === 'reading' ? null : (
          <button type="button" className="btn small ghost" onClick={read}>
            Draw it now
          </button>
        )}
      </p>
      {s.phase === 'failed' ? (
        <p className="reason small" role="alert">
          It could not be drawn: {s.why}
        </p>
      ) : null}
    </div>
  );
}
