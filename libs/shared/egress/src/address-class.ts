import { inCidr, parseCidr, parseIp, type Cidr, type IpAddress } from './ip-address';

/** Why an address is not on the public internet: the kind of range and the block it lies in. */
export interface NonPublicRange {
  kind: string;
  cidr: string;
  /** The IPv6 form that carried the IPv4 address (`IPv4-mapped`, `NAT64`, ...), when it was one. */
  form?: string;
}

const range = (cidr: string, kind: string) => ({ block: parseCidr(cidr), kind });

// Checked in order; the first match names the address.
const IPV4: { block: Cidr; kind: string }[] = [
  range('0.0.0.0/8', 'unspecified ("this network")'),
  range('127.0.0.0/8', 'loopback'),
  range('10.0.0.0/8', 'private'),
  range('172.16.0.0/12', 'private'),
  range('192.168.0.0/16', 'private'),
  range('100.64.0.0/10', 'carrier-grade NAT (shared address space)'),
  range('169.254.0.0/16', 'link-local'),
  range('192.0.0.0/24', 'IETF protocol assignment'),
  range('192.0.2.0/24', 'documentation'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('198.18.0.0/15', 'benchmarking'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved (incl. broadcast)'),
];

const IPV6: { block: Cidr; kind: string }[] = [
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('64:ff9b:1::/48', 'local-use NAT64'),
  range('100::/64', 'discard-only'),
  range('2001::/32', 'Teredo tunnelling'),
  range('2001:db8::/32', 'documentation'),
  range('fc00::/7', 'unique local (private)'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local'),
  range('ff00::/8', 'multicast'),
];

// IPv6 forms that carry an IPv4 address: what they reach is what that address is.
const EMBEDDING: { block: Cidr; extract: (v: bigint) => bigint; kind: string }[] = [
  { block: parseCidr('::ffff:0:0/96'), extract: (v) => v & 0xffffffffn, kind: 'IPv4-mapped' },
  { block: parseCidr('::/96'), extract: (v) => v & 0xffffffffn, kind: 'IPv4-compatible' },
  { block: parseCidr('64:ff9b::/96'), extract: (v) => v & 0xffffffffn, kind: 'NAT64' },
  { block: parseCidr('2002::/16'), extract: (v) => (v >> 80n) & 0xffffffffn, kind: '6to4' },
];

/** The IPv4 address an IPv6 address embeds (mapped, compatible, NAT64, 6to4), if any. */
export function embeddedIpv4(ip: IpAddress): IpAddress | undefined {
  if (ip.version !== 6) return undefined;
  // `::` and `::1` lie in ::/96 but are IPv6's own unspecified and loopback addresses.
  if (ip.value <= 1n) return undefined;
  const form = EMBEDDING.find((e) => inCidr(ip, e.block));
  return form ? { version: 4, value: form.extract(ip.value) } : undefined;
}

/**
 * The non-public range an address lies in (loopback, private, link-local, CGNAT, unspecified, reserved, multicast,
 * and IPv6 forms embedding such an IPv4 address), or undefined for a public address. Not an IP literal: an Error.
 */
export function nonPublicRange(address: string): NonPublicRange | undefined {
  const ip = parseIp(address);
  if (!ip) throw new Error(`'${address}' is not an IP address`);
  return classify(ip);
}

function classify(ip: IpAddress): NonPublicRange | undefined {
  const v4 = embeddedIpv4(ip);
  if (v4) {
    const inner = classify(v4);
    const form = EMBEDDING.find((e) => inCidr(ip, e.block))?.kind;
    return inner && { ...inner, form };
  }
  const hit = (ip.version === 4 ? IPV4 : IPV6).find((r) => inCidr(ip, r.block));
  return hit && { kind: hit.kind, cidr: hit.block.text };
}
