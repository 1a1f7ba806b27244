/**
 * Which webhook URLs the observatory will call. A webhook is a request this server makes on a
 * stranger's behalf, so it must not reach this machine or its network: http/https only, and no
 * loopback, private, shared (CGNAT), link-local, unspecified, multicast or reserved address,
 * whether written in the URL or what its host name resolves to. The name is resolved when the
 * webhook is added AND at every send through {@link guardedLookup}, which is the lookup the
 * socket connects with, so a name that re-resolves to 127.0.0.1 later (DNS rebinding) is refused
 * at connect time. `allowPrivate` (ALERT_WEBHOOK_ALLOW_PRIVATE=1) lifts the address rule.
 */
import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96], ['100::', 64],
] as const) blocked.addSubnet(net, bits, 'ipv6');

/** True when `ip` (v4 or v6 text) is not a public unicast address. */
export function isBlockedAddress(ip: string): boolean {
  const v = isIP(ip);
  if (v === 4) return blocked.check(ip, 'ipv4');
  if (v !== 6) return true;
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1, ::127.0.0.1) is judged as the IPv4 one.
  const m = /^::(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (m) return blocked.check(m[1], 'ipv4');
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(ip);
  if (hex) {
    const a = parseInt(hex[1], 16), b = parseInt(hex[2], 16);
    return blocked.check(`${a >> 8}.${a & 255}.${b >> 8}.${b & 255}`, 'ipv4');
  }
  return blocked.check(ip, 'ipv6');
}

export type Resolver = (host: string) => Promise<string[]>;

/** Every address a host name resolves to (A and AAAA, as the OS resolver answers). */
export const systemResolver: Resolver = (host) => new Promise((resolve, reject) => {
  dnsLookup(host, { all: true, verbatim: true }, (err, addrs: LookupAddress[]) => (err ? reject(err) : resolve(addrs.map((a) => a.address))));
});

export interface UrlCheck { ok: true; url: URL } 
export interface UrlRefusal { ok: false; error: string }

/**
 * Checks a webhook URL: its form, then its host (an address, or a name whose every resolved
 * address must be public). Never throws; the refusal is a sentence naming the problem.
 */
export async function checkWebhookUrl(raw: unknown, opts: { allowPrivate: boolean; resolve?: Resolver }): Promise<UrlCheck | UrlRefusal> {
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, error: 'url: must be a non-empty string' };
  if (raw.length > 2_048) return { ok: false, error: 'url: longer than 2,048 characters' };
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return { ok: false, error: `url: not a URL (${JSON.stringify(raw.slice(0, 80))})` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return { ok: false, error: `url: only http and https webhooks are called (got ${u.protocol.replace(':', '')})` };
  if (u.username || u.password) return { ok: false, error: 'url: credentials in the URL are refused (use the secret for signing)' };
  if (opts.allowPrivate) return { ok: true, url: u };
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) {
    return isBlockedAddress(host) ? { ok: false, error: `url: ${host} is a loopback, private, link-local, multicast or otherwise non-public address` } : { ok: true, url: u };
  }
  if (/^localhost$|\.localhost$/i.test(host)) return { ok: false, error: `url: ${host} is this machine` };
  let addrs: string[];
  try {
    addrs = await (opts.resolve ?? systemResolver)(host);
  } catch (e) {
    return { ok: false, error: `url: ${host} does not resolve (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` };
  }
  if (addrs.length === 0) return { ok: false, error: `url: ${host} does not resolve` };
  const bad = addrs.find(isBlockedAddress);
  if (bad) return { ok: false, error: `url: ${host} resolves to ${bad}, a loopback, private, link-local, multicast or otherwise non-public address` };
  return { ok: true, url: u };
}

/**
 * A `lookup` for node:http(s) requests that refuses non-public addresses at connect time (see
 * the module comment); with `allowPrivate` it is the plain system lookup.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: { family?: number | string; all?: boolean } | number, cb: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void => {
    const opts = typeof options === 'number' ? { family: options } : options ?? {};
    dnsLookup(hostname, { all: true, verbatim: true, family: opts.family as 4 | 6 | undefined }, (err, addrs: LookupAddress[]) => {
      if (err) return cb(err, opts.all ? [] : '');
      const list = allowPrivate ? addrs : addrs.filter((a) => !isBlockedAddress(a.address));
      if (list.length === 0) {
        const e: NodeJS.ErrnoException = new Error(`${hostname} resolves only to non-public addresses (${addrs.map((a) => a.address).join(', ')}); refused`);
        e.code = 'EADDRNOTPUBLIC';
        return cb(e, opts.all ? [] : '');
      }
      if (opts.all) cb(null, list);
      else cb(null, list[0].address, list[0].family);
    });
  };
}
