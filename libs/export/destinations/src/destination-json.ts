import type { Destination } from '@platform/export-data-access';

/** The JSON shape of a destination: credentials never, only the names of the keys held. */
export function destinationJson(d: Destination) {
  return {
    id: d.id,
    tenant_id: d.tenantId,
    destination_type: d.type,
    display_name: d.displayName,
    config: d.config,
    credentials_keys: d.credentialsKeys,
    created_at: d.createdAt.toISOString(),
    updated_at: d.updatedAt.toISOString(),
  };
}
