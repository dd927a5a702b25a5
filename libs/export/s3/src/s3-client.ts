import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { egressAgents, type EgressPolicy } from '@platform/egress';

/** How a client reaches an S3 (or S3-compatible) destination bucket. */
export interface S3DestinationConnection {
  bucket_name: string;
  prefix: string;
  region?: string;
  endpoint_url?: string;
  include_bucket_in_prefix?: boolean;
  addressing_style?: 'auto' | 'virtual' | 'path';
  credentials?: S3Credentials;
}

export interface S3Credentials {
  access_key_id: string;
  secret_access_key: string;
  session_token?: string;
}

export interface S3ClientOptions {
  /** Which addresses the client may connect to: every connection (endpoint or AWS) goes through its agents. */
  egress: EgressPolicy;
  /**
   * Whether a destination without `credentials` may use the SDK's default chain (the platform's own environment,
   * shared files, instance/container roles). Default false: such a client fails every call with AccessDenied.
   */
  ambientCredentials?: boolean;
  /** Per-request socket timeout in ms (default 60 s). */
  requestTimeoutMs?: number;
  /** Attempts the SDK makes per call (default 3). Destination checks use 1 so a bad endpoint fails fast. */
  maxAttempts?: number;
}

// S3-compatible stores that need an explicit endpoint (MinIO, Ceph, s3rver, ...) mostly require
// path-style requests; AWS itself prefers virtual-hosted ones.
function usePathStyle(destination: S3DestinationConnection): boolean {
  const style = destination.addressing_style ?? 'auto';
  if (style === 'path') return true;
  if (style === 'virtual') return false;
  return Boolean(destination.endpoint_url);
}

/** A destination without credentials, where the operator did not allow the platform's own (ambient) ones. */
export class AmbientCredentialsRefusedError extends Error {
  readonly code = 'AmbientCredentialsRefused';
  constructor() {
    super("credentials are required: this workspace may not use the platform's own credentials (EXPORT_AMBIENT_CREDENTIALS_WORKSPACES)");
    this.name = 'AmbientCredentialsRefusedError';
  }
}

/**
 * An SDK client for the destination, connecting only where `options.egress` allows. Without `credentials` the
 * SDK's default provider chain (environment, shared files, web identity, container/instance roles) is used when
 * `options.ambientCredentials` says so, and every call fails otherwise.
 */
export function createS3Client(destination: S3DestinationConnection, options: S3ClientOptions): S3Client {
  const { httpAgent, httpsAgent } = egressAgents(options.egress, { keepAlive: true, maxSockets: 50 });
  const config: S3ClientConfig = {
    // S3-compatible stores ignore the region but SigV4 still needs one.
    region: destination.region || 'us-east-1',
    forcePathStyle: usePathStyle(destination),
    maxAttempts: options.maxAttempts ?? 3,
    requestHandler: { requestTimeout: options.requestTimeoutMs ?? 60_000, connectionTimeout: 10_000, httpAgent, httpsAgent },
    // Newer SDKs add CRC32 checksums to every upload; several S3-compatible stores reject them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  if (destination.endpoint_url) config.endpoint = destination.endpoint_url;
  if (destination.credentials) {
    config.credentials = {
      accessKeyId: destination.credentials.access_key_id,
      secretAccessKey: destination.credentials.secret_access_key,
      ...(destination.credentials.session_token ? { sessionToken: destination.credentials.session_token } : {}),
    };
  } else if (!options.ambientCredentials) {
    config.credentials = () => Promise.reject(new AmbientCredentialsRefusedError());
  }
  return new S3Client(config);
}

function trimSlashes(value: string): string {
  return value.replace(/^\/+|\/+$/g, '');
}

/**
 * The key prefix every object of the destination goes under: the configured prefix without
 * leading/trailing slashes, preceded by the bucket name when `include_bucket_in_prefix` is set
 * (unless the prefix already starts with it). `""` when there is none. Join further segments with `/`.
 */
export function objectKeyPrefix(destination: Pick<S3DestinationConnection, 'bucket_name' | 'prefix' | 'include_bucket_in_prefix'>): string {
  const prefix = trimSlashes(destination.prefix ?? '');
  if (!destination.include_bucket_in_prefix) return prefix;
  const bucket = destination.bucket_name;
  if (prefix === bucket || prefix.startsWith(`${bucket}/`)) return prefix;
  return prefix ? `${bucket}/${prefix}` : bucket;
}

/** Joins key segments under the destination prefix: `objectKey(d, 'tmp', 'x.txt')`. */
export function objectKey(
  destination: Pick<S3DestinationConnection, 'bucket_name' | 'prefix' | 'include_bucket_in_prefix'>,
  ...segments: string[]
): string {
  return [objectKeyPrefix(destination), ...segments.map(trimSlashes)].filter(Boolean).join('/');
}
