import { isIP } from 'node:net';
import proxyaddr from 'proxy-addr';

/**
 * Which proxies may say who the client is, as Express's 'trust proxy' does: the last `hops`
 * hops of the chain, or every hop whose address is in `addresses` (addresses, CIDR ranges, and
 * proxy-addr's names loopback, linklocal, uniquelocal).
 */
export type ProxyTrust = { hops: number } | { addresses: string[] };

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export const PROXY_TRUST_HELP =
  'write the number of proxies in front of the server (TRUST_PROXY=1 for one nginx or load balancer) or their addresses and ranges (TRUST_PROXY=loopback,10.0.0.0/8)';

/** Reads TRUST_PROXY: undefined trusts no proxy. Throws an Error whose message says what is wrong. */
export function parseProxyTrust(value: string | undefined): ProxyTrust | undefined {
  const text = value?.trim().toLowerCase() ?? '';
  if (text === '' || text === 'false' || text === 'no' || text === '0') return undefined;
  // `true` used to take the leftmost X-Forwarded-For, which the client writes itself. It says
  // nothing about how many proxies there are, so no reading of it is safe for every deployment.
  if (text === 'true' || text === 'yes') {
    throw new Error(`'${text}' does not say which proxies to believe; ${PROXY_TRUST_HELP}`);
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops > 20) throw new Error(`${hops} proxies is more than any deployment has; ${PROXY_TRUST_HELP}`);
    return { hops };
  }
  const addresses = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  for (const address of addresses) {
    if (NAMED_RANGES.has(address)) continue;
    try {
      proxyaddr.compile(address);
    } catch {
      throw new Error(
        `'${address}' is not an IP address, a range such as 10.0.0.0/8, or one of loopback, linklocal, uniquelocal; ${PROXY_TRUST_HELP}`,
      );
    }
  }
  return { addresses };
}

/** One spelling per address: an IPv4 client seen through an IPv6 socket is the IPv4 address. */
function plain(address: string) {
  const lower = address.toLowerCase();
  return lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4 ? lower.slice(7) : lower;
}

/**
 * The client's address from the connection's peer and X-Forwarded-For: walking back from the
 * peer, each hop a declared proxy vouches for, up to the first that is not one. Entries further
 * left were written by the client and are never believed. Compiled once per configuration.
 */
export function clientAddressResolver(trust: ProxyTrust | undefined) {
  const trusted = !trust
    ? undefined
    : 'hops' in trust
      ? (_address: string, hop: number) => hop < trust.hops
      : proxyaddr.compile(trust.addresses);
  return (peer: string | undefined, forwardedFor: string | undefined | null): string => {
    const socket = plain(peer || '127.0.0.1');
    if (!trusted || !forwardedFor) return socket;
    const chain = proxyaddr.all(
      { headers: { 'x-forwarded-for': forwardedFor }, socket: { remoteAddress: socket } } as never,
      trusted,
    );
    // A trusted proxy may pass on what is not an address; the nearest hop that is one is known.
    for (let i = chain.length - 1; i > 0; i--) {
      const address = chain[i]?.trim() ?? '';
      if (isIP(address)) return plain(address);
    }
    return socket;
  };
}

/**
 * What a client's address is counted under in per-address budgets: an IPv4 address as it is, an
 * IPv6 address by its /64. A home or an office gets a whole /64 and may use any address in it, so
 * counting single IPv6 addresses would give each client billions of budgets.
 */
export function addressBudgetKey(address: string): string {
  if (isIP(address) !== 6) return address;
  let text = address.toLowerCase();
  if (text.startsWith('::ffff:') && isIP(text.slice(7)) === 4) return text.slice(7);
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
