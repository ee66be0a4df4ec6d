import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, isIPv4, isIPv6, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';

/**
 * SSRF guard for outgoing webhook deliveries.
 *
 * - `isForbiddenAddress` classifies one IP address (pure).
 * - `checkTargetUrl` validates a configured URL before it is stored (pure, no DNS).
 * - `createGuardedAgent` enforces the rule on the address actually connected to,
 *   after DNS resolution, which also defeats DNS rebinding and names such as
 *   `localhost` or `*.nip.io` that resolve to private addresses.
 */

const V4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network" / unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT (also 100.100.100.200, Alibaba metadata)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 cloud metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // TEST-NET-1
  ['192.88.99.0', 24], // 6to4 relay anycast (deprecated)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. 255.255.255.255 broadcast
] as const) {
  V4.addSubnet(net, prefix, 'ipv4');
}

const V6 = new BlockList();
for (const [net, prefix] of [
  ['::', 96], // unspecified ::, loopback ::1 and deprecated IPv4-compatible ::a.b.c.d
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local (fd00::1, fd00:ec2::254 AWS metadata)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  V6.addSubnet(net, prefix, 'ipv6');
}

/** Expands a valid IPv6 address (no zone id) into its 8 16-bit groups. */
function ipv6Groups(ip: string): number[] | null {
  let s = ip;
  const lastColon = s.lastIndexOf(':');
  const last = s.slice(lastColon + 1);
  if (last.includes('.')) {
    // trailing dotted quad (::ffff:1.2.3.4) → two hex groups
    if (!isIPv4(last)) return null;
    const [a = 0, b = 0, c = 0, d = 0] = last.split('.').map(Number);
    s = `${s.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string | undefined): number[] =>
    part === undefined || part === ''
      ? []
      : part.split(':').map((h) => (/^[0-9a-f]{1,4}$/i.test(h) ? parseInt(h, 16) : NaN));
  const head = parse(halves[0]);
  const rest = parse(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...rest];
  if (groups.length !== 8 || groups.some((g) => Number.isNaN(g))) return null;
  return groups;
}

function embeddedIPv4(groups: number[]): string {
  return ipv4Of(groups[6] ?? 0, groups[7] ?? 0);
}

function ipv4Of(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/**
 * True when a webhook must not be delivered to this address: loopback,
 * unspecified, private, CGNAT, link-local (cloud metadata), unique-local,
 * multicast, reserved/documentation ranges. IPv4-mapped (::ffff:a.b.c.d), IPv4-translated
 * (::ffff:0:a.b.c.d), NAT64 (64:ff9b::a.b.c.d) and 6to4 (2002:aabb:ccdd::) IPv6 addresses
 * are judged by their IPv4 part; Teredo (2001::/32) by both IPv4 addresses it carries;
 * the local-use NAT64 prefix 64:ff9b:1::/48 is always refused.
 * Anything that is not a valid IP address is forbidden (fail closed).
 */
export function isForbiddenAddress(ip: string): boolean {
  let addr = ip.trim();
  if (addr.startsWith('[') && addr.endsWith(']')) addr = addr.slice(1, -1);
  const zone = addr.indexOf('%');
  if (zone !== -1) addr = addr.slice(0, zone); // zone ids only exist on link-local addresses anyway
  if (isIPv4(addr)) return V4.check(addr, 'ipv4');
  if (!isIPv6(addr)) return true;
  const groups = ipv6Groups(addr.toLowerCase());
  if (!groups) return true;
  const [g0, g1, g2, g3, g4, g5] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return V4.check(embeddedIPv4(groups), 'ipv4'); // IPv4-mapped
  }
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0xffff && g5 === 0) {
    return V4.check(embeddedIPv4(groups), 'ipv4'); // IPv4-translated (RFC 2765, SIIT)
  }
  if (g0 === 0x2001 && g1 === 0) {
    // Teredo (RFC 4380): 2001:0:<server>:<flags>:<port>:<client>, the client's IPv4 inverted.
    // Packets reach the client through the server's relay, so either one private is refused.
    const server = ipv4Of(g2!, g3!);
    const client = ipv4Of(groups[6]! ^ 0xffff, groups[7]! ^ 0xffff);
    return V4.check(server, 'ipv4') || V4.check(client, 'ipv4');
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return V4.check(embeddedIPv4(groups), 'ipv4'); // NAT64 well-known prefix
  }
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) {
    return true; // NAT64 local-use prefix (RFC 8215): translated inside the operator's own network
  }
  if (g0 === 0x2002) {
    // 6to4: 2002:AABB:CCDD::/48 is routed to the IPv4 host AA.BB.CC.DD
    return V4.check(embeddedIPv4([0, 0, 0, 0, 0, 0, groups[1]!, groups[2]!]), 'ipv4');
  }
  const normalized = groups.map((g) => g.toString(16)).join(':');
  return V6.check(normalized, 'ipv6');
}

/**
 * Validates a webhook target URL. Returns null when acceptable, otherwise a short
 * human-readable reason. Host names are not resolved here (the guarded agent
 * re-checks the resolved address at connect time).
 */
export function checkTargetUrl(url: string, allowPrivate: boolean): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'not a valid URL';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return 'only http and https URLs are allowed';
  if (u.protocol !== 'https:' && !allowPrivate) return 'https is required';
  if (u.username !== '' || u.password !== '') return 'credentials in the URL are not allowed';
  if (u.hostname === '') return 'the URL has no host';
  if (!allowPrivate) {
    const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
    if (isIP(host) !== 0 && isForbiddenAddress(host)) {
      return 'the target address is private, loopback, link-local or reserved';
    }
    const name = host.toLowerCase().replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) {
      return 'the target address is private, loopback, link-local or reserved';
    }
  }
  return null;
}

export class ForbiddenTargetError extends Error {
  readonly code = 'FORBIDDEN_TARGET';
  constructor(message = 'target address is not allowed') {
    super(message);
    this.name = 'ForbiddenTargetError';
  }
}

/**
 * A `net.connect` lookup function that resolves with dns.lookup({ all: true })
 * and refuses the connection when ANY resolved address is forbidden (a name
 * mixing public and private addresses is treated as hostile).
 */
const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { family: options.family ?? 0, hints: options.hints ?? 0, all: true }, (err, addresses) => {
    if (err) {
      (callback as (e: Error) => void)(err);
      return;
    }
    const list = addresses as LookupAddress[];
    if (list.length === 0) {
      (callback as (e: Error) => void)(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }));
      return;
    }
    if (list.some((a) => isForbiddenAddress(a.address))) {
      (callback as (e: Error) => void)(new ForbiddenTargetError(`${hostname} resolves to a forbidden address`));
      return;
    }
    if (options.all) {
      (callback as (e: null, a: LookupAddress[]) => void)(null, list);
    } else {
      const first = list[0]!;
      (callback as (e: null, a: string, f: number) => void)(null, first.address, first.family);
    }
  });
};

/**
 * An undici Agent for webhook deliveries. Unless `allowPrivate`, every new
 * connection is checked on the address actually connected to (IP literals
 * directly, names after DNS resolution); a forbidden target fails the request
 * with an error whose `code` is 'FORBIDDEN_TARGET' before any socket is opened.
 * TCP keep-alive and HTTP connection reuse are on; connect timeout = timeoutMs.
 * Redirects are never followed (no redirect interceptor).
 */
export function createGuardedAgent(opts: { allowPrivate: boolean; timeoutMs: number; ca?: string }): Agent {
  const base = buildConnector({
    timeout: opts.timeoutMs,
    keepAlive: true,
    // Tests' own certificate authority (a loopback https server); production trusts the system's.
    ...(opts.ca ? { ca: opts.ca } : {}),
    ...(opts.allowPrivate ? {} : { lookup: guardedLookup }),
  });
  if (opts.allowPrivate) {
    return new Agent({ connect: base, keepAliveTimeout: 10_000 });
  }
  const connect: buildConnector.connector = (options, callback) => {
    const host = options.hostname.startsWith('[') ? options.hostname.slice(1, -1) : options.hostname;
    // net.connect skips the lookup function for IP literals: check them here.
    if (isIP(host) !== 0 && isForbiddenAddress(host)) {
      queueMicrotask(() => callback(new ForbiddenTargetError(`${host} is a forbidden address`), null));
      return;
    }
    base(options, callback);
  };
  return new Agent({ connect, keepAliveTimeout: 10_000 });
}
