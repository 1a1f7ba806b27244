/**
 * The mesh endpoint a stranger registered (a SATI registration file's `zerox1-mesh` multiaddr),
 * checked before the observer dials it, with the same rule as every other outbound request
 * (lib/net/outbound.ts): the host resolved, every address checked, and the multiaddr rewritten to
 * the checked address so the dial cannot be steered elsewhere by a second resolution.
 *
 * Accepted: `/ip4|ip6|dns|dns4|dns6/<host>/tcp/<port>` then optionally `/ws`, then optionally
 * `/p2p/<peer id>` and `/p2p-circuit/p2p/<peer id>` (a relayed dial connects only to the first
 * hop, which is the checked one). Refused: anything else (dnsaddr, whose TXT records name further
 * addresses; QUIC, WebRTC and other transports), and TLS WebSockets to a name, whose certificate
 * check needs the name and so cannot be dialled at a pinned address.
 */
import { isIP } from 'node:net';
import { OutboundError, type Resolver, resolveChecked } from './outbound';

const SHAPE = new RegExp(
  String.raw`^\/(ip4|ip6|dns|dns4|dns6)\/([^/]+)\/tcp\/(\d{1,5})((?:\/ws|\/wss|` +
    String.raw`\/tls\/ws)?)((?:\/p2p\/[1-9A-HJ-NP-Za-km-z]{32,64}(?:\/p2p-circuit\/p2p` +
    String.raw`\/[1-9A-HJ-NP-Za-km-z]{32,64})?)?)$`,
);

const unsupported = (detail: string) => new OutboundError('unsupported', detail);

/**
 * The multiaddr to dial instead of `addr`: its host replaced by a checked address. Throws
 * {@link OutboundError} (`private_address`, `unresolved`, `unsupported`).
 */
export async function checkDialAddress(
  addr: string,
  o: { allowPrivate: boolean; resolve?: Resolver },
): Promise<string> {
  const m = SHAPE.exec(addr);
  if (!m) throw unsupported(`not /ip4|ip6|dns*/host/tcp/port[/ws][/p2p/id]: ${addr.slice(0, 100)}`);
  const [, proto, host, port, ws, rest] = m;
  if (Number(port) < 1 || Number(port) > 65_535) throw unsupported(`port ${port}`);
  const literal = proto === 'ip4' || proto === 'ip6';
  if (literal && isIP(host) !== (proto === 'ip4' ? 4 : 6)) throw unsupported(`${host} is not an ${proto} address`);
  if (!literal && ws && ws !== '/ws')
    throw unsupported(
      'TLS WebSockets to a name cannot be dialled at a checked address; register an /ip4 or /ip6 endpoint',
    );
  const addrs = await resolveChecked(host, o);
  const wanted = proto === 'dns4' ? 4 : proto === 'dns6' ? 6 : 0;
  const pick = addrs.find((a) => !wanted || a.family === wanted);
  if (!pick) throw new OutboundError('unresolved', `${host} has no ${proto === 'dns4' ? 'IPv4' : 'IPv6'} address`);
  return `/${pick.family === 4 ? 'ip4' : 'ip6'}/${pick.address}/tcp/${port}${ws}${rest}`;
}
