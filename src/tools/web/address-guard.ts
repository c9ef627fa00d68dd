import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

/** Decides one resolved address: undefined allows it, a string is why it is refused. */
export type AddressPolicy = (address: string) => string | undefined;

type Range = readonly [base: number, prefix: number, name: string];

const ip4 = (text: string): number => text.split('.').reduce((value, part) => value * 256 + Number(part), 0);

/** IPv4 ranges web_fetch never reaches without SYLVAN_FETCH_ALLOW_PRIVATE=1. */
const PRIVATE_V4: readonly Range[] = [
  [ip4('0.0.0.0'), 8, '"this network" (0.0.0.0/8)'],
  [ip4('10.0.0.0'), 8, 'private (10.0.0.0/8)'],
  [ip4('100.64.0.0'), 10, 'carrier-grade NAT (100.64.0.0/10)'],
  [ip4('127.0.0.0'), 8, 'loopback (127.0.0.0/8)'],
  [ip4('169.254.0.0'), 16, 'link-local (169.254.0.0/16)'],
  [ip4('172.16.0.0'), 12, 'private (172.16.0.0/12)'],
  [ip4('192.0.0.0'), 24, 'IETF protocol assignments (192.0.0.0/24)'],
  [ip4('192.168.0.0'), 16, 'private (192.168.0.0/16)'],
  [ip4('198.18.0.0'), 15, 'benchmarking (198.18.0.0/15)'],
  [ip4('224.0.0.0'), 4, 'multicast (224.0.0.0/4)'],
  [ip4('240.0.0.0'), 4, 'reserved (240.0.0.0/4)'],
];

/** Cloud metadata services: refused even with the override, since they hand out credentials. */
const METADATA_V4 = new Map([
  [ip4('169.254.169.254'), 'a cloud metadata service (169.254.169.254)'],
  [ip4('169.254.170.2'), 'a container metadata service (169.254.170.2)'],
  [ip4('100.100.100.200'), 'the Alibaba Cloud metadata service (100.100.100.200)'],
]);
const METADATA_V6 = new Map([['fd00:ec2:0:0:0:0:0:254', 'the AWS metadata service (fd00:ec2::254)']]);

function inRange(value: number, [base, prefix]: Range): boolean {
  const size = 2 ** (32 - prefix);
  return Math.floor(value / size) === Math.floor(base / size);
}

/** Eight 16-bit groups of an IPv6 address (an embedded dotted IPv4 tail included), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase().replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const value = ip4(dotted[1]);
    text = `${text.slice(0, dotted.index)}${Math.floor(value / 65536).toString(16)}:${(value % 65536).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return undefined;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((group) => parseInt(group, 16));
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : undefined;
}

function classifyV4(value: number, allowPrivate: boolean): string | undefined {
  const metadata = METADATA_V4.get(value);
  if (metadata) return metadata;
  if (value === ip4('255.255.255.255')) return 'broadcast (255.255.255.255)';
  if (allowPrivate) return undefined;
  return PRIVATE_V4.find((range) => inRange(value, range))?.[2];
}

function classifyV6(groups: number[], allowPrivate: boolean): string | undefined {
  const [g0 = 0, g1 = 0, , , , g5 = 0, g6 = 0, g7 = 0] = groups;
  const embedded = g6 * 65536 + g7;
  const zeroPrefix = (count: number) => groups.slice(0, count).every((group) => group === 0);
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d, also ::1 and ::) and NAT64 (64:ff9b::a.b.c.d)
  // reach an IPv4 host: judge that host.
  if (zeroPrefix(5) && g5 === 0xffff) return classifyV4(embedded, allowPrivate);
  if (zeroPrefix(6)) {
    if (embedded <= 1) return allowPrivate ? undefined : embedded === 1 ? 'loopback (::1)' : 'unspecified (::)';
    return classifyV4(embedded, allowPrivate);
  }
  if (g0 === 0x64 && g1 === 0xff9b && groups.slice(2, 6).every((group) => group === 0)) return classifyV4(embedded, allowPrivate);
  if (g0 === 0x2002) return classifyV4(g1 * 65536 + (groups[2] ?? 0), allowPrivate); // 6to4 carries an IPv4 address
  const metadata = METADATA_V6.get(groups.map((group) => group.toString(16)).join(':'));
  if (metadata) return metadata;
  if (allowPrivate) return undefined;
  if ((g0 & 0xfe00) === 0xfc00) return 'unique-local (fc00::/7)';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local (fe80::/10)';
  if ((g0 & 0xffc0) === 0xfec0) return 'site-local (fec0::/10)';
  if ((g0 & 0xff00) === 0xff00) return 'multicast (ff00::/8)';
  return undefined;
}

/**
 * The default policy: loopback, private, link-local, CGNAT, multicast, reserved, and IPv4 hidden in
 * IPv6 forms are refused unless `allowPrivate`; metadata services are refused always.
 */
export function addressPolicy(allowPrivate: boolean): AddressPolicy {
  return (address) => {
    const family = isIP(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
    if (family === 4) return classifyV4(ip4(address), allowPrivate);
    const groups = family === 6 ? ipv6Groups(address) : undefined;
    if (!groups) return `not an IP address ("${address}")`;
    return classifyV6(groups, allowPrivate);
  };
}

/** Thrown when an address is refused; its message is written for the model. */
export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
}

export function blockedMessage(host: string, address: string, reason: string): string {
  const shown = host === address ? address : `${host} (${address})`;
  return `web_fetch refused ${shown}: it is ${reason}, which web_fetch does not reach, so nothing was fetched. Tell the user; do not retry with another form of the same address.`;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request`: resolves the name, refuses it when ANY of its addresses is
 * refused, and hands the socket exactly the addresses it checked — so the connection goes to a
 * checked address and a second, rebound DNS answer never comes into play.
 */
export function guardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: { all?: boolean; family?: number | string }, callback: LookupCallback): void => {
    dnsLookup(hostname, { all: true, family: options.family === 'IPv6' ? 6 : options.family === 'IPv4' ? 4 : Number(options.family ?? 0) || 0 }, (error, addresses) => {
      if (error) return callback(error, []);
      for (const entry of addresses) {
        const reason = policy(entry.address);
        if (reason) return callback(new BlockedAddressError(blockedMessage(hostname, entry.address, reason)), []);
      }
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    });
  };
}

/**
 * Checks a host before web_fetch suggests it to the model (a redirect to another domain): an IP
 * literal as it is, a name by its addresses. A name that does not resolve passes here; the fetch
 * itself will fail on it.
 */
export async function refusedHost(hostname: string, policy: AddressPolicy): Promise<string | undefined> {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    const reason = policy(host);
    return reason ? blockedMessage(host, host, reason) : undefined;
  }
  const addresses = await new Promise<LookupAddress[]>((resolve) => dnsLookup(host, { all: true }, (error, found) => resolve(error ? [] : found)));
  for (const { address } of addresses) {
    const reason = policy(address);
    if (reason) return blockedMessage(host, address, reason);
  }
  return undefined;
}
