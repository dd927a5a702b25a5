import { createS3Client, objectKey, objectKeyPrefix } from './s3-client';
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
  it('uses path style for custom endpoints under auto, virtual for AWS', async () => {
    const custom = createS3Client({ bucket_name: 'b', prefix: '', endpoint_url: 'http://127.0.0.1:1' });
    const aws = createS3Client({ bucket_name: 'b', prefix: '', region: 'eu-west-1' });
    const forcedVirtual = createS3Client({ bucket_name: 'b', prefix: '', endpoint_url: 'http://x', addressing_style: 'virtual' });
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
    });
    expect(await client.config.credentials()).toMatchObject({ accessKeyId: 'AK', secretAccessKey: 'SK', sessionToken: 'ST' });
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

  it('names a bodyless 403 on HEAD as Forbidden / access denied', () => {
    expect(describeS3Error('HeadObject', sdkError('Unknown', 403))).toMatchObject({ kind: 'access_denied', code: 'Forbidden' });
  });
});
