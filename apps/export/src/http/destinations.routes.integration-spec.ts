import { randomUUID } from 'node:crypto';
import { startS3FaultProxy, startTestS3Server, type S3FaultProxy, type TestS3Server } from '@platform/export-s3/testing';
import { startNotS3Server } from '@platform/export-s3/testing';
import { startTestExportService, type TestExportService } from '../export-service.testing';

// Destinations over HTTP against a real S3-compatible server (s3rver), with a fault-injecting proxy for the
// answers s3rver cannot give itself.
jest.setTimeout(60_000);

let s3: TestS3Server;
let proxy: S3FaultProxy;
let svc: TestExportService;
const tenant = randomUUID();
const SECRET = 'wJalrXUtnFEMI-K7MDENG-bPxRfiCYEXAMPLEKEY';
const TOKEN = 'FQoGZXIvYXdzEXAMPLESESSIONTOKEN';

beforeAll(async () => {
  s3 = await startTestS3Server({ buckets: ['exports'] });
  proxy = await startS3FaultProxy(s3.endpoint);
  // This workspace alone may use the platform's own credentials (the tests' process environment).
  svc = await startTestExportService({ EXPORT_AMBIENT_CREDENTIALS_WORKSPACES: tenant });
});
afterEach(() => proxy.setRule(undefined));
afterAll(async () => {
  await svc?.stop();
  await proxy?.close();
  await s3?.close();
});

function destination(overrides: { config?: object; credentials?: object | null } = {}) {
  return {
    destination_type: 's3',
    display_name: 'My bucket',
    config: { bucket_name: 'exports', prefix: 'team/a', region: 'us-east-1', endpoint_url: proxy.endpoint, config_kwargs_s3: { addressing_style: 'path' }, ...overrides.config },
    credentials: overrides.credentials === null ? undefined : (overrides.credentials ?? { access_key_id: 'S3RVER', secret_access_key: SECRET, session_token: TOKEN }),
  };
}

