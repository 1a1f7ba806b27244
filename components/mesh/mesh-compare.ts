/**
 * First-hand vs reported: the envelope ids the browser's own mesh node saw on the gossip topics
 * and the ids the observer reported on its live stream, and which ones only one side has. An id
 * is flagged only after a grace period, since the two see the same gossip at slightly different
 * times; ids the observer reported before the browser joined are not counted against it.
 */
export interface SeenLog {
  browser: Map<string, number>;
  observer: Map<string, number>;
  joinedAt: number;
}

export interface Comparison {
  both: number;
  onlyBrowser: string[];
  onlyObserver: string[];
}

export function compareSeen(s: SeenLog, now: number, graceMs = 10_000): Comparison {
  let both = 0;
  const onlyBrowser: string[] = [];
  const onlyObserver: string[] = [];
  for (const [id, t] of s.browser) {
    if (s.observer.has(id)) both++;
    else if (now - t > graceMs) onlyBrowser.push(id);
  }
  for (const [id, t] of s.observer) {
    if (!s.browser.has(id) && t >= s.joinedAt + graceMs && now - t > graceMs) onlyObserver.push(id);
  }
  return { both, onlyBrowser, onlyObserver };
}
