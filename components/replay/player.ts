/**
 * The browser side of a replay: a clock over envelope time and a bounded buffer of keyset pages
 * from `/api/replay`. Pure (no DOM, no React, the fetch and the time source are injected), so it
 * is unit-tested on its own; components/replay/useReplay.ts drives it from a timer.
 *
 * The clock runs at `speed` × wall time from the window's start. `tick` hands out, in the
 * server's order, every buffered envelope whose timestamp the clock has reached; it never runs
 * ahead of the data: while the next page is still on its way the clock holds (and counts the time
 * as stalled), so a slow network slows the replay instead of skipping envelopes. At most
 * `maxPages` pages are held or in flight at once, whatever the window's size.
 */
import type { ReplayEvent } from '../../lib/wire/replay';

export const REPLAY_SPEEDS = [1, 2, 5, 10, 25, 100] as const;
/**
 * Envelopes per request (the route's cap) and pages held or in flight at most. Keyset pages come
 * one after another, so at 100× of a busy mesh (8,000 envelopes/s) the page size sets the round
 * trips needed per second: 8 of 1,000 leave each one 125 ms on a main thread busy with frames,
 * where pages of 500 needed 16 and the clock held for them.
 */
export const REPLAY_PAGE_SIZE = 1000;
export const REPLAY_MAX_PAGES = 4;
export type ReplaySpeed = (typeof REPLAY_SPEEDS)[number];

export interface ReplayPageData {
  events: ReplayEvent[];
  next: string | null;
}

/** Fetches the page after `after` (null: the window's first). */
export type ReplayFetch = (after: string | null, limit: number) => Promise<ReplayPageData>;

export interface ReplayPlayerOptions {
  fromMs: number;
  toMs: number;
  fetchPage: ReplayFetch;
  /** Envelopes per page (the route allows up to 1,000). */
  pageSize?: number;
  /** Pages held or in flight at most. */
  maxPages?: number;
  speed?: ReplaySpeed;
  /** Clock position to start from (envelopes up to it are handed out at the first ticks). */
  atMs?: number;
  /** Wall time now, ms (performance.now in the browser). */
  now: number;
}

export type ReplayStatus = 'playing' | 'paused' | 'buffering' | 'ended' | 'error';

/** The envelope timestamp of a replayed event in ms (µs in the event; fractional ms keep the order of µs). */
export const eventMs = (e: ReplayEvent): number => Number(e.data.timestamp) / 1000;

export class ReplayPlayer {
  readonly fromMs: number;
  readonly toMs: number;
  readonly pageSize: number;
  readonly maxPages: number;
  #fetch: ReplayFetch;
  #pages: ReplayEvent[][] = [];
  /** Index of the next event in the head page. */
  #head = 0;
  #cursor: string | null = null;
  #started = false;
  #more = true;
  #inflight = false;
  #error: string | null = null;
  #position: number;
  #lastNow: number;
  #paused = false;
  #speed: ReplaySpeed;
  #pendingSteps = 0;
  /**
   * After a step the clock sits on that envelope's time: its ties after it wait for the next step or for the clock to
   * move.
   */
  #stepHold = false;
  /** Envelopes handed out so far. */
  emitted = 0;
  /** Wall ms the clock held because the next page had not arrived while playing. */
  stalledMs = 0;
  /** Most envelopes held at once (the cap is maxPages × pageSize). */
  peakBuffered = 0;
  /** Pages fetched. */
  fetches = 0;
  /** The last envelope handed out. */
  last: ReplayEvent | null = null;

  constructor(o: ReplayPlayerOptions) {
    if (!(o.toMs >= o.fromMs)) throw new RangeError('replay window: from must be at or before to');
    this.fromMs = o.fromMs;
    this.toMs = o.toMs;
    this.pageSize = o.pageSize ?? 500;
    this.maxPages = Math.max(1, o.maxPages ?? 3);
    this.#fetch = o.fetchPage;
    this.#speed = o.speed ?? 1;
    this.#position = Math.min(o.toMs, Math.max(o.fromMs, o.atMs ?? o.fromMs));
    this.#lastNow = o.now;
    this.#fill();
  }