describe('POST /api/v1/bulk-exports/destinations', () => {
  it('validates with a test write and returns the destination with credentials_keys, never the credentials', async () => {
    const res = await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', destination());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(String),
      tenant_id: tenant,
      destination_type: 's3',
      display_name: 'My bucket',
      config: {
        bucket_name: 'exports',
        prefix: 'team/a',
        region: 'us-east-1',
        endpoint_url: proxy.endpoint,
        include_bucket_in_prefix: false,
        config_kwargs_s3: { addressing_style: 'path' },
      },
      credentials_keys: ['access_key_id', 'secret_access_key', 'session_token'],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const ops = proxy.requests.map((r) => `${r.operation} ${r.path}`);
    expect(ops).toEqual([
      expect.stringMatching(/^PutObject \/exports\/team\/a\/tmp\/bulk-export-check-/),
      expect.stringMatching(/^HeadObject /),
      expect.stringMatching(/^DeleteObject /),
    ]);

    // At rest: encrypted; nowhere in replies, rows or logs.
    const [row] = await svc.db.prisma.$queryRaw<Record<string, unknown>[]>`SELECT * FROM bulk_export_destinations WHERE id = ${res.body.id}::uuid`;
    expect(String(row.credentials_encrypted)).toMatch(/^v1:/);
    const everything = JSON.stringify(row) + JSON.stringify((await svc.call(tenant, 'GET', `/api/v1/bulk-exports/destinations/${res.body.id}`)).body) + svc.logs();
    for (const secret of [SECRET, TOKEN]) expect(everything).not.toContain(secret);
  });

  it('keeps the test file under tmp/ when delete is denied, and still accepts the destination', async () => {
    proxy.setRule((r) => (r.operation === 'DeleteObject' ? { kind: 's3-error', code: 'AccessDenied' } : undefined));
    const res = await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', destination({ config: { prefix: 'nodelete' } }));
    expect(res.status).toBe(200);
  });

  it('answers 422 without config.prefix (the specification requires it) and stores nothing; "" is the bucket root', async () => {
    const before = (await svc.call(tenant, 'GET', '/api/v1/bulk-exports/destinations')).body.length;
    const { prefix: _prefix, ...withoutPrefix } = destination().config;
    const res = await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', { ...destination(), config: withoutPrefix });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual([{ loc: ['body', 'config', 'prefix'], msg: 'Field required', type: 'missing' }]);
    expect((await svc.call(tenant, 'GET', '/api/v1/bulk-exports/destinations')).body).toHaveLength(before);
    proxy.requests.length = 0;
    const root = await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', destination({ config: { prefix: '' } }));
    expect([root.status, root.body.config?.prefix]).toEqual([200, '']);
    expect(proxy.requests[0].path).toMatch(/^\/exports\/tmp\//);
  });

  it('puts the bucket name in the key with include_bucket_in_prefix', async () => {
    proxy.requests.length = 0;
    const res = await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', destination({ config: { prefix: 'p', include_bucket_in_prefix: true } }));
    expect(res.status).toBe(200);
    expect(proxy.requests[0].path).toMatch(/^\/exports\/exports\/p\/tmp\//);
  });

  it("without a credentials object, refuses a workspace the operator did not allow to use the platform's own credentials", async () => {
    proxy.requests.length = 0;
    const saved = process.env['AWS_ACCESS_KEY_ID'];
    process.env['AWS_ACCESS_KEY_ID'] = 'S3RVER';
    try {
      const res = await svc.call(randomUUID(), 'POST', '/api/v1/bulk-exports/destinations', destination({ credentials: null }));
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'credentials'], type: 'missing' })]);
      expect(proxy.requests).toHaveLength(0);
    } finally {
      if (saved === undefined) delete process.env['AWS_ACCESS_KEY_ID'];
      else process.env['AWS_ACCESS_KEY_ID'] = saved;
    }
  });

  it('without a credentials object, uses the SDK default credential chain (here: the environment) where the operator allows it', async () => {
    const saved = { id: process.env['AWS_ACCESS_KEY_ID'], secret: process.env['AWS_SECRET_ACCESS_KEY'] };
    process.env['AWS_ACCESS_KEY_ID'] = 'S3RVER';
    process.env['AWS_SECRET_ACCESS_KEY'] = 'from-the-environment';
    try {
      const res = await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', destination({ credentials: null }));
      expect(res.status).toBe(200);
      expect(res.body.credentials_keys).toEqual([]);
      process.env['AWS_ACCESS_KEY_ID'] = 'AKIA-NOT-KNOWN';
      const rejected = await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', destination({ credentials: null }));
      expect(rejected.body.detail).toMatch(/InvalidAccessKeyId/);
    } finally {
      for (const [k, v] of [['AWS_ACCESS_KEY_ID', saved.id], ['AWS_SECRET_ACCESS_KEY', saved.secret]] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it.each([
    ['Access denied', () => proxy.setRule((r) => (r.operation === 'PutObject' ? { kind: 's3-error', code: 'AccessDenied' } : undefined)), {}, /^Failed to validate S3 destination: Access denied: PutObject failed with AccessDenied \(HTTP 403\)/],
    ['Bucket is not valid', () => undefined, { config: { bucket_name: 'missing-bucket' } }, /^Failed to validate S3 destination: Bucket is not valid: PutObject failed with NoSuchBucket/],
    ['Key ID does not exist', () => undefined, { credentials: { access_key_id: 'AKIANOPE', secret_access_key: 'x' } }, /^Failed to validate S3 destination: Key ID you provided does not exist: PutObject failed with InvalidAccessKeyId/],
  ])('400 %s', async (_name, arrange, overrides, detail) => {
    arrange();
    const res = await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', destination(overrides));
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(detail);
  });

  it('400 Invalid endpoint for something that is not S3', async () => {
    const web = await startNotS3Server(404);
    try {
      const res = await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', destination({ config: { endpoint_url: web.endpoint } }));
      expect(res.status).toBe(400);
      expect(res.body.detail).toMatch(/^Failed to validate S3 destination: Invalid endpoint: PutObject failed/);
    } finally {
      await web.close();
    }
  });

  it('never repeats the remote error body, nor a connection error', async () => {
    proxy.setRule(() => ({ kind: 's3-error', code: 'AccessDenied', message: 'arn:aws:iam::123456789012:role/internal at 10.0.0.5' }));
    const denied = await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', destination());
    expect(denied.body.detail).toBe('Failed to validate S3 destination: Access denied: PutObject failed with AccessDenied (HTTP 403)');
    proxy.setRule(() => ({ kind: 'drop' }));
    const dropped = await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', destination());
    const closed = await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', destination({ config: { endpoint_url: 'http://127.0.0.1:9' } }));
    expect(dropped.status).toBe(400);
    expect(dropped.body.detail).toBe('Failed to validate S3 destination: Invalid endpoint: PutObject failed: the destination could not be reached');
    expect(closed.body).toEqual(dropped.body);
  });

  it('400 naming the rule for an endpoint on 127.0.0.1 when the operator did not allow it, and connects nowhere', async () => {
    proxy.requests.length = 0;
    const strict = await startTestExportService({ EGRESS_ALLOWED_CIDRS: '' });
    try {
      for (const endpoint of [proxy.endpoint, proxy.endpoint.replace('127.0.0.1', 'localhost'), proxy.endpoint.replace('127.0.0.1', '[::ffff:127.0.0.1]'), proxy.endpoint.replace('127.0.0.1', '2130706433')]) {
        const res = await strict.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', destination({ config: { endpoint_url: endpoint } }));
        expect(res.status).toBe(400);
        expect(res.body.detail).toMatch(/^Failed to validate S3 destination: Invalid endpoint: .* leads to a loopback address \(127\.0\.0\.0\/8[^)]*\): .*\(EGRESS_ALLOWED_CIDRS, EGRESS_ALLOWED_HOSTS\)$/);
      }
      expect(proxy.requests).toHaveLength(0);
      expect((await strict.call(tenant, 'GET', '/api/v1/bulk-exports/destinations')).body).toEqual([]);
    } finally {
      await strict.stop();
    }
  });

  it('422 FastAPI-shaped for a malformed body', async () => {
    const res = await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', { destination_type: 's3', config: { endpoint_url: 'nope' } });
    expect(res.status).toBe(422);
    expect(res.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['body', 'display_name'], type: 'missing' }),
        expect.objectContaining({ loc: ['body', 'config', 'bucket_name'], type: 'missing' }),
        expect.objectContaining({ loc: ['body', 'config', 'endpoint_url'] }),
      ]),
    );
  });
});

