import assert from 'node:assert/strict';
import { test } from 'node:test';
import { publicKeyFromSeed } from '../protocol/crypto';
import { toHex } from '../protocol/hex';
import { validateEnvelopeSync } from '../protocol/validate';
import { FAULT_REASONS, makeFault } from './faults';

test('each fault fails validation with exactly its reason code', () => {
  const seed = new Uint8Array(32).fill(5);
  const agentId = new Uint8Array(32).fill(6);
  const pk = publicKeyFromSeed(seed);
  const registry = { keysFor: (id: Uint8Array) => (toHex(id) === toHex(agentId) ? [pk] : []) };
  const nowUs = 1_700_000_000_000_000n;
  for (const reason of FAULT_REASONS) {
    const nonces = new Map([[toHex(agentId), 10n]]);
    const bytes = makeFault(reason, {
      seed,
      agentId,
      nonce: 11n,
      staleNonce: 10n,
      nowUs,
      random: new Uint8Array(32).fill(7),
    });
    const r = validateEnvelopeSync(bytes, { mode: 'live', registry, nonces, nowUs });
    assert.equal(r.ok ? 'valid' : r.reason, reason);
  }
  assert.throws(
    () => makeFault('nope' as never, { seed, agentId, nonce: 1n, staleNonce: 0n, nowUs, random: new Uint8Array(32) }),
    /reason/,
  );
});
