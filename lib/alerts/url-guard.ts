/**
 * Which webhook URLs the observatory will call. A webhook is a request this server makes on a
 * stranger's behalf, so it must not reach this machine or its network: http/https only, and only
 * public unicast addresses (lib/net/addresses.ts: every IPv4-in-IPv6 form decoded), whether
 * written in the URL or what its host name resolves to. The name is checked when the webhook is
 * added (a refusal is a sentence for the 400) AND at every send, where lib/net/outbound.ts
 * resolves it again, checks every address and connects to the checked one only (DNS rebinding
 * cannot switch it). `allowPrivate` (ALERT_WEBHOOK_ALLOW_PRIVATE=1) lifts the address rule.
 */
import { isIP } from 'node:net';
import { OutboundError, type Resolver, resolveChecked } from '../net/outbound';

export { isPublicAddress } from '../net/addresses';
export type { Resolver } from '../net/outbound';

export interface UrlCheck {
  ok: true;
  url: URL;
}
export interface UrlRefusal {
  ok: false;
  error: string;
}

/**
 * Checks a webhook URL: its form, then its host (an address, or a name whose every resolved
 * address must be public). Never throws; the refusal is a sentence naming the problem.
 */
export async function checkWebhookUrl(
  raw: unknown,
  opts: { allowPrivate: boolean; resolve?: Resolver },
): Promise<UrlCheck | UrlRefusal> {
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, error: 'url: must be a non-empty string' };
  if (raw.length > 2_048) return { ok: false, error: 'url: longer than 2,048 characters' };
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return { ok: false, error: `url: not a URL (${JSON.stringify(raw.slice(0, 80))})` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    return { ok: false, error: `url: only http and https webhooks are called (got ${u.protocol.replace(':', '')})` };
  if (u.username || u.password)
    return { ok: false, error: 'url: credentials in the URL are refused (use the secret for signing)' };
  if (opts.allowPrivate) return { ok: true, url: u };
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  if (/^localhost$|\.localhost$/i.test(host)) return { ok: false, error: `url: ${host} is this machine` };
  try {
    await resolveChecked(host, { allowPrivate: false, resolve: opts.resolve });
  } catch (e) {
    if (!(e instanceof OutboundError)) throw e;
    if (isIP(host))
      return {
        ok: false,
        error:
          `url: ${e.detail}; loopback, private, shared, link-local, multicast, reserved ` +
          `and other non-public addresses (also written inside IPv6) are refused`,
      };
    // One sentence whether the name is unknown or leads inside: which internal names exist, and
    // where they point, is not the caller's to learn.
    return {
      ok: false,
      error:
        `url: ${host} does not resolve to public addresses only; names ` +
        `that do not resolve or lead to a non-public address are refused`,
    };
  }
  return { ok: true, url: u };
}
