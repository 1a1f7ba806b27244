/**
 * NODE-ONLY (server): what web3.js's Connection does not say about its account subscriptions.
 *
 * A change made between a first read and its subscription being confirmed by the server sends no
 * notification. web3.js's own confirmTransaction closes that gap by waiting for the subscription's
 * state to become `subscribed` (an internal hook) and then reading once more; the registry does the
 * same with {@link whenSubscribed}.
 */
import type { Connection } from '@solana/web3.js';
import type { RawAccount } from '../sati';

interface SubscriptionInternals {
  _subscriptionHashByClientSubscriptionId?: Record<number, string>;
  _subscriptionsByHash?: Record<string, { state?: string } | undefined>;
  _onSubscriptionStateChange?: (id: number, cb: (state: string) => void) => () => void;
}

/**
 * Resolves once the server has confirmed each of `ids` (web3.js client subscription ids), or after
 * `maxMs`. A Connection without the hook resolves at once (the caller's re-read is then merely early).
 */
export function whenSubscribed(connection: Connection, ids: readonly number[], maxMs = 10_000): Promise<void> {
  const c = connection as unknown as SubscriptionInternals;
  const byId = c._subscriptionHashByClientSubscriptionId;
  const byHash = c._subscriptionsByHash;
  if (!c._onSubscriptionStateChange || !byId || !byHash) return Promise.resolve();
  const hook = c._onSubscriptionStateChange.bind(connection);
  const one = (id: number) =>
    new Promise<void>((resolve) => {
      const hash = byId[id];
      if (hash === undefined || byHash[hash]?.state === 'subscribed') return resolve();
      const timer = setTimeout(done, maxMs);
      timer.unref?.();
      const off = hook(id, (state) => {
        if (state === 'subscribed' || state === 'unsubscribed') done();
      });
      function done() {
        clearTimeout(timer);
        off();
        resolve();
      }
    });
  return Promise.all(ids.map(one)).then(() => undefined);
}

/** Same lamports, owner and bytes. */
export function sameAccount(a: RawAccount, b: RawAccount): boolean {
  if ((a.lamports ?? 0) !== (b.lamports ?? 0) || !a.owner.equals(b.owner) || a.data.length !== b.data.length)
    return false;
  for (let i = 0; i < a.data.length; i++) if (a.data[i] !== b.data[i]) return false;
  return true;
}
