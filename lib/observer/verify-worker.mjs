// Ed25519 signature checks for lib/observer/verify-pool.ts, in a worker thread. Plain
// JavaScript on purpose: it runs under any loader the server runs under. libsodium's
// crypto_sign_verify_detached is strict RFC 8032 verification, as lib/protocol's sodium backend.
//
// A request is { seq, buf, n }: n items packed in buf, each u32 message length, message,
// 64-byte signature, u16 key count, 32 bytes per key. The reply is { seq, out }: one byte per
// item, 1 when the signature verifies under one of its keys.
import { parentPort } from 'node:worker_threads';
import sodium from 'sodium-native';

parentPort.on('message', ({ seq, buf, n }) => {
  const u8 = new Uint8Array(buf);
  const dv = new DataView(buf);
  const out = new Uint8Array(n);
  let o = 0;
  for (let i = 0; i < n; i++) {
    const len = dv.getUint32(o);
    const msg = u8.subarray(o + 4, o + 4 + len);
    o += 4 + len;
    const sig = u8.subarray(o, o + 64);
    o += 64;
    const keys = dv.getUint16(o);
    o += 2;
    let ok = false;
    for (let k = 0; k < keys && !ok; k++) {
      try {
        ok = sodium.crypto_sign_verify_detached(sig, msg, u8.subarray(o + 32 * k, o + 32 * k + 32));
      } catch {
        ok = false;
      }
    }
    o += 32 * keys;
    out[i] = ok ? 1 : 0;
  }
  parentPort.postMessage({ seq, out }, [out.buffer]);
});
