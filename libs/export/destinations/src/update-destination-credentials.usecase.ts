import { connectionOf, credentialsKeysOf, type Destination } from '@platform/export-data-access';
import type { S3Credentials } from '@platform/export-s3';
import type { UpdateDestinationRequest } from './destination.schema';
import { type DestinationsDeps, normalizeCredentials, validateWrite } from './destinations.deps';
import { getDestination } from './get-destination.usecase';

/** Rotates the credentials after validating them with a test write; runs already started keep the old ones. */
export async function updateDestinationCredentials(
  deps: DestinationsDeps,
  tenantId: string,
  id: string,
  req: UpdateDestinationRequest,
): Promise<Destination> {
  const existing = await getDestination(deps, tenantId, id);
  const credentials = normalizeCredentials(req.credentials) as S3Credentials;
  await validateWrite(deps, tenantId, connectionOf(existing.config, credentials));
  return deps.destinations.updateCredentials(existing.id, {
    credentials,
    credentialsKeys: credentialsKeysOf(credentials),
    displayName: req.display_name,
  });
}
