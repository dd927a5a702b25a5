import type { DestinationsRepository } from '@platform/export-data-access';
import type { EgressPolicy } from '@platform/egress';
import { checkDestination, type S3Credentials, type S3DestinationConnection } from '@platform/export-s3';
import { InputError } from '@platform/errors';
import type { CreateDestinationRequest } from './destination.schema';

export interface DestinationsDeps {
  destinations: DestinationsRepository;
  /** Where a destination's endpoint may be (the operator's egress allowlist); the test write connects through it. */
  egress: EgressPolicy;
  /** Whether the workspace may create a destination without `credentials` (the platform's own, ambient ones). */
  ambientCredentials: (tenantId: string) => boolean;
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

export async function validateWrite(deps: DestinationsDeps, tenantId: string, connection: S3DestinationConnection): Promise<void> {
  const result = await checkDestination(connection, { egress: deps.egress, ambientCredentials: deps.ambientCredentials(tenantId), timeoutMs: deps.checkTimeoutMs });
  if (!result.ok) throw new InputError(`Failed to validate S3 destination: ${result.error.message}`);
}
