import { displayPrefix, generateApiKey, hashApiKey } from './api-key';
import type { IdentityStore, Organization, Workspace } from './identity.store';

export interface BootstrapResult {
  organization: Organization;
  workspace: Workspace;
  /** The admin key in plain text. It is shown once; only its hash is kept. */
  apiKey: string;
}

/**
 * On first start with an empty database: a default organization, workspace and admin key.
 * Returns `null` when the database already holds an organization (nothing is created twice).
 */
export async function bootstrapIdentity(
  store: IdentityStore,
  names = { organization: 'Default', workspace: 'Default' },
): Promise<BootstrapResult | null> {
  if ((await store.countOrganizations()) > 0) return null;
  const apiKey = generateApiKey('sk');
  const created = await store.createFirstOrganization(names.organization, names.workspace, {
    keyHash: hashApiKey(apiKey),
    keyPrefix: displayPrefix(apiKey),
    description: 'Bootstrap admin key',
    role: 'admin',
  });
  return created && { ...created, apiKey };
}
