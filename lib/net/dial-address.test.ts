// A registered mesh endpoint is dialled only at a checked address: private forms refused, names
// resolved once and replaced by the checked address, shapes that cannot be pinned refused.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkDialAddress } from './dial-address';
import { OutboundError } from './outbound';

const PEER = '12D3KooWQYhTNQdmr3ArTeUHRYzFg94BKyTkoWBDWez9kSCVe2Xo';
const kind = async (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => (e instanceof OutboundError ? e.kind : String(e)),
  );

test('private mesh endpoints are refused on a cluster, in every spelling and behind names', async () => {
  const pub = { allowPrivate: false };
  for (const a of [
    `/ip4/127.0.0.1/tcp/1/p2p/${PEER}`,
    `/ip4/10.0.0.5/tcp/4001`,
    `/ip6/::1/tcp/4001/ws`,
    `/ip6/::ffff:127.0.0.1/tcp/4001`,
    `/ip6/64:ff9b:1::a00:1/tcp/4001`,
    `/ip6/2002:7f00:1::1/tcp/4001/p2p/${PEER}`,
    `/ip4/169.254.169.254/tcp/80`,
  ]) {
    assert.equal(await kind(checkDialAddress(a, pub)), 'private_address', a);
  }
  assert.equal(
    await kind(
      checkDialAddress(`/dns4/mesh.agent.invalid/tcp/4001/p2p/${PEER}`, {
        ...pub,
        resolve: async () => ['93.184.216.34', '10.1.1.1'],
      }),
    ),
    'private_address',
  );
  assert.equal(
    await kind(
      checkDialAddress(`/dns4/mesh.agent.invalid/tcp/4001`, {
        ...pub,
        resolve: async () => {
          throw Object.assign(new Error('x'), { code: 'ENOTFOUND' });
        },
      }),
    ),
    'unresolved',
  );
});

test('a public endpoint is rewritten to the checked address; unpinnable shapes are refused', async () => {
  const resolve = async () => ['93.184.216.34'];
  assert.equal(
    await checkDialAddress(`/dns4/mesh.agent.invalid/tcp/4001/ws/p2p/${PEER}`, { allowPrivate: false, resolve }),
    `/ip4/93.184.216.34/tcp/4001/ws/p2p/${PEER}`,
  );
  assert.equal(
    await checkDialAddress(`/dns/m.invalid/tcp/4001/p2p/${PEER}`, {
      allowPrivate: false,
      resolve: async () => ['2606:4700::1111'],
    }),
    `/ip6/2606:4700::1111/tcp/4001/p2p/${PEER}`,
  );
  assert.equal(
    await checkDialAddress(`/ip4/8.8.8.8/tcp/4001/p2p/${PEER}/p2p-circuit/p2p/${PEER}`, { allowPrivate: false }),
    `/ip4/8.8.8.8/tcp/4001/p2p/${PEER}/p2p-circuit/p2p/${PEER}`,
  );
  for (const a of [
    `/dnsaddr/bootstrap.invalid/p2p/${PEER}`,
    '/ip4/8.8.8.8/udp/4001/quic-v1',
    `/dns4/m.invalid/tcp/443/wss/p2p/${PEER}`,
    '/ip4/8.8.8.8/tcp/99999',
    '/ip4/::1/tcp/1',
    '/unix/tmp/x',
  ]) {
    assert.equal(await kind(checkDialAddress(a, { allowPrivate: false, resolve })), 'unsupported', a);
  }
  // The embedded demo (its agents listen on loopback) allows private addresses.
  assert.equal(
    await checkDialAddress(`/ip4/127.0.0.1/tcp/4001/p2p/${PEER}`, { allowPrivate: true }),
    `/ip4/127.0.0.1/tcp/4001/p2p/${PEER}`,
  );
});
