import { randomUUID } from 'node:crypto';
import { connectionOf, credentialsKeysOf, type Destination, type DestinationConfig } from '@platform/export-data-access';
import { ValidationError } from '@platform/errors';
import type { CreateDestinationRequest } from './destination.schema';
import { type DestinationsDeps, normalizeCredentials, validateWrite } from './destinations.deps';

/** Creates a destination after a real test write into `<prefix>/tmp/`. */
export async function createDestination(deps: DestinationsDeps, tenantId: string, req: CreateDestinationRequest): Promise<Destination> {
  const credentials = normalizeCredentials(req.credentials);
  if (!credentials && !deps.ambientCredentials(tenantId)) {
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
  await validateWrite(deps, tenantId, connectionOf(config, credentials));
  return deps.destinations.create({
    id: randomUUID(),
    tenantId,
    displayName: req.display_name,
    config,
    credentials,
    credentialsKeys: credentialsKeysOf(credentials),
  });
}
