import { EgressPolicy } from '@platform/egress';
import { AmbientCredentialsRefusedError, createS3Client, objectKey, objectKeyPrefix } from './s3-client';
import { describeS3Error } from './s3-errors';

describe('objectKeyPrefix', () => {
  it.each([
    [{ bucket_name: 'b', prefix: '' }, ''],
    [{ bucket_name: 'b', prefix: '/a/b/' }, 'a/b'],
    [{ bucket_name: 'b', prefix: 'a', include_bucket_in_prefix: true }, 'b/a'],
    [{ bucket_name: 'b', prefix: '', include_bucket_in_prefix: true }, 'b'],
    [{ bucket_name: 'b', prefix: 'b/x', include_bucket_in_prefix: true }, 'b/x'],
    [{ bucket_name: 'b', prefix: 'bx', include_bucket_in_prefix: true }, 'b/bx'],
  ])('%j → %s', (destination, expected) => {
    expect(objectKeyPrefix(destination)).toBe(expected);
  });

  it('joins segments without empty parts', () => {
    expect(objectKey({ bucket_name: 'b', prefix: '' }, 'tmp', 'x.txt')).toBe('tmp/x.txt');
    expect(objectKey({ bucket_name: 'b', prefix: 'p/' }, 'export_id=1/', 'f')).toBe('p/export_id=1/f');
  });
});

describe('createS3Client', () => {
  const egress = new EgressPolicy();
  it('uses path style for custom endpoints under auto, virtual for AWS', async () => {
    const custom = createS3Client({ bucket_name: 'b', prefix: '', endpoint_url: 'http://127.0.0.1:1' }, { egress });
    const aws = createS3Client({ bucket_name: 'b', prefix: '', region: 'eu-west-1' }, { egress });
    const forcedVirtual = createS3Client({ bucket_name: 'b', prefix: '', endpoint_url: 'http://x', addressing_style: 'virtual' }, { egress });
    expect(custom.config.forcePathStyle).toBe(true);
    expect(aws.config.forcePathStyle).toBe(false);
    expect(forcedVirtual.config.forcePathStyle).toBe(false);
    expect(await aws.config.region()).toBe('eu-west-1');
  });

  it('passes static credentials including the session token', async () => {
    const client = createS3Client({
      bucket_name: 'b',
      prefix: '',
      credentials: { access_key_id: 'AK', secret_access_key: 'SK', session_token: 'ST' },
    }, { egress });
    expect(await client.config.credentials()).toMatchObject({ accessKeyId: 'AK', secretAccessKey: 'SK', sessionToken: 'ST' });
  });

  it("refuses the platform's own credentials unless allowed", async () => {
    const refused = createS3Client({ bucket_name: 'b', prefix: '' }, { egress });
    await expect(refused.config.credentials()).rejects.toBeInstanceOf(AmbientCredentialsRefusedError);
    // Allowed: the SDK's default chain, whose first link is the environment.
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'AMBIENT', AWS_SECRET_ACCESS_KEY: 'AMBIENT-SECRET' });
    try {
      const allowed = createS3Client({ bucket_name: 'b', prefix: '' }, { egress, ambientCredentials: true });
      expect(await allowed.config.credentials()).toMatchObject({ accessKeyId: 'AMBIENT', secretAccessKey: 'AMBIENT-SECRET' });
    } finally {
      for (const [key, value] of [['AWS_ACCESS_KEY_ID', saved.id], ['AWS_SECRET_ACCESS_KEY', saved.secret]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });
});

describe('describeS3Error', () => {
  const sdkError = (name: string, status?: number, extra: object = {}) =>
    Object.assign(new Error(name), { name, $metadata: { httpStatusCode: status }, $response: status ? { statusCode: status, headers: { 'content-type': 'application/xml' } } : undefined }, extra);

  it('maps S3 codes onto the four conditions', () => {
    expect(describeS3Error('PutObject', sdkError('AccessDenied', 403)).kind).toBe('access_denied');
    expect(describeS3Error('PutObject', sdkError('SignatureDoesNotMatch', 403)).kind).toBe('access_denied');
    expect(describeS3Error('PutObject', sdkError('NoSuchBucket', 404)).kind).toBe('invalid_bucket');
    expect(describeS3Error('PutObject', sdkError('InvalidAccessKeyId', 403)).kind).toBe('invalid_key_id');
    expect(describeS3Error('PutObject', new Error('AWS SDK error wrapper for Error: getaddrinfo ENOTFOUND x.invalid')).kind).toBe('invalid_endpoint');
  });

  it('treats server errors and throttling as transient', () => {
    for (const [name, status] of [['InternalError', 500], ['SlowDown', 503], ['RequestTimeout', 400]] as const) {
      expect(describeS3Error('UploadPart', sdkError(name, status))).toMatchObject({ kind: 'other', destinationError: false });
    }
  });

  it('never repeats what the remote said, nor an unknown code', () => {
    const xml = sdkError('AccessDenied', 403, { message: 'secret internal detail from the body' });
    expect(describeS3Error('PutObject', xml).message).toBe('Access denied: PutObject failed with AccessDenied (HTTP 403)');
    const odd = sdkError('X-Internal-Service-Says-Hi', 400, { message: 'hello from 10.0.0.5' });
    expect(describeS3Error('PutObject', odd)).toMatchObject({ code: 'UnexpectedResponse', message: 'PutObject failed: the destination answered an error (HTTP 400)' });
  });

  it('says the same about every connection failure (refused, reset, timed out, unresolved)', () => {
    const messages = [
      'AWS SDK error wrapper for Error: connect ECONNREFUSED 10.0.0.5:6379',
      'AWS SDK error wrapper for Error: read ECONNRESET',
      'AWS SDK error wrapper for Error: connect ETIMEDOUT 10.0.0.5:22',
      'AWS SDK error wrapper for Error: getaddrinfo ENOTFOUND x.invalid',
    ].map((m) => describeS3Error('PutObject', new Error(m)));
    for (const d of messages) expect(d).toMatchObject({ code: 'Unreachable', message: 'Invalid endpoint: PutObject failed: the destination could not be reached' });
  });

  it('names an egress refusal and the ambient-credentials refusal', () => {
    const wrapped = Object.assign(new Error('wrapper'), { cause: new EgressPolicy().refusal('127.0.0.1') });
    expect(describeS3Error('PutObject', wrapped)).toMatchObject({ kind: 'invalid_endpoint', code: 'EgressRefused', destinationError: true });
    expect(describeS3Error('PutObject', wrapped).message).toMatch(/^Invalid endpoint: 127\.0\.0\.1 leads to a loopback address \(127\.0\.0\.0\/8\)/);
    expect(describeS3Error('PutObject', new AmbientCredentialsRefusedError())).toMatchObject({ kind: 'access_denied', code: 'AmbientCredentialsRefused' });
  });

  it('names a bodyless 403 on HEAD as Forbidden / access denied', () => {
    expect(describeS3Error('HeadObject', sdkError('Unknown', 403))).toMatchObject({ kind: 'access_denied', code: 'Forbidden' });
  });
});
