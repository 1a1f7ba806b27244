/**
 * `npm run bench:protocol`: validated envelopes per second on one core (300-byte payloads,
 * live mode, sync registry) beside plain Ed25519 verifications per second of the same
 * signatures, for every Ed25519 backend, and their ratio (target >= 0.85). Also keccak256.
 */
import { buildEnvelope, signingPreimage } from './envelope';
import { validateEnvelopeSync } from './validate';
import { ed25519Backends, setEd25519Backend, ed25519Backend, publicKeyFromSeed, keccak256, keccak256Noble } from './crypto';
import { toHex } from './hex';
import { MsgType } from './types';

const N = 2000;
const seed = new Uint8Array(32).fill(42);
const agent = new Uint8Array(32).fill(7);
const pk = publicKeyFromSeed(seed);
const NOW = 1_790_000_000_000_000n;
const payload = Uint8Array.from({ length: 300 }, (_, i) => (i * 13) & 0xff);
const built = Array.from({ length: N }, (_, i) => buildEnvelope({
  msgType: MsgType.DELIVER, sender: agent, recipient: new Uint8Array(32).fill(8), timestamp: NOW, blockRef: 1n,
  nonce: BigInt(i + 1), conversationId: new Uint8Array(16).fill(i & 0xff), payload,
}, seed));
const keys = new Map([[toHex(agent), [pk]]]);
const registry = { keysFor: (id: Uint8Array) => keys.get(toHex(id)) ?? [] };
const pre = built.map((b) => signingPreimage(b.envelope));

/** CPU microseconds of this process (robust to other processes sharing the 2 cores). */
function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/**
 * Runs `a` and `b` in alternating blocks of `block` operations for `totalMs` of CPU time and
 * returns each one's rate per CPU second. Interleaving makes both see the same machine state.
 */
function paired(a: (i: number) => void, b: (i: number) => void, block: number, totalMs: number): [number, number] {
  let ta = 0, tb = 0, na = 0, nb = 0;
  while (ta + tb < totalMs * 1000) {
    let t = cpuUs();
    for (let k = 0; k < block; k++) a(na++ % N);
    ta += cpuUs() - t;
    t = cpuUs();
    for (let k = 0; k < block; k++) b(nb++ % N);
    tb += cpuUs() - t;
  }
  return [(na / ta) * 1e6, (nb / tb) * 1e6];
}
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

console.log(`lib/protocol bench: ${N} distinct envelopes of ${built[0].bytes.length} bytes (300-byte payload), one core, rates per CPU-second`);
const results: { name: string; verify: number; validate: number }[] = [];
const original = ed25519Backend().name;
for (const b of ed25519Backends) {
  setEd25519Backend(b.name);
  const slow = b.name === '@noble/curves';
  let nonces = new Map<string, bigint>();
  const [verify, validate] = paired(
    (i) => { if (!b.verify(built[i].envelope.signature, pre[i], pk)) throw new Error('verify failed'); },
    (i) => {
      if (i === 0) nonces = new Map();
      const r = validateEnvelopeSync(built[i].bytes, { mode: 'live', registry, nonces, nowUs: NOW });
      if (!r.ok) throw new Error(`validation failed: ${r.reason}`);
    },
    slow ? 10 : 200, slow ? 1500 : 4000,
  );
  const r = { name: b.name, verify, validate };
  results.push(r);
  console.log(`${b.name.padEnd(14)} plain Ed25519 verify: ${fmt(r.verify).padStart(7)}/s   full validation: ${fmt(r.validate).padStart(7)}/s   ratio ${(r.validate / r.verify).toFixed(3)}`);
}
setEd25519Backend(original);
const chosen = results.find((r) => r.name === original)!;
const [kw, kn] = paired((i) => keccak256(built[i].envelope.payload), (i) => keccak256Noble(built[i].envelope.payload), 200, 1000);
console.log(`keccak256 300 B: hash-wasm ${fmt(kw)}/s, @noble/hashes ${fmt(kn)}/s`);
console.log(`default backend: ${chosen.name} (fastest measured; all backends agree on the vectors)`);
console.log(`validated envelopes/s: ${fmt(chosen.validate)}  plain verifications/s: ${fmt(chosen.verify)}  ratio: ${(chosen.validate / chosen.verify).toFixed(3)} (target >= 0.85: ${chosen.validate / chosen.verify >= 0.85 ? 'met' : 'NOT met'})`);
