'use client';
/**
 * The overview's time control. Live: pick a past window (in the viewer's zone, UTC on hover) or
 * one of the last minutes, and replay it. Replaying: the clock, progress through the window,
 * play/pause, one envelope or one second forward, the speed, a link to this position, back to live.
 */
import { useState } from 'react';
import { count } from '../format';
import { Term } from '../Term';
import { localText, utcText, zoneText } from '../time/format';
import { Time, useNow } from '../time/Time';
import { fieldInstant, fieldText } from '../time/ZonedDateInput';
import { useZoneChoice, zoneOption } from '../time/zone';
import { REPLAY_SPEEDS, type ReplaySpeed } from './player';
import { MAX_REPLAY_WINDOW_MS, replaySearch } from './url';
import type { ReplayControls, ReplayView } from './useReplay';

const PRESETS = [5, 15, 60] as const;

/** A datetime-local value read in the viewer's zone (or UTC); NaN when empty or broken. */
const fromInput = (v: string, utc: boolean) => fieldInstant(v, utc) ?? NaN;

const STATUS_TEXT = {
  playing: 'Playing',
  paused: 'Paused',
  buffering: 'Loading…',
  ended: 'Ended',
  error: 'Stopped',
} as const;

/** One end of the window: a datetime-local field, its instant in UTC on hover. */
function WindowEnd(p: {
  label: string;
  id: string;
  value: string;
  ms: number;
  zone: string;
  onChange: (v: string) => void;
}) {
  return (
    <label title={Number.isFinite(p.ms) ? utcText(p.ms) : `a time in ${p.zone}`}>
      {p.label}{' '}
      <input
        type="datetime-local"
        step={1}
        value={p.value}
        onChange={(e) => p.onChange(e.target.value)}
        data-testid={p.id}
      />
    </label>
  );
}

