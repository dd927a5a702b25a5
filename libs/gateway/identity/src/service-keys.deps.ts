/** The workspace a platform service acts for (from its internally signed request). */
export interface ServiceKeyOwner {
  organizationId: string;
  workspaceId: string;
}
