// A wallet's signed message buys one action, forever: after its first use, every spelling of the
// same signature (hex, upper-case hex, base64, base64url, unpadded, space-padded base58) is
// refused, for binding and for finding the list by wallet alike, and still after the store and
// the service are reopened on the same database (a restart). A new watchlist starts within every
// cap, ALERT_MAX_RULES included.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import bs58 from 'bs58';
import { ed25519Sign, publicKeyFromSeed } from '../protocol/crypto';
import { openStore, type Store } from '../store';
import { AlertsError, createAlertService, DEFAULT_CAPS, walletMessage } from './service';

const SEED = new Uint8Array(32).fill(5);
const WALLET = bs58.encode(publicKeyFromSeed(SEED));
const sign = (m: string) => ed25519Sign(new TextEncoder().encode(m), SEED);

/** The attacker's re-spellings of one signature. */
function spellings(sig: Uint8Array): string[] {
  const b = Buffer.from(sig);
  return [
    b.toString('hex'),
    b.toString('hex').toUpperCase(),
    b.toString('base64'),
    b.toString('base64url'),
    b.toString('base64').replace(/=+$/, ''),
    ` ${bs58.encode(sig)} `,
    bs58.encode(sig),
  ];
}

const service = (store: Store, rules = DEFAULT_CAPS.rules) =>
  createAlertService({
    store: store.alerts,
    signatures: store.usedSignatures,
    caps: { ...DEFAULT_CAPS, rules },
    allowPrivateWebhooks: false,
  });

async function refusal(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    assert.ok(e instanceof AlertsError, String(e));
    return e.status;
  }
}

test('a signed message is used once in any spelling, and stays used after a restart on the same database', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'zx-signed-once-'));
  try {
    let store = await openStore({ dataDir: dir });
    let svc = service(store);
    const { id, token } = await svc.create();
    const bindMsg = walletMessage(id, WALLET, new Date());
    const bindSig = sign(bindMsg);
    const bind = (signature: string) =>
      refusal(svc.bindWallet(id, token, { address: WALLET, message: bindMsg, signature }));
    assert.equal(await bind(bs58.encode(bindSig)), 200);
    const again = await Promise.all(spellings(bindSig).map(bind));
    assert.ok(
      again.every((s) => s === 409 || s === 400),
      `re-spellings after the first use: ${again.join(' ')}`,
    );
    assert.deepEqual(
      again.filter((s) => s === 409).length,
      3,
      'the canonical hex, base64 and base58 are recognised as the same, used signature',
    );

    const adoptMsg = walletMessage('*', WALLET, new Date());
    const adoptSig = sign(adoptMsg);
    const adopt = (signature: string) => refusal(svc.byWallet({ address: WALLET, message: adoptMsg, signature }));
    const first = await svc.byWallet({
      address: WALLET,
      message: adoptMsg,
      signature: Buffer.from(adoptSig).toString('base64'),
    });
    assert.equal(first.id, id);
    const tokens = await Promise.all(spellings(adoptSig).map(adopt));
    assert.ok(
      tokens.every((s) => s !== 200),
      `no second token from one signed message: ${tokens.join(' ')}`,
    );

    // Two uses at once: one wins.
    const raceMsg = walletMessage('*', WALLET, new Date(Date.now() - 1000));
    const raceSig = bs58.encode(sign(raceMsg));
    const race = await Promise.all(
      [0, 1, 2, 3].map(() => refusal(svc.byWallet({ address: WALLET, message: raceMsg, signature: raceSig }))),
    );
    assert.deepEqual(race.sort(), [200, 409, 409, 409]);

    // A restart: a new store and service on the same directory.
    await store.close();
    store = await openStore({ dataDir: dir });
    svc = service(store);
    try {
      assert.equal(
        await refusal(svc.byWallet({ address: WALLET, message: adoptMsg, signature: bs58.encode(adoptSig) })),
        409,
        'used before the restart',
      );
      assert.equal(
        await refusal(
          svc.bindWallet(id, token, {
            address: WALLET,
            message: bindMsg,
            signature: Buffer.from(bindSig).toString('hex'),
          }),
        ),
        409,
      );
      const fresh = walletMessage('*', WALLET, new Date(Date.now() + 1000));
      assert.equal(
        (await svc.byWallet({ address: WALLET, message: fresh, signature: bs58.encode(sign(fresh)) })).id,
        id,
        'a fresh signature still works',
      );
    } finally {
      await store.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a new watchlist starts with at most ALERT_MAX_RULES rules on', async () => {
  const store = await openStore({ dataDir: ':memory:' });
  try {
    for (const cap of [1, 3, 20]) {
      const svc = service(store, cap);
      const { id, token } = await svc.create();
      const on = (await svc.get(id, token)).rules.filter((r) => r.enabled).map((r) => r.kind);
      assert.deepEqual(
        on,
        ['offline', 'lease_grace', 'deactivated', 'batch_missing', 'challenged', 'slashed'].slice(0, cap),
        `cap ${cap}`,
      );
    }
  } finally {
    await store.close();
  }
});
