/**
 * The patch to @libp2p/webrtc (patches/@libp2p+webrtc+*.patch): when a browser dials another
 * over WebRTC, the dialler creates an 'init' data channel so the peer connection has something
 * to negotiate, and closes it once connected. The answering side closes its end as soon as its
 * muxer adopts the channel, which on a busy machine is before the dialler has looked at it: the
 * channel is then already "closing" or "closed" there, its "open" and "close" events are past,
 * and the unpatched dialler waited for one of them until its 20 s dial budget ran out (while the
 * answering side had already upgraded the connection and timed out its identify stream).
 * `closeInitChannel` reads readyState before waiting for any event. Without the patch the module
 * does not exist and this file fails; the two-browser e2e (e2e/demo/browser-webrtc.ts) is the
 * same race between real Chromium peers.
 */

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import { closeInitChannel } from '../../node_modules/@libp2p/webrtc/dist/src/private-to-private/init-channel.js';

type State = RTCDataChannelState;

/** The part of RTCDataChannel the function touches; close() only starts closing, as in browsers. */
class FakeChannel extends EventTarget {
  closeCalls = 0;
  constructor(public readyState: State) {
    super();
  }
  close(): void {
    this.closeCalls++;
    if (this.readyState === 'connecting' || this.readyState === 'open') this.readyState = 'closing';
  }
  /** The remote end of a closed stream finished the SCTP reset: the channel is closed here. */
  finishClose(): void {
    this.readyState = 'closed';
    this.dispatchEvent(new Event('close'));
  }
  open(): void {
    this.readyState = 'open';
    this.dispatchEvent(new Event('open'));
  }
}

const run = (ch: FakeChannel, signal?: AbortSignal) => {
  let settled = false;
  const p = closeInitChannel(ch as unknown as RTCDataChannel, { signal }).finally(() => {
    settled = true;
  });
  return { p, settled: () => settled };
};

describe('@libp2p/webrtc patch: the dialler closes its init channel whatever state the remote left it in', () => {
  test('already closed by the remote (its "close" event is past): resolves without waiting for an event', async () => {
    const ch = new FakeChannel('closed');
    await closeInitChannel(ch as unknown as RTCDataChannel);
    assert.equal(ch.closeCalls, 0);
  });

  test(
    'closing because the remote closed first: waits for ' + '"close" only, not for an "open" that will never come',
    async () => {
      const ch = new FakeChannel('closing');
      const r = run(ch);
      await tick();
      assert.equal(r.settled(), false, 'returned before the channel closed');
      ch.finishClose();
      await r.p;
      assert.equal(ch.closeCalls, 0);
    },
  );

  test('open: closes it and resolves once it is closed', async () => {
    const ch = new FakeChannel('open');
    const r = run(ch);
    await tick();
    assert.equal(ch.closeCalls, 1);
    assert.equal(ch.readyState, 'closing');
    assert.equal(r.settled(), false);
    ch.finishClose();
    await r.p;
  });

  test('still connecting: waits for "open", then closes it', async () => {
    const ch = new FakeChannel('connecting');
    const r = run(ch);
    await tick();
    assert.equal(ch.closeCalls, 0);
    ch.open();
    await tick();
    assert.equal(ch.closeCalls, 1);
    assert.equal(r.settled(), false);
    ch.finishClose();
    await r.p;
  });

  test('still connecting and the remote closes it before it opened here: resolves on "close"', async () => {
    const ch = new FakeChannel('connecting');
    const r = run(ch);
    await tick();
    ch.finishClose();
    await r.p;
    assert.equal(ch.closeCalls, 0);
  });

  test("a channel that never closes still ends with the dial's signal", async () => {
    const ch = new FakeChannel('open');
    const ac = new AbortController();
    const r = run(ch, ac.signal);
    await tick();
    ac.abort(new Error('dial budget spent'));
    await assert.rejects(r.p, /dial budget spent/);
  });
});
