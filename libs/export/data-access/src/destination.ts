import type { S3Credentials, S3DestinationConnection } from '@platform/export-s3';

/** The non-secret settings of an S3 destination, as stored in `config` and returned on the wire. */
export interface DestinationConfig {
  bucket_name: string;
  prefix: string;
  region: string | null;
  endpoint_url: string | null;
  include_bucket_in_prefix: boolean;
  config_kwargs_s3: { addressing_style: 'auto' | 'virtual' | 'path' } | null;
}

/** A bulk-export destination without its credentials. */
export interface Destination {
  id: string;
  tenantId: string;
  type: string;
  displayName: string;
  config: DestinationConfig;
  credentialsKeys: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** What an S3 client needs for the destination, with the given credentials (none = default chain). */
export function connectionOf(config: DestinationConfig, credentials?: S3Credentials | null): S3DestinationConnection {
  return {
    bucket_name: config.bucket_name,
    prefix: config.prefix,
    ...(config.region ? { region: config.region } : {}),
    ...(config.endpoint_url ? { endpoint_url: config.endpoint_url } : {}),
    include_bucket_in_prefix: config.include_bucket_in_prefix,
    addressing_style: config.config_kwargs_s3?.addressing_style ?? 'auto',
    ...(credentials ? { credentials } : {}),
  };
}

/** Key names present in a credentials object, in a stable order. */
export function credentialsKeysOf(credentials: S3Credentials | null | undefined): string[] {
  if (!credentials) return [];
  return (['access_key_id', 'secret_access_key', 'session_token'] as const).filter((k) => Boolean(credentials[k]));
}
