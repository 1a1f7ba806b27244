/**
 * One process of the `releases` role for server/leadership.test.ts: opens the store at argv[2],
 * writes dataset releases into argv[3] while it leads (lib/store/leader/leader.ts), and tells the parent
 * over IPC when it leads and what it released, so the parent can kill it mid-work. Each release
 * reads its snapshot watermark `argv[4]` ms late (a busy database), so writing the releases takes
 * long enough for a kill to land in the middle of one.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ReleaseStore } from '../lib/export/release';
import { startReleaseScheduler } from '../lib/export/release-scheduler';
import { EPOCH_SECONDS } from '../lib/export/testing';
import { lead, openStore } from '../lib/store';

const [url, dir, delayArg] = process.argv.slice(2);
const delayMs = Number(delayArg ?? 0);
const send = (m: Record<string, unknown>) => process.send?.({ pid: process.pid, at: Date.now(), ...m });
const store = await openStore({ databaseUrl: url, epochSeconds: EPOCH_SECONDS, poolSize: 2 });

/** `target` with `name` answering `delayMs` late. */
function late<T extends object>(target: T, name: string, wrap: (v: unknown) => unknown): T {
  return new Proxy(target, {
    get(t, k) {
      const v = Reflect.get(t, k, t);
      if (typeof v !== 'function') return v;
      return k === name ? wrap(v.bind(t)) : v.bind(t);
    },
  });
}
const slowStore: ReleaseStore = late(
  store,
  'exportSource',
  (exportSource) =>
    (...a: unknown[]) =>
      late((exportSource as (...x: unknown[]) => object)(...a), 'seqWatermark', (seq) => async (...b: unknown[]) => {
        await sleep(delayMs);
        return (seq as (...x: unknown[]) => unknown)(...b);
      }),
);

const leader = lead({
  role: 'releases',
  url,
  start: () =>
    startReleaseScheduler({
      store: slowStore,
      dir,
      firstCheckMs: 0,
      everyMs: 300,
      onRelease: (m) => send({ released: `${m.epoch}/${m.revision}` }),
      onError: (e, epoch) => send({ error: `${epoch}: ${e instanceof Error ? e.message : String(e)}` }),
    }),
});
send({ ready: true });
void leader.whenLeading().then(() => send({ leading: true }));
process.on('disconnect', () => {
  void leader
    .stop()
    .then(() => store.close())
    .finally(() => process.exit(0));
});