describe('GET and PATCH destinations', () => {
  it('lists and reads only the caller workspace', async () => {
    const created = (await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', destination())).body;
    const list = await svc.call(tenant, 'GET', '/api/v1/bulk-exports/destinations');
    expect(list.status).toBe(200);
    expect(list.body.map((d: { id: string }) => d.id)).toContain(created.id);
    expect(JSON.stringify(list.body)).not.toContain(SECRET);

    const other = randomUUID();
    expect((await svc.call(other, 'GET', '/api/v1/bulk-exports/destinations')).body).toEqual([]);
    expect((await svc.call(other, 'GET', `/api/v1/bulk-exports/destinations/${created.id}`)).status).toBe(404);
    expect((await svc.call(tenant, 'GET', '/api/v1/bulk-exports/destinations/not-a-uuid')).status).toBe(404);
  });

  it('rotates credentials only after they pass the test write', async () => {
    const created = (await svc.call(tenant, 'POST', '/api/v1/bulk-exports/destinations', destination())).body;
    const bad = await svc.call(tenant, 'PATCH', `/api/v1/bulk-exports/destinations/${created.id}`, { credentials: { access_key_id: 'AKIANOPE', secret_access_key: 'x' } });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/Key ID you provided does not exist/);

    const good = await svc.call(tenant, 'PATCH', `/api/v1/bulk-exports/destinations/${created.id}`, { credentials: { access_key_id: 'S3RVER', secret_access_key: 'rotated-secret' } });
    expect(good.status).toBe(200);
    expect(good.body.credentials_keys).toEqual(['access_key_id', 'secret_access_key']);
    expect(JSON.stringify(good.body)).not.toContain('rotated-secret');

    expect((await svc.call(randomUUID(), 'PATCH', `/api/v1/bulk-exports/destinations/${created.id}`, { credentials: { access_key_id: 'S3RVER', secret_access_key: 'y' } })).status).toBe(404);
    expect((await svc.call(tenant, 'PATCH', `/api/v1/bulk-exports/destinations/${created.id}`, {})).status).toBe(422);
  });
});