  /**
   * Clock position: envelope time, unix ms; every envelope at or before it has been handed out (or is about to be, at
   * the next tick).
   */
  get position(): number {
    return this.#position;
  }
  get speed(): ReplaySpeed {
    return this.#speed;
  }
  get paused(): boolean {
    return this.#paused;
  }
  get error(): string | null {
    return this.#error;
  }
  /** Envelopes held in the buffer now. */
  get buffered(): number {
    let n = -this.#head;
    for (const p of this.#pages) n += p.length;
    return n;
  }
  /** Most envelopes the buffer may hold. */
  get cap(): number {
    return this.maxPages * this.pageSize;
  }
  /** Every envelope of the window has been handed out. */
  get ended(): boolean {
    return !this.#more && !this.#inflight && this.buffered === 0 && this.#started;
  }

  get status(): ReplayStatus {
    if (this.#error) return 'error';
    if (this.ended) return 'ended';
    if (this.#paused) return 'paused';
    if (this.#waiting()) return 'buffering';
    return 'playing';
  }

  /** The next envelope is not here yet and may still come. */
  #waiting(): boolean {
    return this.buffered === 0 && (this.#more || this.#inflight);
  }

  #peek(): ReplayEvent | undefined {
    while (this.#pages.length && this.#head >= this.#pages[0].length) {
      this.#pages.shift();
      this.#head = 0;
    }
    return this.#pages[0]?.[this.#head];
  }

  /** Time of the last envelope buffered, null when none is. */
  #tailMs(): number | null {
    const p = this.#pages.at(-1);
    return p && p.length > (this.#pages.length === 1 ? this.#head : 0) ? eventMs(p[p.length - 1]) : null;
  }

  #take(): ReplayEvent {
    const e = this.#pages[0][this.#head++];
    this.emitted++;
    this.last = e;
    return e;
  }

  /** Fetches the next page when there is room: pages held plus the one in flight stay within maxPages. */
  #fill(): void {
    if (this.#inflight || !this.#more || this.#error) return;
    this.#peek();
    if (this.#pages.length + 1 > this.maxPages) return;
    this.#inflight = true;
    this.fetches++;
    const after = this.#started ? this.#cursor : null;
    this.#fetch(after, this.pageSize).then(
      (page) => {
        this.#inflight = false;
        this.#started = true;
        if (page.events.length) this.#pages.push(page.events);
        this.#cursor = page.next;
        this.#more = page.next !== null;
        this.peakBuffered = Math.max(this.peakBuffered, this.buffered);
        this.#fill();
      },
      (err: unknown) => {
        this.#inflight = false;
        this.#error = err instanceof Error ? err.message : String(err);
      },
    );
  }

  /**
   * Advances the clock to wall time `now` (unless paused or waiting for a page) and returns the
   * envelopes it reached, in order; also the envelopes a step asked for.
   */
  tick(now: number): ReplayEvent[] {
    const dt = Math.max(0, now - this.#lastNow);
    this.#lastNow = now;
    const out: ReplayEvent[] = [];
    while (this.#pendingSteps > 0 && this.#peek()) {
      const e = this.#take();
      this.#position = Math.max(this.#position, Math.min(this.toMs, eventMs(e)));
      this.#stepHold = true;
      out.push(e);
      this.#pendingSteps--;
    }
    if (!this.#pendingSteps) this.#drain(out);
    if (!this.#paused && !this.#error && dt > 0) {
      const next = this.#peek();
      if (!next && this.#waiting()) {
        // Not known how far the next envelope is: hold the clock rather than skip past it.
        this.stalledMs += dt;
      } else {
        // Not past the last envelope buffered while more may come: what lies beyond it is unknown.
        let target = Math.min(this.toMs, this.#position + dt * this.#speed);
        const tail = this.#tailMs();
        if ((this.#more || this.#inflight) && tail !== null && target > tail) {
          this.stalledMs += (target - Math.max(tail, this.#position)) / this.#speed;
          target = tail;
        }
        if (target > this.#position) this.#stepHold = false;
        this.#position = Math.max(this.#position, target);
        this.#drain(out);
      }
    }
    // Nothing is left to hand out: the rest of the window is empty, so the clock goes to its end.
    if (this.#pendingSteps === 0 && this.ended) {
      this.#position = this.toMs;
      this.#paused = true;
    }
    this.#fill();
    return out;
  }

  /** Hands out every buffered envelope at or before the clock; stops at a gap in the buffer. */
  #drain(out: ReplayEvent[]): void {
    // Envelopes of a page still on its way that the clock has passed come at a later tick, still
    // in order (a seek or a one-second step can move the clock past the buffer).
    for (
      let e = this.#peek();
      e && (eventMs(e) < this.#position || (eventMs(e) === this.#position && !this.#stepHold));
      e = this.#peek()
    )
      out.push(this.#take());
  }

  pause(): void {
    this.#paused = true;
  }
  play(now: number): void {
    this.#lastNow = now;
    this.#paused = false;
  }
  setSpeed(s: ReplaySpeed): void {
    this.#speed = s;
  }

  /** Pauses and hands out exactly the next envelope at the next tick (at once if it is buffered). */
  stepEnvelope(): void {
    this.#paused = true;
    this.#pendingSteps++;
  }

  /** Pauses and moves the clock one second of envelope time forward. */
  stepSecond(): void {
    this.#paused = true;
    this.#pendingSteps = 0;
    this.#stepHold = false;
    this.#position = Math.min(this.toMs, this.#position + 1000);
  }
}
