import { randomUUID } from 'node:crypto';
import { connectionOf, credentialsKeysOf, type Destination, type DestinationConfig, type DestinationsRepository } from '@platform/export-data-access';
import { checkDestination, type S3Credentials, type S3DestinationConnection } from '@platform/export-s3';
import { InputError, NotFoundError, ValidationError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import type { CreateDestinationRequest, UpdateDestinationRequest } from './destination.schema';

export interface DestinationsDeps {
  destinations: DestinationsRepository;
  /** Self-hosted: a destination without `credentials` uses the SDK's default credential chain. */
  allowAmbientCredentials: boolean;
  checkTimeoutMs?: number;
}

function normalizeCredentials(c: CreateDestinationRequest['credentials']): S3Credentials | null {
  if (!c) return null;
  return {
    access_key_id: c.access_key_id,
    secret_access_key: c.secret_access_key,
    ...(c.session_token ? { session_token: c.session_token } : {}),
  };
}

async function validateWrite(deps: DestinationsDeps, connection: S3DestinationConnection): Promise<void> {
  const result = await checkDestination(connection, deps.checkTimeoutMs);
  if (!result.ok) throw new InputError(`Failed to validate S3 destination: ${result.error.message}`);
}

/** Creates a destination after a real test write into `<prefix>/tmp/`. */
export async function createDestination(deps: DestinationsDeps, tenantId: string, req: CreateDestinationRequest): Promise<Destination> {
  const credentials = normalizeCredentials(req.credentials);
  if (!credentials && !deps.allowAmbientCredentials) {
    throw ValidationError.at(['body', 'credentials'], 'Field required', 'missing');
  }
  const config: DestinationConfig = {
    bucket_name: req.config.bucket_name,
    // Stored without leading/trailing slashes: that is how keys are built and what workers expect.
    prefix: req.config.prefix.replace(/^\/+|\/+$/g, ''),
    region: req.config.region ?? null,
    endpoint_url: req.config.endpoint_url ?? null,
    include_bucket_in_prefix: req.config.include_bucket_in_prefix,
    config_kwargs_s3: req.config.config_kwargs_s3 ?? null,
  };
  await validateWrite(deps, connectionOf(config, credentials));
  return deps.destinations.create({
    id: randomUUID(),
    tenantId,
    displayName: req.display_name,
    config,
    credentials,
    credentialsKeys: credentialsKeysOf(credentials),
  });
}

export function listDestinations(deps: Pick<DestinationsDeps, 'destinations'>, tenantId: string, limit = 100, offset = 0) {
  return deps.destinations.list(tenantId, limit, offset);
}

export async function getDestination(deps: Pick<DestinationsDeps, 'destinations'>, tenantId: string, id: string): Promise<Destination> {
  const found = isUuid(id) ? await deps.destinations.find(tenantId, id.toLowerCase()) : null;
  if (!found) throw new NotFoundError(`Bulk export destination ${id} not found`);
  return found;
}

/** Rotates the credentials after validating them with a test write; runs already started keep the old ones. */
export async function updateDestinationCredentials(
  deps: DestinationsDeps,
  tenantId: string,
  id: string,
  req: UpdateDestinationRequest,
): Promise<Destination> {
  const existing = await getDestination(deps, tenantId, id);
  const credentials = normalizeCredentials(req.credentials) as S3Credentials;
  await validateWrite(deps, connectionOf(existing.config, credentials));
  return deps.destinations.updateCredentials(existing.id, {
    credentials,
    credentialsKeys: credentialsKeysOf(credentials),
    displayName: req.display_name,
  });
}
