/**
 * @module delivery/urlPolicy: where the platform may send webhook events. An app owner chooses the
 * URL, so without limits the platform would make requests for them into its own network (SSRF).
 * The rules: https only; no user name or password in the URL; the host must resolve only to
 * public addresses (checked at connection time, so a DNS answer cannot change between the check
 * and the request). When the operator allows local development (`GUILDHALL_ALLOW_LOCAL_WEBHOOKS`),
 * http and https to loopback (127.0.0.0/8, ::1, localhost) are allowed too; private networks never.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Addresses no webhook may reach: private, shared, link-local, multicast and reserved ranges. */
const NON_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['64:ff9b::', 96],
  // Inside global unicast but carrying or relaying IPv4 (any of it, 127/8 and 10/8 included):
  // 6to4 and Teredo.
  ['2002::', 16],
  ['2001::', 32],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NON_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** IPv6 outside global unicast (IPv4-compatible ::/96, site-local fec0::/10, NAT64...) is refused. */
const GLOBAL_UNICAST = new BlockList();
GLOBAL_UNICAST.addSubnet('2000::', 3, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is judged as the IPv4 address it carries. */
function unmapped(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1] !== undefined) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

function isLoopback(address: string): boolean {
  const { address: a, family } = unmapped(address);
  return LOOPBACK.check(a, family);
}

/** Whether a connection to this IP address is allowed. */
export function addressAllowed(address: string, allowLocal: boolean): boolean {
  const { address: a, family } = unmapped(address);
  if (LOOPBACK.check(a, family)) return allowLocal;
  if (family === 'ipv6' && !GLOBAL_UNICAST.check(a, family)) return false;
  return !NON_PUBLIC.check(a, family);
}

function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Why the URL may not receive webhook events, or null when it may (its host's addresses are
 * checked again when connecting).
 */
export function webhookUrlProblem(raw: string, allowLocal: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'it is not a well formed URL';
  }
  if (url.username !== '' || url.password !== '') return 'it must not contain credentials';
  const host = bareHost(url);
  const local = host === 'localhost' || (isIP(host) !== 0 && isLoopback(host));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local && allowLocal)) {
    return allowLocal ? 'it must use https (or http to a loopback address)' : 'it must use https';
  }
  if (local && !allowLocal) return 'local addresses are not allowed on this server';
  if (isIP(host) !== 0 && !addressAllowed(host, allowLocal)) {
    return `${host} is not a public address`;
  }
  return null;
}

/**
 * A DNS lookup for outgoing webhook requests that refuses hosts resolving to any address the
 * policy forbids. Node calls it for host names (not IP literals, which webhookUrlProblem checks).
 */
export function guardedLookup(allowLocal: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) {
        callback(err, '', 0);
        return;
      }
      const refused = addresses.find((a) => !addressAllowed(a.address, allowLocal));
      const first = addresses[0];
      if (refused !== undefined || first === undefined) {
        const reason = refused
          ? // The address stays out of the message: app owners must not learn internal DNS answers.
            `${hostname} resolves to a non-public address, which is not allowed`
          : `${hostname} has no address`;
        callback(Object.assign(new Error(reason), { code: 'EADDRNOTALLOWED' }), '', 0);
        return;
      }
      if (options.all === true) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}
