/**
 * Which IP addresses the server may contact on someone else's behalf: public unicast only.
 *
 * IPv4: everything but the special-purpose ranges (this network, private, shared/CGNAT, loopback,
 * link-local, IETF protocol assignments, documentation, benchmarking, the 6to4 relay anycast,
 * multicast, reserved and broadcast). IPv6: only global unicast (2000::/3) minus its documentation,
 * benchmarking, ORCHID, Teredo-reserved and 6to4-relay blocks, and never the local-use NAT64 prefix.
 * An IPv6 address that carries an IPv4 address (IPv4-mapped, IPv4-compatible, SIIT-translated,
 * NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo 2001::/32, ISATAP interface ids) is judged by the
 * IPv4 it carries as well: the packets end up there. Ranges are held in node's `net.BlockList`;
 * text is turned into bytes by the WHATWG URL parser (the same one `new URL` uses for hosts), so
 * every spelling of an address reaches the same verdict.
 */
import { BlockList, isIP } from 'node:net';

const v4 = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  v4.addSubnet(net, bits, 'ipv4');

/**
 * Inside 2000::/3 but not public: documentation (2001:db8::/32, 3fff::/20), benchmarking, ORCHID, the IETF block, 6to4
 * relays.
 */
const v6 = new BlockList();
for (const [net, bits] of [
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002:c058:6300::', 40],
  ['3fff::', 20],
] as const)
  v6.addSubnet(net, bits, 'ipv6');
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/** 16 bytes of an IPv6 address in any spelling the URL parser accepts; null when it is not one. */
export function ipv6Bytes(ip: string): Uint8Array | null {
  let host: string;
  try {
    // The URL parser canonicalises: lower-case hex, no dotted quad, the longest zero run as "::".
    host = new URL(`http://[${ip}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head, tail] = host.includes('::') ? host.split('::') : [host, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  if (groups.length !== 8) return null;
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    out[2 * i] = n >> 8;
    out[2 * i + 1] = n & 255;
  });
  return out;
}

const dotted = (b: Uint8Array, at: number, xor = 0) => [0, 1, 2, 3].map((i) => (b[at + i] ^ xor) & 255).join('.');
const zero = (b: Uint8Array, from: number, to: number) => b.subarray(from, to).every((x) => x === 0);

/**
 * IPv6 forms that are only another way of writing an IPv4 destination (::/96, ::ffff:0:0/96, ::ffff:0:0:0/96,
 * 64:ff9b::/96).
 */
function standsForIPv4(b: Uint8Array): boolean {
  if (zero(b, 0, 10) && ((b[10] === 0 && b[11] === 0) || (b[10] === 0xff && b[11] === 0xff))) return true;
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) return true;
  return b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(b, 4, 12);
}

/** The IPv4 addresses an IPv6 address carries (empty for a plain IPv6 address). */
export function embeddedIPv4(b: Uint8Array): string[] {
  const out: string[] = [];
  // ::a.b.c.d (compatible, also :: and ::1), ::ffff:a.b.c.d (mapped), ::ffff:0:a.b.c.d (translated).
  if (zero(b, 0, 10) && ((b[10] === 0 && b[11] === 0) || (b[10] === 0xff && b[11] === 0xff))) out.push(dotted(b, 12));
  if (zero(b, 0, 8) && b[8] === 0xff && b[9] === 0xff && b[10] === 0 && b[11] === 0) out.push(dotted(b, 12));
  // NAT64 well-known prefix 64:ff9b::/96.
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(b, 4, 12)) out.push(dotted(b, 12));
  // 6to4 2002:aabb:ccdd::/48.
  if (b[0] === 0x20 && b[1] === 0x02) out.push(dotted(b, 2));
  // Teredo 2001:0::/32: the server in bits 32-63, the client (bit-inverted) in the last 32.
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) out.push(dotted(b, 4), dotted(b, 12, 0xff));
  // ISATAP interface identifier ::0:5efe:a.b.c.d or ::200:5efe:a.b.c.d under any prefix.
  if ((b[8] === 0 || b[8] === 2) && b[9] === 0 && b[10] === 0x5e && b[11] === 0xfe) out.push(dotted(b, 12));
  return out;
}

/**
 * Why `ip` must not be contacted, or null when it is a public unicast address. A text that is no
 * IP address at all is refused too (the caller resolves names first).
 */
export function refusedAddress(ip: string): string | null {
  const bare = ip.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(bare);
  if (family === 4) return v4.check(bare, 'ipv4') ? `${bare} is not a public address` : null;
  const b = family === 6 ? ipv6Bytes(bare) : null;
  if (!b) return `${bare.slice(0, 60)} is not an IP address`;
  // Local-use NAT64 (64:ff9b:1::/48) translates into the operator's own network.
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && b[4] === 0 && b[5] === 1)
    return `${bare} is not a public address (local-use NAT64)`;
  const inner = embeddedIPv4(b);
  const bad = inner.find((a) => v4.check(a, 'ipv4'));
  if (bad) return `${bare} carries ${bad}, not a public address`;
  // Mapped, compatible, translated and well-known NAT64 addresses stand for their (public) IPv4.
  if (standsForIPv4(b)) return null;
  if (!globalUnicast.check(bare, 'ipv6') || v6.check(bare, 'ipv6')) return `${bare} is not a public address`;
  return null;
}

/** True when `ip` is a public unicast address the server may contact. */
export const isPublicAddress = (ip: string): boolean => refusedAddress(ip) === null;
