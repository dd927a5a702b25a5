import { open } from 'node:fs/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  HeadObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { EgressPolicy } from '@platform/egress';
import { createS3Client, describeS3Error, type S3DestinationConnection } from '@platform/export-s3';
import type { Logger } from '@platform/logging';
import { ObjectStoreError } from '../partition.errors';
import type { LocalFile, ObjectStore, ObjectStoreFactory } from '../ports';

const MIB = 1024 * 1024;
/** S3's limit on parts per upload. */
export const MAX_PARTS = 10_000;

export interface S3ObjectStoreOptions {
  /** Part size, at least 5 MiB (S3's minimum for all but the last part); default 8 MiB. */
  partBytes?: number;
  /** Parts uploaded at once (memory: partBytes × this); default 4. */
  concurrency?: number;
  logger: Logger;
  /** Where the destination may be (the operator's egress allowlist): every connection goes through it. */
  egress: EgressPolicy;
  /** Whether a destination without credentials may use the platform's own (default false). */
  ambientCredentials?: boolean;
}

/** Part size for a file: the configured size, grown in whole MiB when the file would need more than 10,000 parts. */
export function partSizeFor(fileBytes: number, partBytes = 8 * MIB): number {
  const atLeast = Math.ceil(fileBytes / MAX_PARTS / MIB) * MIB;
  return Math.max(partBytes, 5 * MIB, atLeast);
}

function isAbort(err: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (err instanceof Error && err.name === 'AbortError');
}

/** The destination bucket over the AWS SDK: one multipart upload per file, HeadObject for the size check. */
export class S3ObjectStore implements ObjectStore {
  private readonly client: S3Client;

  constructor(
    private readonly destination: S3DestinationConnection,
    private readonly options: S3ObjectStoreOptions,
  ) {
    this.client = createS3Client(destination, { egress: options.egress, ambientCredentials: options.ambientCredentials });
  }

  async putFile(key: string, file: LocalFile, signal: AbortSignal): Promise<void> {
    const Bucket = this.destination.bucket_name;
    let operation = 'CreateMultipartUpload';
    let uploadId: string | undefined;
    try {
      const created = await this.client.send(
        new CreateMultipartUploadCommand({ Bucket, Key: key, ContentType: 'application/vnd.apache.parquet' }),
        { abortSignal: signal },
      );
      uploadId = created.UploadId;
      operation = 'UploadPart';
      const parts = await this.uploadParts(key, uploadId as string, file, signal);
      operation = 'CompleteMultipartUpload';
      await this.client.send(
        new CompleteMultipartUploadCommand({ Bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
        { abortSignal: signal },
      );
    } catch (err) {
      // Abort even on shutdown, so no half-written upload lingers (and keeps costing) in the bucket.
      if (uploadId) await this.abortUpload(key, uploadId);
      if (isAbort(err, signal)) throw signal.reason ?? err;
      const described = describeS3Error(operation, err);
      throw new ObjectStoreError(described.message, operation, described.code, described.destinationError, { cause: err });
    }
  }

  private async uploadParts(key: string, uploadId: string, file: LocalFile, signal: AbortSignal): Promise<CompletedPart[]> {
    const partSize = partSizeFor(file.bytes, this.options.partBytes);
    const count = Math.max(1, Math.ceil(file.bytes / partSize));
    const parts: CompletedPart[] = new Array(count);
    const handle = await open(file.path, 'r');
    let next = 0;
    // A few parts in flight: S3 throughput per connection is latency-bound. Each uploader reads its parts into one
    // buffer of its own, reused once the part is sent (a buffer per part was garbage of the part's size).
    const uploader = async () => {
      let buffer: Buffer | undefined;
      for (let index = next++; index < count && !signal.aborted; index = next++) {
        const offset = index * partSize;
        const length = Math.min(partSize, file.bytes - offset);
        buffer ??= Buffer.allocUnsafe(Math.min(partSize, file.bytes));
        const body = buffer.subarray(0, length);
        const { bytesRead } = await handle.read(body, 0, length, offset);
        if (bytesRead !== length) throw new Error(`Short read of ${file.path} at ${offset}: ${bytesRead} of ${length} bytes`);
        const reply = await this.client.send(
          new UploadPartCommand({ Bucket: this.destination.bucket_name, Key: key, UploadId: uploadId, PartNumber: index + 1, Body: body, ContentLength: length }),
          { abortSignal: signal },
        );
        parts[index] = { PartNumber: index + 1, ETag: reply.ETag };
      }
    };
    try {
      const workers = Array.from({ length: Math.min(this.options.concurrency ?? 4, count) }, uploader);
      const results = await Promise.allSettled(workers);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      if (signal.aborted) throw signal.reason;
      return parts;
    } finally {
      await handle.close();
    }
  }

  private async abortUpload(key: string, uploadId: string): Promise<void> {
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.destination.bucket_name, Key: key, UploadId: uploadId }));
    } catch (err) {
      // Abort permission is optional (spec); the upload then waits for the bucket's lifecycle rules.
      this.options.logger.warn({ key, err: describeS3Error('AbortMultipartUpload', err).message }, 'export: could not abort a multipart upload');
    }
  }

  async sizeOf(key: string, signal: AbortSignal): Promise<number | undefined> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.destination.bucket_name, Key: key }), { abortSignal: signal });
      return head.ContentLength;
    } catch (err) {
      if (isAbort(err, signal)) throw signal.reason ?? err;
      const described = describeS3Error('HeadObject', err);
      // Read permission is optional (spec): without it the size simply cannot be checked.
      if (described.kind === 'access_denied') return undefined;
      throw new ObjectStoreError(described.message, 'HeadObject', described.code, described.destinationError, { cause: err });
    }
  }

  close(): void {
    this.client.destroy();
  }
}

/** An ObjectStoreFactory over S3; `ambientCredentials` says which workspaces may use the platform's own credentials. */
export function s3ObjectStores(
  options: Omit<S3ObjectStoreOptions, 'ambientCredentials'> & { ambientCredentials?: (tenantId: string) => boolean },
): ObjectStoreFactory {
  return (destination, tenantId) => new S3ObjectStore(destination, { ...options, ambientCredentials: options.ambientCredentials?.(tenantId) ?? false });
}
