'use client';
/**
 * Light, dark or the system's choice: kept per browser (localStorage `theme`), applied as
 * `data-theme` on <html>. The layout's inline script applies a stored choice before first paint;
 * this button cycles it and tells canvas drawings (the graph) to re-read the palette.
 */
import { useEffect, useState } from 'react';

export const THEME_KEY = 'theme';
type Choice = 'system' | 'light' | 'dark';
const NEXT: Record<Choice, Choice> = { system: 'light', light: 'dark', dark: 'system' };

/** Runs in <head> before the body paints: a stored choice wins over prefers-color-scheme. */
export const THEME_SCRIPT =
  `try{var t=localStorage.getItem('${THEME_KEY}` +
  `');if(t==='light'||t==='dark')document.documentElement.dataset.theme=t}catch(e){}`;

export function ThemeToggle() {
  const [choice, setChoice] = useState<Choice | null>(null);
  useEffect(() => {
    let t: string | null = null;
    try {
      t = localStorage.getItem(THEME_KEY);
    } catch {
      /* storage refused: follow the system */
    }
    setChoice(t === 'light' || t === 'dark' ? t : 'system');
  }, []);
  const next = () => {
    const c = NEXT[choice ?? 'system'];
    setChoice(c);
    try {
      if (c === 'system') localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, c);
    } catch {
      /* not kept, still applied */
    }
    if (c === 'system') delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = c;
    window.dispatchEvent(new Event('themechange'));
  };
  const label =
    choice === null
      ? 'Theme'
      : choice === 'system'
        ? 'Theme: system'
        : choice === 'light'
          ? 'Theme: light'
          : 'Theme: dark';
  return (
    <button
      type="button"
      className="theme-toggle"
      onClick={next}
      data-testid="theme-toggle"
      data-choice={choice ?? ''}
      title="Switch between light, dark and your system's setting (kept in this browser)"
    >
      {label}
    </button>
  );
}