/** Live mode: pick a past window in the page's clock (the viewer's zone or UTC), or one of the last minutes. */
function ReplayPicker({ controls }: { controls: ReplayControls }) {
  const now = useNow();
  const utc = useZoneChoice() === 'utc';
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [speed, setSpeed] = useState<ReplaySpeed>(10);
  const [problem, setProblem] = useState('');
  const fromMs = fromInput(from, utc),
    toMs = fromInput(to, utc);
  const go = () => {
    if (!Number.isFinite(fromMs) || !Number.isFinite(toMs)) return setProblem('Pick both the start and the end.');
    if (fromMs >= toMs) return setProblem('The start must be before the end.');
    if (toMs - fromMs > MAX_REPLAY_WINDOW_MS) return setProblem('At most 30 days.');
    setProblem('');
    controls.start({ fromMs, toMs, atMs: fromMs, speed });
  };
  const last = (min: number) => {
    const t = Date.now();
    controls.start({ fromMs: t - min * 60_000, toMs: t, atMs: t - min * 60_000, speed });
  };
  const zone = now && !utc ? zoneText(now) : 'UTC';
  return (
    <section className="card replay-bar" data-testid="replay-bar" data-mode="live" aria-label="Replay a past window">
      <div className="replay-row">
        <strong>
          <Term k="replay">Replay</Term> a past window
        </strong>
        <WindowEnd label="From" id="replay-from" value={from} ms={fromMs} zone={zone} onChange={setFrom} />
        <WindowEnd label="to" id="replay-to" value={to} ms={toMs} zone={zone} onChange={setTo} />
        <span className="muted small">{zone}</span>
        <SpeedSelect value={speed} onChange={setSpeed} />
        <button type="button" onClick={go} data-testid="replay-start">
          Replay
        </button>
        <span className="replay-presets">
          or the last{' '}
          {PRESETS.map((m) => (
            <button type="button" key={m} onClick={() => last(m)} data-testid={`replay-last-${m}`}>
              {m} min
            </button>
          ))}
        </span>
        {!from && !to ? (
          <button
            type="button"
            className="linkish small"
            onClick={() => {
              const t = Date.now();
              setFrom(fieldText(t - 10 * 60_000, utc, true));
              setTo(fieldText(t, utc, true));
            }}
          >
            fill in the last 10 min
          </button>
        ) : null}
      </div>
      {problem ? (
        <p className="small warn-text" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}

export function ReplayBar({ view, controls }: { view: ReplayView | null; controls: ReplayControls }) {
  const now = useNow();
  const choice = useZoneChoice();
  const [copied, setCopied] = useState(false);
  if (!view) return <ReplayPicker controls={controls} />;

  const { link, status, position, emitted, error } = view;
  const span = Math.max(1, link.toMs - link.fromMs);
  const done = Math.min(1, Math.max(0, (position - link.fromMs) / span));
  const copy = async () => {
    const u = new URL(window.location.href);
    u.search = replaySearch({ ...link, atMs: position }, u.search);
    try {
      await navigator.clipboard.writeText(u.toString());
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      window.prompt('Link to this position', u.toString());
    }
  };
  return (
    <section
      className="card replay-bar replaying"
      data-testid="replay-bar"
      data-mode="replay"
      data-status={status}
      data-emitted={emitted}
      aria-label="Replay controls"
    >
      <div className="replay-row">
        <strong>
          <Term k="replay">Replaying</Term>
        </strong>
        <span className="replay-window small">
          <Time ms={link.fromMs} relative={false} /> – <Time ms={link.toMs} relative={false} />
        </span>
        <span className={`replay-status status-${status}`} data-testid="replay-status">
          {STATUS_TEXT[status]}
        </span>
      </div>
      <div className="replay-row">
        <span
          className="replay-clock mono"
          data-testid="replay-clock"
          title={`${utcText(position, true)}: envelopes signed up to this time have been replayed`}
        >
          {now
            ? localText(position, { date: false, withMs: true, timeZone: zoneOption(choice) })
            : utcText(position, true)}
        </span>
        <div
          className="replay-progress"
          role="progressbar"
          aria-label="Position in the window"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(done * 100)}
        >
          <div style={{ width: `${(done * 100).toFixed(2)}%` }} />
        </div>
        <span className="small muted" data-testid="replay-count">
          {count(emitted)} <Term k="envelope">envelopes</Term>
        </span>
      </div>
      <div className="replay-row replay-buttons">
        <button
          type="button"
          onClick={controls.toggle}
          disabled={status === 'ended' || status === 'error'}
          data-testid="replay-toggle"
          aria-pressed={status !== 'paused'}
        >
          {status === 'paused' ? '▶ Play' : '❚❚ Pause'}
        </button>
        <button
          type="button"
          onClick={controls.stepEnvelope}
          disabled={status === 'ended'}
          data-testid="replay-step"
          title="pause and replay the next envelope only"
        >
          +1 envelope
        </button>
        <button
          type="button"
          onClick={controls.stepSecond}
          disabled={status === 'ended'}
          data-testid="replay-second"
          title="pause and replay one more second of envelope time"
        >
          +1 s
        </button>
        <SpeedSelect value={link.speed} onChange={controls.setSpeed} />
        <button
          type="button"
          onClick={copy}
          data-testid="replay-link"
          title="a link that opens the overview at this position, paused"
        >
          {copied ? 'Link copied' : 'Copy link'}
        </button>
        {status === 'ended' ? (
          <button type="button" onClick={() => controls.start({ ...link, atMs: link.fromMs }, false)}>
            Replay again
          </button>
        ) : null}
        <button type="button" className="primary" onClick={controls.stop} data-testid="replay-live">
          Back to live
        </button>
      </div>
      {status === 'ended' ? (
        <p className="small muted" data-testid="replay-ended">
          {emitted === 0
            ? 'No envelope was stored with a timestamp in this window.'
            : 'Every envelope of the window has been replayed.'}
        </p>
      ) : null}
      {error ? (
        <p className="small warn-text" role="alert">
          Replay stopped: {error}
        </p>
      ) : null}
    </section>
  );
}

function SpeedSelect({ value, onChange }: { value: ReplaySpeed; onChange: (s: ReplaySpeed) => void }) {
  return (
    <label title="envelope time per second of wall time">
      Speed{' '}
      <select
        value={value}
        onChange={(e) => onChange(Number(e.target.value) as ReplaySpeed)}
        data-testid="replay-speed"
      >
        {REPLAY_SPEEDS.map((s) => (
          <option key={s} value={s}>
            {s}×
          </option>
        ))}
      </select>
    </label>
  );
}
