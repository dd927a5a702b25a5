import dns from 'node:dns';
import { nonPublicRange, embeddedIpv4 } from './address-class';
import { bareHost, inCidr, parseCidr, parseIp, type Cidr } from './ip-address';

/** One address a name resolves to (what `dns.lookup(..., { all: true })` answers). */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Resolves a host name to its addresses (default: the system resolver, `dns.lookup` with `all`). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface EgressPolicyOptions {
  /** Non-public blocks the operator allows (`EGRESS_ALLOWED_CIDRS`), e.g. a self-hosted MinIO's `10.1.2.0/24`. */
  allowedCidrs?: string[];
  /** Host names the operator allows whatever they resolve to (`EGRESS_ALLOWED_HOSTS`), e.g. `minio.internal`. */
  allowedHosts?: string[];
  resolver?: Resolver;
}

/** A connection the policy refused: the host leads to a non-public address the operator did not allow. */
export class EgressRefusedError extends Error {
  readonly code = 'EGRESS_REFUSED';
  constructor(
    readonly host: string,
    readonly kind: string,
    readonly cidr: string,
    readonly form?: string,
  ) {
    super(
      `${host} leads to a ${kind} address (${cidr}${form ? `, in its ${form} IPv6 form` : ''}): the platform does not connect to loopback, private, link-local or ` +
        'other non-public addresses unless its operator allows them (EGRESS_ALLOWED_CIDRS, EGRESS_ALLOWED_HOSTS)',
    );
    this.name = 'EgressRefusedError';
  }
}

/** A host name that does not resolve at all. */
export class EgressUnresolvedError extends Error {
  readonly code = 'ENOTFOUND';
  constructor(readonly host: string) {
    super(`${host} does not resolve to any address`);
    this.name = 'EgressUnresolvedError';
  }
}

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | ResolvedAddress[], family?: number) => void;

/**
 * Which addresses outbound connections to tenant-given URLs may reach: public ones, plus what the operator allows.
 * `lookup` resolves once, checks every address, and hands the checked ones to the socket, so the address connected
 * to is the address checked (a name that re-resolves elsewhere between a check and the connect gains nothing).
 */
export class EgressPolicy {
  private readonly cidrs: Cidr[];
  private readonly hosts: Set<string>;
  private readonly resolver: Resolver;

  constructor(options: EgressPolicyOptions = {}) {
    this.cidrs = (options.allowedCidrs ?? []).map(parseCidr);
    this.hosts = new Set((options.allowedHosts ?? []).map((h) => h.trim().toLowerCase().replace(/\.$/, '')).filter(Boolean));
    this.resolver = options.resolver ?? systemResolver;
  }

  /** Why `address` (reached as `host`) is refused, or undefined when it may be connected to. */
  refusal(address: string, host = address): EgressRefusedError | undefined {
    const ip = parseIp(address);
    if (!ip) return new EgressRefusedError(host, 'non-IP', address);
    const range = nonPublicRange(address);
    if (!range) return undefined;
    const v4 = embeddedIpv4(ip);
    if (this.cidrs.some((c) => inCidr(ip, c) || (v4 !== undefined && inCidr(v4, c)))) return undefined;
    return new EgressRefusedError(host, range.kind, range.cidr, range.form);
  }

  /** The addresses `host` resolves to, every one checked; EgressRefusedError if any is refused. */
  async resolve(host: string): Promise<ResolvedAddress[]> {
    const name = bareHost(host).toLowerCase().replace(/\.$/, '');
    const literal = parseIp(name);
    if (literal) {
      const refused = this.refusal(name, host);
      if (refused) throw refused;
      return [{ address: name, family: literal.version }];
    }
    const addresses = await this.resolver(name);
    if (!addresses.length) throw new EgressUnresolvedError(host);
    if (this.hosts.has(name)) return addresses;
    for (const a of addresses) {
      const refused = this.refusal(a.address, host);
      if (refused) throw refused;
    }
    return addresses;
  }

  /** A `dns.lookup`-compatible function for sockets (`net.connect({ lookup })`, http agents). */
  readonly lookup = (hostname: string, options: unknown, callback?: LookupCallback): void => {
    const cb = (typeof options === 'function' ? options : callback) as LookupCallback;
    const opts = (typeof options === 'object' && options !== null ? options : {}) as { all?: boolean; family?: number | string };
    const family = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : Number(opts.family ?? 0);
    this.resolve(hostname).then(
      (all) => {
        const wanted = family === 4 || family === 6 ? all.filter((a) => a.family === family) : all;
        if (!wanted.length) return cb(new EgressUnresolvedError(hostname), '');
        if (opts.all) cb(null, wanted);
        else cb(null, wanted[0].address, wanted[0].family);
      },
      (err: NodeJS.ErrnoException) => cb(err, ''),
    );
  };

  /**
   * Checks a URL before it is stored or used: http(s) only, and its host resolving to allowed addresses only. The
   * connection itself is checked again (`lookup`, `agents`): a name's answer may change in between.
   */
  async checkUrl(url: string): Promise<void> {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`${parsed.protocol} URLs are not allowed (http or https only)`);
    await this.resolve(parsed.hostname);
  }
}
