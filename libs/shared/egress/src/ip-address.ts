import net from 'node:net';

/** An IP address as a number: 32 bits for IPv4, 128 for IPv6. */
export interface IpAddress {
  version: 4 | 6;
  value: bigint;
}

/** `[::1]` → `::1`, `fe80::1%eth0` → `fe80::1`. */
export function bareHost(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
}

function ipv4Value(text: string): bigint {
  return text.split('.').reduce((acc, part) => (acc << 8n) | BigInt(Number(part)), 0n);
}

function ipv6Value(text: string): bigint {
  let body = text;
  // An embedded dotted quad (`::ffff:127.0.0.1`) becomes two hextets.
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(body);
  if (quad) {
    const v = Number(ipv4Value(quad[1]));
    body = `${body.slice(0, -quad[1].length)}${(v >>> 16).toString(16)}:${(v & 0xffff).toString(16)}`;
  }
  const [head, tail] = body.split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const missing = 8 - left.length - right.length;
  const groups = tail === undefined ? left : [...left, ...Array<string>(missing).fill('0'), ...right];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** Parses a canonical IP literal (what DNS answers and what the URL parser leaves); undefined for anything else. */
export function parseIp(text: string): IpAddress | undefined {
  const bare = bareHost(text);
  const version = net.isIP(bare);
  if (version === 4) return { version: 4, value: ipv4Value(bare) };
  if (version === 6) return { version: 6, value: ipv6Value(bare) };
  return undefined;
}

/** A CIDR block such as `10.0.0.0/8` or `fd00::/8` (a bare address is a /32 or /128). */
export interface Cidr {
  version: 4 | 6;
  base: bigint;
  bits: number;
  text: string;
}

export function parseCidr(text: string): Cidr {
  const [address, prefix] = text.trim().split('/');
  const ip = parseIp(address);
  const width = ip?.version === 4 ? 32 : 128;
  const bits = prefix === undefined ? width : Number(prefix);
  if (!ip || !/^\d*$/.test(prefix ?? '') || !Number.isInteger(bits) || bits < 0 || bits > width) {
    throw new Error(`'${text}' is not an IP address or CIDR block (e.g. 10.0.0.0/8, fd00::/8)`);
  }
  const shift = BigInt(width - bits);
  return { version: ip.version, base: (ip.value >> shift) << shift, bits, text: text.trim() };
}

export function inCidr(ip: IpAddress, cidr: Cidr): boolean {
  if (ip.version !== cidr.version) return false;
  const shift = BigInt((ip.version === 4 ? 32 : 128) - cidr.bits);
  return ip.value >> shift === cidr.base >> shift;
}
