import { randomUUID } from 'node:crypto';
import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { createS3Client, objectKey, type S3ClientOptions, type S3DestinationConnection } from './s3-client';
import { describeS3Error, type S3ErrorDescription } from './s3-errors';

export type DestinationCheckResult =
  | { ok: true; key: string; deleted: boolean; sizeVerified: boolean }
  | { ok: false; error: S3ErrorDescription };

const BODY = 'Bulk export destination check. Safe to delete.\n';

/**
 * Proves write access with a real test write under `<prefix>/tmp/`: PutObject, then HeadObject to verify
 * the size when read is allowed, then DeleteObject when delete is allowed (otherwise the file stays).
 * Only write is required; denied read or delete is not a failure. Connections go only where `options.egress` allows.
 */
export async function checkDestination(
  destination: S3DestinationConnection,
  options: Pick<S3ClientOptions, 'egress' | 'ambientCredentials'> & { timeoutMs?: number },
): Promise<DestinationCheckResult> {
  const client = createS3Client(destination, { ...options, maxAttempts: 1, requestTimeoutMs: options.timeoutMs ?? 15_000 });
  const key = objectKey(destination, 'tmp', `bulk-export-check-${randomUUID()}.txt`);
  const bucket = destination.bucket_name;
  try {
    let put;
    try {
      put = await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: BODY, ContentType: 'text/plain' }));
    } catch (err) {
      return { ok: false, error: describeS3Error('PutObject', err) };
    }
    // Every S3 implementation answers a PutObject with an ETag; a server that says 200 without one is not S3.
    if (!put.ETag) {
      return {
        ok: false,
        error: {
          kind: 'invalid_endpoint',
          operation: 'PutObject',
          code: 'MissingETag',
          httpStatus: put.$metadata.httpStatusCode,
          destinationError: true,
          message: 'Invalid endpoint: PutObject returned no ETag; the endpoint does not behave like S3',
        },
      };
    }
    let sizeVerified = false;
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      if (head.ContentLength !== undefined && head.ContentLength !== Buffer.byteLength(BODY)) {
        const message = `Bucket is not valid: HeadObject reported ${head.ContentLength} bytes for a ${Buffer.byteLength(BODY)}-byte test file`;
        return { ok: false, error: { kind: 'invalid_bucket', operation: 'HeadObject', code: 'SizeMismatch', destinationError: true, message } };
      }
      sizeVerified = head.ContentLength !== undefined;
    } catch (err) {
      const described = describeS3Error('HeadObject', err);
      if (described.kind !== 'access_denied') return { ok: false, error: described };
    }
    try {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
      return { ok: true, key, deleted: true, sizeVerified };
    } catch (err) {
      const described = describeS3Error('DeleteObject', err);
      if (described.kind !== 'access_denied') return { ok: false, error: described };
      return { ok: true, key, deleted: false, sizeVerified };
    }
  } finally {
    client.destroy();
  }
}
