import { nonPublicRange } from './address-class';
import { EgressPolicy, EgressRefusedError } from './egress-policy';

describe('nonPublicRange', () => {
  it.each([
    ['127.0.0.1', 'loopback', '127.0.0.0/8'],
    ['127.255.255.254', 'loopback', '127.0.0.0/8'],
    ['10.1.2.3', 'private', '10.0.0.0/8'],
    ['172.16.0.1', 'private', '172.16.0.0/12'],
    ['172.31.255.255', 'private', '172.16.0.0/12'],
    ['192.168.1.1', 'private', '192.168.0.0/16'],
    ['100.64.0.1', 'carrier-grade NAT (shared address space)', '100.64.0.0/10'],
    ['100.127.255.255', 'carrier-grade NAT (shared address space)', '100.64.0.0/10'],
    ['169.254.169.254', 'link-local', '169.254.0.0/16'],
    ['0.0.0.0', 'unspecified ("this network")', '0.0.0.0/8'],
    ['255.255.255.255', 'reserved (incl. broadcast)', '240.0.0.0/4'],
    ['224.0.0.1', 'multicast', '224.0.0.0/4'],
    ['::', 'unspecified', '::/128'],
    ['::1', 'loopback', '::1/128'],
    ['[::1]', 'loopback', '::1/128'],
    ['fe80::1', 'link-local', 'fe80::/10'],
    ['fe80::1%eth0', 'link-local', 'fe80::/10'],
    ['febf:ffff::1', 'link-local', 'fe80::/10'],
    ['fc00::1', 'unique local (private)', 'fc00::/7'],
    ['fd12:3456::1', 'unique local (private)', 'fc00::/7'],
    ['ff02::1', 'multicast', 'ff00::/8'],
    ['2001:db8::1', 'documentation', '2001:db8::/32'],
  ])('%s is %s (%s)', (address, kind, cidr) => {
    expect(nonPublicRange(address)).toEqual({ kind, cidr });
  });

  it.each([
    ['::ffff:127.0.0.1', 'loopback', '127.0.0.0/8', 'IPv4-mapped'],
    ['::ffff:7f00:1', 'loopback', '127.0.0.0/8', 'IPv4-mapped'],
    ['0:0:0:0:0:ffff:a9fe:a9fe', 'link-local', '169.254.0.0/16', 'IPv4-mapped'],
    ['::ffff:10.0.0.1', 'private', '10.0.0.0/8', 'IPv4-mapped'],
    ['::127.0.0.1', 'loopback', '127.0.0.0/8', 'IPv4-compatible'],
    ['64:ff9b::7f00:1', 'loopback', '127.0.0.0/8', 'NAT64'],
    ['2002:7f00:1::1', 'loopback', '127.0.0.0/8', '6to4'],
    ['2002:a9fe:a9fe::', 'link-local', '169.254.0.0/16', '6to4'],
  ])('%s embeds a %s address (%s, %s)', (address, kind, cidr, form) => {
    expect(nonPublicRange(address)).toEqual({ kind: expect.stringContaining(kind), cidr, form });
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '169.253.255.255', '192.169.0.1', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    '%s is public',
    (address) => {
      expect(nonPublicRange(address)).toBeUndefined();
    },
  );

  it('refuses to classify what is not an IP literal', () => {
    expect(() => nonPublicRange('example.com')).toThrow('not an IP address');
    expect(() => nonPublicRange('0x7f.1')).toThrow('not an IP address');
  });
});

describe('EgressPolicy.checkUrl', () => {
  // Names that must not leave the machine: the resolver answers them; anything else is a test bug.
  const names: Record<string, string[]> = { 'public.example': ['93.184.216.34'], 'internal.example': ['93.184.216.34', '10.0.0.7'], localhost: ['127.0.0.1', '::1'] };
  const resolver = async (host: string) => {
    const found = names[host];
    if (!found) throw new Error(`unexpected lookup of ${host}`);
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const policy = new EgressPolicy({ resolver });

  // The WHATWG URL parser (what `new URL`, the AWS SDK and fetch use) reads every IPv4 spelling inet_aton does.
  it.each([
    'http://127.0.0.1/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0x7f000001/',
    'http://0177.0.0.1/',
    'http://017700000001/',
    'http://127.1/',
    'http://127.0.1/',
    'http://[::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[0:0:0:0:0:ffff:7f00:1]/',
    'http://169.254.169.254/latest/meta-data/',
    'http://0xa9fea9fe/',
    'http://0/',
    'http://0.0.0.0:8080/',
    'http://[::]/',
    'http://[fe80::1]/',
    'https://10.0.0.1:9000/bucket',
    'http://100.64.1.1/',
    'http://LOCALHOST/',
    'http://localhost./',
    'http://internal.example/',
  ])('%s is refused', async (url) => {
    await expect(policy.checkUrl(url)).rejects.toBeInstanceOf(EgressRefusedError);
  });

  it('refuses a name when any of its addresses is non-public, naming the rule but not the address', async () => {
    const err = await policy.checkUrl('http://internal.example/').catch((e: Error) => e);
    expect(err).toBeInstanceOf(EgressRefusedError);
    expect((err as Error).message).toMatch(/^internal\.example leads to a private address \(10\.0\.0\.0\/8\).*EGRESS_ALLOWED_CIDRS/);
    expect((err as Error).message).not.toContain('10.0.0.7');
  });

  it('lets public addresses through', async () => {
    await expect(policy.checkUrl('https://public.example/hook')).resolves.toBeUndefined();
    await expect(policy.checkUrl('http://8.8.8.8/')).resolves.toBeUndefined();
  });

  it('refuses other schemes', async () => {
    await expect(policy.checkUrl('file:///etc/passwd')).rejects.toThrow('http or https only');
    await expect(policy.checkUrl('gopher://public.example/')).rejects.toThrow('http or https only');
  });

  it('lets the operator allow blocks and host names', async () => {
    const allowing = new EgressPolicy({ resolver, allowedCidrs: ['127.0.0.1/32', 'fc00::/7'], allowedHosts: ['Internal.Example'] });
    await expect(allowing.checkUrl('http://127.0.0.1:9000/')).resolves.toBeUndefined();
    await expect(allowing.checkUrl('http://[::ffff:127.0.0.1]/')).resolves.toBeUndefined();
    await expect(allowing.checkUrl('http://[fd00::5]/')).resolves.toBeUndefined();
    await expect(allowing.checkUrl('http://internal.example/')).resolves.toBeUndefined();
    // The allowance is exactly what was written: the rest of loopback stays closed, and so does ::1.
    await expect(allowing.checkUrl('http://127.0.0.2/')).rejects.toBeInstanceOf(EgressRefusedError);
    await expect(allowing.checkUrl('http://localhost/')).rejects.toBeInstanceOf(EgressRefusedError);
  });

  it('reads inet_aton spellings the system resolver accepts as the address they are', async () => {
    const system = new EgressPolicy();
    await expect(system.resolve('0x7f.1')).rejects.toBeInstanceOf(EgressRefusedError);
    await expect(system.resolve('2130706433')).rejects.toBeInstanceOf(EgressRefusedError);
    await expect(system.resolve('0177.0.0.1')).rejects.toBeInstanceOf(EgressRefusedError);
  });

  it('rejects malformed allowlist entries', () => {
    expect(() => new EgressPolicy({ allowedCidrs: ['10.0.0.0/33'] })).toThrow('not an IP address or CIDR block');
    expect(() => new EgressPolicy({ allowedCidrs: ['minio.internal'] })).toThrow('not an IP address or CIDR block');
  });
});
