import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { checkDestination } from './destination-check';
import { createS3Client } from './s3-client';
import { EgressPolicy } from '@platform/egress';
import { nthRequestFault, startNotS3Server, startS3FaultProxy, startTestS3Server, testEgress, type S3FaultProxy, type TestS3Server } from './s3-server.testing';

const egress = testEgress();
const check = (connection: Parameters<typeof checkDestination>[0]) => checkDestination(connection, { egress });

describe('checkDestination against s3rver', () => {
  let s3: TestS3Server;
  let proxy: S3FaultProxy;

  beforeAll(async () => {
    s3 = await startTestS3Server({ buckets: ['exports'] });
    proxy = await startS3FaultProxy(s3.endpoint);
  });
  afterEach(() => proxy.setRule(undefined));
  afterAll(async () => {
    await proxy.close();
    await s3.close();
  });

  async function keys(prefix = ''): Promise<string[]> {
    const client = createS3Client(s3.connection('exports'), { egress });
    const out = await client.send(new ListObjectsV2Command({ Bucket: 'exports', Prefix: prefix }));
    client.destroy();
    return (out.Contents ?? []).map((o) => o.Key!);
  }

  it('writes a test file under <prefix>/tmp/, verifies its size and deletes it', async () => {
    const result = await check(proxy.connection('exports', { prefix: '/team/a/' }));
    expect(result).toMatchObject({ ok: true, deleted: true, sizeVerified: true });
    if (!result.ok) throw new Error('unreachable');
    expect(result.key).toMatch(/^team\/a\/tmp\/bulk-export-check-[0-9a-f-]+\.txt$/);
    expect(proxy.requests.map((r) => r.operation)).toEqual(['PutObject', 'HeadObject', 'DeleteObject']);
    expect(await keys('team/')).toEqual([]);
  });

  it('keeps the file under tmp/ when delete is denied, and still succeeds', async () => {
    proxy.setRule((r) => (r.operation === 'DeleteObject' ? { kind: 's3-error', code: 'AccessDenied' } : undefined));
    const result = await check(proxy.connection('exports', { prefix: 'keep' }));
    expect(result).toMatchObject({ ok: true, deleted: false });
    expect(await keys('keep/')).toEqual([expect.stringMatching(/^keep\/tmp\/bulk-export-check-/)]);
  });

  it('succeeds without read permission (no size verification)', async () => {
    proxy.setRule((r) => (r.operation === 'HeadObject' ? { kind: 's3-error', code: 'AccessDenied' } : undefined));
    expect(await check(proxy.connection('exports'))).toMatchObject({ ok: true, deleted: true, sizeVerified: false });
  });

  it('puts the bucket name in the key when include_bucket_in_prefix is set', async () => {
    const result = await check(proxy.connection('exports', { prefix: 'p', include_bucket_in_prefix: true }));
    expect(result.ok && result.key).toMatch(/^exports\/p\/tmp\//);
  });

  it('Access denied when the write is refused, naming PutObject and the code', async () => {
    proxy.setRule((r) => (r.operation === 'PutObject' ? { kind: 's3-error', code: 'AccessDenied' } : undefined));
    const result = await check(proxy.connection('exports'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ kind: 'access_denied', operation: 'PutObject', code: 'AccessDenied', httpStatus: 403, destinationError: true });
    expect(result.error.message).toMatch(/^Access denied: PutObject failed with AccessDenied \(HTTP 403\)/);
  });

  it('Bucket is not valid for a missing bucket', async () => {
    const result = await check(s3.connection('no-such-bucket'));
    expect(!result.ok && result.error).toMatchObject({ kind: 'invalid_bucket', operation: 'PutObject', code: 'NoSuchBucket' });
    expect(!result.ok && result.error.message).toMatch(/^Bucket is not valid: PutObject failed with NoSuchBucket/);
  });

  it('Key ID you provided does not exist for an unknown access key', async () => {
    const result = await check(s3.connection('exports', { credentials: { access_key_id: 'AKIAUNKNOWN', secret_access_key: 'x' } }));
    expect(!result.ok && result.error).toMatchObject({ kind: 'invalid_key_id', code: 'InvalidAccessKeyId' });
    expect(!result.ok && result.error.message).toMatch(/^Key ID you provided does not exist: PutObject failed with InvalidAccessKeyId/);
  });

  it.each([200, 404])('Invalid endpoint for a web server that is not S3 (HTTP %s)', async (status) => {
    const web = await startNotS3Server(status);
    try {
      const result = await check(s3.connection('exports', { endpoint_url: web.endpoint }));
      expect(!result.ok && result.error).toMatchObject({ kind: 'invalid_endpoint', operation: 'PutObject' });
      expect(!result.ok && result.error.message).toMatch(/^Invalid endpoint: PutObject/);
    } finally {
      await web.close();
    }
  });

  it('Invalid endpoint when nothing listens there, without naming the connection error', async () => {
    const result = await check(s3.connection('exports', { endpoint_url: 'http://127.0.0.1:9' }));
    expect(!result.ok && result.error).toMatchObject({ kind: 'invalid_endpoint', code: 'Unreachable' });
    expect(!result.ok && result.error.message).toBe('Invalid endpoint: PutObject failed: the destination could not be reached');
  });

  it('a dropped connection reads the same as nothing listening (no port scanner)', async () => {
    proxy.setRule(() => ({ kind: 'drop' }));
    const dropped = await check(proxy.connection('exports'));
    const closed = await check(s3.connection('exports', { endpoint_url: 'http://127.0.0.1:9' }));
    expect(!dropped.ok && dropped.error.message).toBe(!closed.ok && closed.error.message);
  });

  it("never repeats the S3 error body's message", async () => {
    proxy.setRule(() => ({ kind: 's3-error', code: 'AccessDenied', message: 'internal: bucket owned by account 123456789012 at 10.0.0.5' }));
    const result = await check(proxy.connection('exports'));
    expect(!result.ok && result.error.message).toBe('Access denied: PutObject failed with AccessDenied (HTTP 403)');
  });

  it('refuses 127.0.0.1 when the operator did not allow it, before any request', async () => {
    const before = proxy.requests.length;
    const result = await checkDestination(proxy.connection('exports'), { egress: new EgressPolicy() });
    expect(!result.ok && result.error).toMatchObject({ kind: 'invalid_endpoint', code: 'EgressRefused', destinationError: true });
    expect(!result.ok && result.error.message).toContain('127.0.0.1 leads to a loopback address (127.0.0.0/8)');
    expect(proxy.requests.length).toBe(before);
  });

  it("refuses a destination without credentials unless the platform's own are allowed", async () => {
    const result = await check(s3.connection('exports', { credentials: undefined }));
    expect(!result.ok && result.error).toMatchObject({ kind: 'access_denied', code: 'AmbientCredentialsRefused' });
  });

  it('a transient server error is not a destination error', async () => {
    proxy.setRule((r) => (r.operation === 'PutObject' ? { kind: 's3-error', code: 'InternalError', status: 500 } : undefined));
    const result = await check(proxy.connection('exports'));
    expect(!result.ok && result.error).toMatchObject({ kind: 'other', code: 'InternalError', destinationError: false });
  });

  it('a dropped connection is not a destination error', async () => {
    proxy.setRule(() => ({ kind: 'drop' }));
    const result = await check(proxy.connection('exports'));
    expect(!result.ok && result.error).toMatchObject({ kind: 'other', destinationError: false });
  });
});

describe('nthRequestFault', () => {
  it('fails only the nth request of an operation', async () => {
    const s3 = await startTestS3Server({ buckets: ['b'] });
    const proxy = await startS3FaultProxy(s3.endpoint, nthRequestFault('PutObject', 2, { kind: 's3-error', code: 'InternalError', status: 500 }));
    try {
      const results = [];
      for (let i = 0; i < 3; i++) results.push((await check(proxy.connection('b'))).ok);
      expect(results).toEqual([true, false, true]);
    } finally {
      await proxy.close();
      await s3.close();
    }
  });
});
