import type { DestinationsRepository } from '@platform/export-data-access';
import { checkDestination, type S3Credentials, type S3DestinationConnection } from '@platform/export-s3';
import { InputError } from '@platform/errors';
import type { CreateDestinationRequest } from './destination.schema';

export interface DestinationsDeps {
  destinations: DestinationsRepository;
  /** Self-hosted: a destination without `credentials` uses the SDK's default credential chain. */
  allowAmbientCredentials: boolean;
  checkTimeoutMs?: number;
}

export function normalizeCredentials(c: CreateDestinationRequest['credentials']): S3Credentials | null {
  if (!c) return null;
  return {
    access_key_id: c.access_key_id,
    secret_access_key: c.secret_access_key,
    ...(c.session_token ? { session_token: c.session_token } : {}),
  };
}

export async function validateWrite(deps: DestinationsDeps, connection: S3DestinationConnection): Promise<void> {
  const result = await checkDestination(connection, deps.checkTimeoutMs);
  if (!result.ok) throw new InputError(`Failed to validate S3 destination: ${result.error.message}`);
}
