/**
 * Which workspaces may use the platform's own AWS credentials (the SDK's default chain: environment, shared files,
 * instance/container roles) for a destination without `credentials`: the ids listed in
 * `EXPORT_AMBIENT_CREDENTIALS_WORKSPACES`, `*` for every workspace (a single-tenant installation). Default none.
 */
export function ambientCredentialsFor(workspaces: string[]): (tenantId: string) => boolean {
  const listed = new Set(workspaces.map((w) => w.trim().toLowerCase()).filter(Boolean));
  return (tenantId) => listed.has('*') || listed.has(tenantId.toLowerCase());
}
