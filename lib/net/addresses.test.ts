// Which addresses the server may contact for strangers: public unicast only, with every form that
// writes an IPv4 address inside an IPv6 one decoded and judged by the IPv4 it carries.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { embeddedIPv4, ipv6Bytes, isPublicAddress, refusedAddress } from './addresses';

/** Every spelling below must be refused: each reaches this machine or a private network. */
const INSIDE = [
  // IPv4 special-purpose ranges.
  '127.0.0.1',
  '127.255.255.254',
  '10.1.2.3',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '100.64.0.1',
  '100.127.255.255',
  '169.254.169.254',
  '0.0.0.0',
  '0.1.2.3',
  '192.0.0.8',
  '192.0.2.1',
  '198.18.0.1',
  '198.51.100.7',
  '203.0.113.9',
  '192.88.99.1',
  '224.0.0.1',
  '239.255.255.250',
  '240.0.0.1',
  '255.255.255.255',
  // IPv6 loopback, unspecified, unique-local, link-local, site-local, multicast, documentation, discard.
  '::1',
  '::',
  'fc00::1',
  'fd12:3456::1',
  'fe80::1',
  'febf::1',
  'fec0::1',
  'ff02::1',
  'ff05::2',
  '2001:db8::1',
  '3fff::1',
  '100::1',
  // IPv4-mapped, -compatible and SIIT-translated, in hex and dotted spellings.
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::127.0.0.1',
  '::7f00:1',
  '::ffff:0:127.0.0.1',
  '::ffff:0:7f00:1',
  '0:0:0:0:0:ffff:127.0.0.1',
  '::ffff:169.254.169.254',
  // NAT64: the well-known prefix carrying a private IPv4, and the local-use prefix whatever it carries.
  '64:ff9b::127.0.0.1',
  '64:ff9b::a00:1',
  '64:ff9b:1::7f00:1',
  '64:ff9b:1::808:808',
  // 6to4 carrying loopback or private; Teredo with a private server or client (client bits inverted).
  '2002:7f00:1::1',
  '2002:a00:1::',
  '2002:c0a8:101::1',
  '2001:0:7f00:1::1',
  '2001:0:808:808::80ff:fffe',
  // ISATAP interface ids carrying loopback under a public-looking prefix.
  '2600::5efe:7f00:1',
  '2600::200:5efe:a00:1',
  // Outside global unicast altogether.
  '4000::1',
  'e000::1',
  // Not an address.
  'example.org',
  '',
  'fe80::1%eth0',
];

const OUTSIDE = [
  '93.184.216.34',
  '8.8.8.8',
  '1.1.1.1',
  '172.32.0.1',
  '100.128.0.1',
  '11.0.0.1',
  '2606:4700::1111',
  '2a00:1450::1',
  '::ffff:8.8.8.8',
  '64:ff9b::808:808',
  '2002:808:808::1',
];

test('every private, loopback and reserved form is refused, IPv4 inside IPv6 included', () => {
  for (const ip of INSIDE) assert.notEqual(refusedAddress(ip), null, `${ip} must be refused`);
  for (const ip of OUTSIDE) assert.equal(refusedAddress(ip), null, `${ip} is public`);
  assert.equal(isPublicAddress('[::ffff:127.0.0.1]'), false, 'bracketed as in a URL');
  assert.match(refusedAddress('::ffff:0:127.0.0.1') ?? '', /carries 127\.0\.0\.1/);
});

test('IPv6 text to bytes goes through the URL parser: every spelling is the same address', () => {
  const a = ipv6Bytes('::ffff:127.0.0.1');
  assert.deepEqual(a, ipv6Bytes('0:0:0:0:0:FFFF:7F00:0001'));
  assert.deepEqual([...a!], [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 127, 0, 0, 1]);
  assert.equal(ipv6Bytes('not:an:address::x'), null);
  assert.deepEqual(
    embeddedIPv4(ipv6Bytes('2001:0:4136:e378:8000:63bf:3fff:fdd2')!),
    ['65.54.227.120', '192.0.2.45'],
    'Teredo example of RFC 4380',
  );
  assert.deepEqual(embeddedIPv4(ipv6Bytes('2606:4700::1111')!), []);
});
