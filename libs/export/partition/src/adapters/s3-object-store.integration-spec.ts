import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { createS3Client } from '@platform/export-s3';
import { testEgress, startS3FaultProxy, startTestS3Server, type S3FaultProxy, type TestS3Server } from '@platform/export-s3/testing';
import { silentLogger } from '@platform/logging';
import { ObjectStoreError } from '../partition.errors';
import { MAX_PARTS, partSizeFor, S3ObjectStore } from './s3-object-store';

const MIB = 1024 * 1024;

describe('partSizeFor', () => {
  it('keeps the configured size, never below 5 MiB, and grows it so a file needs at most 10,000 parts', () => {
    expect(partSizeFor(100, 8 * MIB)).toBe(8 * MIB);
    expect(partSizeFor(100, 1 * MIB)).toBe(5 * MIB);
    const huge = 200 * 1024 * MIB; // 200 GiB
    const size = partSizeFor(huge, 8 * MIB);
    expect(size % MIB).toBe(0);
    expect(Math.ceil(huge / size)).toBeLessThanOrEqual(MAX_PARTS);
  });
});

const egress = testEgress();

describe('S3ObjectStore against s3rver', () => {
  let s3: TestS3Server;
  let proxy: S3FaultProxy;
  let dir: string;
  let file: { path: string; bytes: number; content: Buffer };
  const signal = new AbortController().signal;

  beforeAll(async () => {
    s3 = await startTestS3Server({ buckets: ['exports'] });
    proxy = await startS3FaultProxy(s3.endpoint);
    dir = mkdtempSync(join(tmpdir(), 's3-object-store-'));
    const content = randomBytes(12 * MIB + 123);
    writeFileSync(join(dir, 'file.parquet'), content);
    file = { path: join(dir, 'file.parquet'), bytes: content.length, content };
  });
  afterEach(() => {
    proxy.setRule(undefined);
    proxy.requests.length = 0;
  });
  afterAll(async () => {
    await proxy.close();
    await s3.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const store = (bucket = 'exports') => new S3ObjectStore(proxy.connection(bucket), { partBytes: 5 * MIB, concurrency: 2, logger: silentLogger, egress });

  async function keys(): Promise<string[]> {
    const client = createS3Client(s3.connection('exports'), { egress });
    try {
      const objects = await client.send(new ListObjectsV2Command({ Bucket: 'exports' }));
      return (objects.Contents ?? []).map((o) => o.Key as string);
    } finally {
      client.destroy();
    }
  }

  // s3rver implements neither ListMultipartUploads nor the abort itself, so the abort is checked on the wire: the
  // upload the parts went to is the one aborted.
  function expectUploadAborted(): void {
    const partUploads = new Set(proxy.requests.filter((r) => r.operation === 'UploadPart').map((r) => r.query.get('uploadId')));
    const aborts = proxy.requests.filter((r) => r.operation === 'AbortMultipartUpload').map((r) => r.query.get('uploadId'));
    expect(partUploads.size).toBe(1);
    expect(aborts).toEqual([...partUploads]);
    expect(proxy.requests.map((r) => r.operation)).not.toContain('CompleteMultipartUpload');
  }

  it('uploads a file with one multipart upload of 5 MiB parts, and HeadObject reports its size', async () => {
    const s = store();
    await s.putFile('a/b/one.parquet', file, signal);
    expect(proxy.requests.map((r) => r.operation)).toEqual(['CreateMultipartUpload', 'UploadPart', 'UploadPart', 'UploadPart', 'CompleteMultipartUpload']);
    expect(await s.sizeOf('a/b/one.parquet', signal)).toBe(file.bytes);
    const client = createS3Client(s3.connection('exports'), { egress });
    const body = await (await client.send(new GetObjectCommand({ Bucket: 'exports', Key: 'a/b/one.parquet' }))).Body!.transformToByteArray();
    client.destroy();
    expect(Buffer.from(body).equals(file.content)).toBe(true);
    s.close();
  });

  it('aborts the multipart upload when a part keeps failing, and reports a retryable error naming the operation', async () => {
    let parts = 0;
    proxy.setRule((r) => (r.operation === 'UploadPart' && ++parts > 1 ? { kind: 's3-error', code: 'InternalError', status: 500 } : undefined));
    const s = store();
    const err = await s.putFile('failing/part.parquet', file, signal).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ObjectStoreError);
    expect(err).toMatchObject({ operation: 'UploadPart', code: 'InternalError', destinationError: false });
    expectUploadAborted();
    expect(await keys()).toEqual(['a/b/one.parquet']);
    s.close();
  });

  it('aborts and reports a destination error (not retryable) when a part is denied', async () => {
    proxy.setRule((r) => (r.operation === 'UploadPart' ? { kind: 's3-error', code: 'AccessDenied' } : undefined));
    const s = store();
    const err = await s.putFile('denied/part.parquet', file, signal).catch((e: unknown) => e);
    expect(err).toMatchObject({ operation: 'UploadPart', code: 'AccessDenied', destinationError: true, message: expect.stringMatching(/^Access denied: UploadPart failed with AccessDenied/) });
    expectUploadAborted();
    expect(await keys()).toEqual(['a/b/one.parquet']);
    s.close();
  });

  it('reports a missing bucket as a destination error', async () => {
    const s = store('no-such-bucket');
    await expect(s.putFile('x.parquet', file, signal)).rejects.toMatchObject({ operation: 'CreateMultipartUpload', code: 'NoSuchBucket', destinationError: true });
    s.close();
  });

  it('treats a denied HeadObject as "reads not allowed" (no size), and other HeadObject errors as failures', async () => {
    const s = store();
    proxy.setRule((r) => (r.operation === 'HeadObject' ? { kind: 's3-error', code: 'AccessDenied' } : undefined));
    await expect(s.sizeOf('a/b/one.parquet', signal)).resolves.toBeUndefined();
    proxy.setRule((r) => (r.operation === 'HeadObject' ? { kind: 's3-error', code: 'InternalError', status: 500 } : undefined));
    await expect(s.sizeOf('a/b/one.parquet', signal)).rejects.toBeInstanceOf(ObjectStoreError);
    s.close();
  });

  it('aborts the upload when the caller aborts (shutdown) and rethrows the reason', async () => {
    const controller = new AbortController();
    let parts = 0;
    // The shutdown comes while the second part is on the wire (which then never reaches s3rver).
    proxy.setRule((r) => {
      if (r.operation !== 'UploadPart' || ++parts < 2) return undefined;
      controller.abort(new Error('shutdown'));
      return { kind: 'drop' };
    });
    const s = new S3ObjectStore(proxy.connection('exports'), { partBytes: 5 * MIB, concurrency: 1, logger: silentLogger, egress });
    await expect(s.putFile('aborted/part.parquet', file, controller.signal)).rejects.toThrow('shutdown');
    expectUploadAborted();
    expect(await keys()).toEqual(['a/b/one.parquet']);
    s.close();
  });
});
